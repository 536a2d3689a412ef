"""The Prometheus endpoint: what a host sees of a running server, read as Prometheus
reads it (prometheus-client's own parser), while real SSH clients play."""

from __future__ import annotations

import asyncio
import socket
import urllib.request
from dataclasses import replace

import asyncssh
import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import TEST_CONFIG
from diamant_tui.engine.events import CardRevealed
from diamant_tui.table import TableSettings
from diamant_server.server import GameServer
from test_ssh_chat_abuse import say

TURN = "Your turn"


async def scrape(port: int) -> dict[tuple[str, tuple], float]:
    """Every sample the endpoint gives, by name and labels. Read in a thread: the
    endpoint asks the server's event loop, which must stay free to answer."""
    def read() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
            assert answer.status == 200
            assert answer.headers["Content-Type"].startswith("text/plain")
            return answer.read().decode()

    text = await asyncio.to_thread(read)
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def reveals_so_far(table) -> int:
    return sum(isinstance(event, CardRevealed) for event in table.game.events)


async def test_the_endpoint_shows_sessions_tables_seats_reveals_and_refusals(
        tmp_path, players, make_key):
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, max_per_address=3,
                                chat_person_lines=1, chat_window=600))
    await server.start()
    try:
        assert server.metrics.port == 0, "off by default"
        port = server.metrics.start("127.0.0.1", 0)
        table = server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2,
                                                  seed=3, pace=0.02), None)
        server.lobby.create(TableSettings(name="hall", seats=4), None)
        ann, wes = players("ann"), players("wes")
        await ann.connect(server.port, key=make_key(), command="play den")
        await ann.wait_for(TURN)
        await wes.connect(server.port, key=make_key(), command="watch den")
        await wes.wait_for("watching")
        first = await scrape(port)
        assert first[("diamant_sessions", ())] == 2
        assert first[("diamant_connections", ())] == 2
        assert first[("diamant_tables", (("status", "playing"),))] == 1
        assert first[("diamant_tables", (("status", "waiting"),))] == 1
        assert first[("diamant_tables", (("status", "finished"),))] == 0
        assert first[("diamant_seats_taken", ())] == 1
        assert first[("diamant_watchers", ())] == 1
        assert first[("process_cpu_seconds_total", ())] > 0
        # Every card turned so far, counted once (not once per screen that showed it).
        assert first[("diamant_reveals_total", ())] == reveals_so_far(table) >= 1

        # More cards: the counter follows the game.
        seen = reveals_so_far(table)
        while reveals_so_far(table) < seen + 2 and table.game is not None:
            ann.press("c")
            await ann.wait_for(lambda screen: TURN in screen or "Final scores" in screen)
            await asyncio.sleep(0.05)  # a key per turn, not a flood
        second = await scrape(port)
        assert second[("diamant_reveals_total", ())] >= seen + 2

        # Refusals: one connection too many from this address, a refused name, a chat
        # line over the person's allowance.
        third = players("cy")
        await third.connect(server.port, key=make_key())
        await third.wait_for("lobby")
        with pytest.raises(asyncssh.DisconnectError):
            await players("dee").connect(server.port, key=make_key())
        await third.close()
        # The server counts the connection gone only once it has seen it close.
        for _ in range(600):
            if len(server.connections) == 2:
                break
            await asyncio.sleep(0.05)
        admin = players("Admin")
        await admin.connect(server.port, key=make_key())
        await admin.wait_closed()
        assert await say(ann, "hello") is None
        assert await say(ann, "again") is not None  # refused: one line a window
        third = await scrape(port)
        assert third[("diamant_refused_connections_total", (("reason", "address"),))] == 1
        assert third[("diamant_refused_connections_total", (("reason", "name"),))] == 1
        assert third[("diamant_chat_lines_refused_total", (("allowance", "person"),))] == 1
    finally:
        await server.stop()
    # Stopped with the server: nothing listens there any more.
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_the_metrics_port_setting_starts_the_endpoint_on_the_loopback_only(tmp_path):
    port = free_port()
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, metrics_port=port))
    await server.start()
    try:
        assert server.metrics.port == port
        samples = await scrape(port)
        assert samples[("diamant_sessions", ())] == 0
        listening = server.metrics._server.socket.getsockname()
        assert listening[0] == "127.0.0.1"
    finally:
        await server.stop()


async def test_a_metrics_port_taken_stops_the_start_with_a_clear_message(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, metrics_port=port))
        with pytest.raises(OSError, match=f"the metrics endpoint cannot listen on 127.0.0.1 "
                                          f"port {port}: another program listens there"):
            await server.start()
        assert server._acceptor is None  # the SSH port was let go again
