"""One rude client and its own session: sizes, input floods, a client that stops reading,
its environment and what of it reaches the log. Each attack is made with a real client;
meanwhile a fresh connection reaches the lobby and others keep playing."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import replace

import pytest

from conftest import TEST_CONFIG
from harness import Player
from diamant_server.server import GameServer
from diamant_server.session import SessionLimits
from test_ssh_terminal import a_game_in_progress, still_playing, until

MIB = 1024 * 1024
FRESH_JOIN = 3.0
"""Seconds a fresh connection may take to reach the lobby while an attack goes on. Without
an attack it takes a few tenths of a second here; the attacks measured took 30 s or more."""


def rss() -> int:
    """The server's resident memory (it runs in this process), in bytes."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


async def fresh_join_seconds(server, players, make_key, name: str) -> float:
    """How long a new person takes from connecting to seeing the lobby."""
    start = time.monotonic()
    person = players(name)
    await person.connect(server.port, key=make_key())
    await person.wait_for("lobby")
    seconds = time.monotonic() - start
    await person.close()
    return seconds


def session_of(server, name: str):
    return next(s for s in server.sessions if s.identity.name == name)


@pytest.fixture
async def strict_server(tmp_path):
    """A server that closes floods after 4 s and stuck clients after 2 s (tests stay short)."""
    game_server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, input_flood_seconds=4.0,
                                     output_stall_timeout=2.0))
    await game_server.start()
    yield game_server
    await game_server.stop()


# --- sizes -------------------------------------------------------------------------------


async def test_pty_and_window_sizes_go_through_one_clamp(server, players, make_key):
    huge = players("hal", size=(1000, 1000))
    await huge.connect(server.port, key=make_key())
    await until(lambda: any(s.identity.name == "hal" and s.app is not None
                            and s.app.is_running for s in server.sessions))
    session = session_of(server, "hal")
    assert session.size == (500, 200)
    await until(lambda: tuple(session.app.size) == (500, 200))
    huge.chan.change_terminal_size(4000, 3000)
    huge.chan.change_terminal_size(600, 10)
    await until(lambda: tuple(session.app.size) == (500, 10))
    assert session.size == (500, 10)


async def test_an_in_band_size_report_typed_as_input_changes_nothing(
        server, players, make_key):
    bob = await a_game_in_progress(server, players, make_key)
    eve = players("eve")
    await eve.connect(server.port, key=make_key())
    await eve.wait_for("lobby")
    session = session_of(server, "eve")
    # Beyond the clamp but harmless: before the fix this became the app's size.
    eve.send(b"\x1b[48;300;1200;0;0t")
    eve.press("n")
    await eve.wait_for("Open a table")
    assert tuple(session.app.size) == (80, 24)
    # The report that took 7.8 GiB; then the same cut in two, as a parser would join it.
    before = rss()
    eve.send(b"\x1b[48;100000;100000;0;0t")
    eve.send(b"\x1b[48;1;100000;")
    eve.send(b"0;0t")
    eve.press("escape")
    await eve.wait_for(lambda t: "Open a table" not in t)
    assert tuple(session.app.size) == (80, 24)
    assert await fresh_join_seconds(server, players, make_key, "fay") < FRESH_JOIN
    await still_playing(bob)
    assert rss() - before < 30 * MIB


# --- input floods ------------------------------------------------------------------------


async def flood(player: Player, seconds: float, chunk: bytes) -> None:
    """Send ``chunk`` 30 times a second for ``seconds`` (about 30 KB/s for 1 KB chunks,
    under the byte allowance), as a flooder would."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end and not player.closed.is_set():
        player.send(chunk)
        await asyncio.sleep(1 / 30)


KEYS_AND_MOUSE = (b"\x1b[B\x1b[A" * 40 + b"\x1b[<35;10;5M\x1b[<35;11;6M" * 20 + b"jk" * 60)


async def test_a_key_flood_is_thinned_before_parsing_told_then_closed(
        strict_server, players, make_key, caplog):
    server = strict_server
    bob = await a_game_in_progress(server, players, make_key)
    eve = players("eve")
    await eve.connect(server.port, key=make_key())
    await eve.wait_for("lobby")
    session = session_of(server, "eve")
    with caplog.at_level(logging.INFO, logger="diamant_server"):
        attack = asyncio.create_task(flood(eve, 10.0, KEYS_AND_MOUSE))
        await eve.wait_for("Keys are arriving faster")
        assert await fresh_join_seconds(server, players, make_key, "fay") < FRESH_JOIN
        await still_playing(bob)
        await eve.wait_closed()
        attack.cancel()
    assert b"too many keys or mouse reports for too long" in eve.raw
    assert session.gate is None or session.gate.dropped_total > 1000
    warnings = [r.getMessage() for r in caplog.records if "keys or mouse reports" in r.getMessage()]
    assert len(warnings) == 1, warnings  # one warning per flood, not one per chunk
    assert any(re.match(r"s\d+: .* kept flooding input for \d+ s", r.getMessage())
               for r in caplog.records)
    assert await fresh_join_seconds(server, players, make_key, "gus") < FRESH_JOIN


async def test_a_paste_into_chat_goes_through_up_to_the_chat_line(server, players, make_key):
    from textual.widgets import Input

    bob = await a_game_in_progress(server, players, make_key)
    app = session_of(server, "bob").app
    bob.press("t")
    await bob.wait_for("Say something")
    text = "a" * 195 + "WXYZQ" + "b" * 100  # longer than a chat line
    bob.send(b"\x1b[200~" + text.encode() + b"\x1b[201~")
    await until(lambda: any(box.value for box in app.screen.query(Input)))
    assert [box.value for box in app.screen.query(Input)] == [text[:200]]


# --- a client that does not read -----------------------------------------------------------


async def test_a_big_terminal_that_never_reads_costs_bounded_memory_and_is_closed(
        strict_server, players, make_key, caplog):
    """A 1000x1000 terminal (clamped) with a huge SSH window that stops reading at the TCP
    level: asyncssh never pauses the channel, the socket's buffer would grow instead."""
    server = strict_server
    bob = await a_game_in_progress(server, players, make_key)
    sam = players("sam", size=(1000, 1000))
    await sam.connect(server.port, key=make_key(), command="watch steady", window=1 << 30)
    await until(lambda: any(s.identity.name == "sam" for s in server.sessions))
    session = session_of(server, "sam")
    await until(lambda: len(sam.raw) > 100_000)
    sam.conn._transport.pause_reading()  # stop reading the socket at all
    before = rss()
    with caplog.at_level(logging.INFO, logger="diamant_server"):
        # Every window change the server follows (a few a second at most, fewer for a big
        # screen) makes it draw the whole screen again, until the socket's buffers fill
        # (once: a repaint of what the terminal shows already sends nothing).
        for step in range(1200):
            if session._closed:
                break
            sam.chan.change_terminal_size(480 + 20 * (step % 2), 1000)
            await asyncio.sleep(0.05)
            assert session.pending_output() <= session.limits.output_buffer_max + MIB
        await still_playing(bob)
        await until(lambda: session not in server.sessions, timeout=15)
    assert rss() - before < 40 * MIB
    assert any(re.match(r"s\d+: .* has read nothing for \d+ s", r.getMessage())
               for r in caplog.records)
    assert await fresh_join_seconds(server, players, make_key, "fay") < FRESH_JOIN


# --- the environment and the log ---------------------------------------------------------------


async def test_only_the_apps_variables_are_kept_each_short(server, players, make_key):
    env = {f"JUNK{i}": "x" * 30_000 for i in range(1000)}  # 30 MB of variables
    env.update({"LANG": "fr_FR.UTF-8", "LC_ALL": "y" * 5000, "COLORTERM": "truecolor"})
    env.update({f"LC_X{i}": "fr" for i in range(40)})
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), env=env)
    await ann.wait_for("Salon|salon")  # French, from LANG
    session = session_of(server, "ann")
    kept = session.environment
    assert kept["LANG"] == "fr_FR.UTF-8" and kept["COLORTERM"] == "truecolor"
    assert "LC_ALL" not in kept and not any(k.startswith("JUNK") for k in kept)
    assert len(kept) <= SessionLimits().env_max_count
    # What asyncssh holds for the channel (before: all 30 MB, for as long as it was open).
    held = session._chan._env
    assert len(held) <= SessionLimits().env_max_count
    assert sum(len(k) + len(v) for k, v in held.items()) < 4096


async def test_the_clients_terminal_type_and_command_reach_the_log_escaped_and_cut(
        server, players, make_key, caplog):
    with caplog.at_level(logging.INFO, logger="diamant_server"):
        forger = players("ann")
        await forger.connect(server.port, key=make_key(),
                             term_type="xterm\x1b[2J\nFORGED LINE")
        await forger.wait_for("lobby")
        long = players("bob")
        await long.connect(server.port, key=make_key(), command="play " + "x" * 100_000)
        await long.wait_for("lobby")
    opened = [r.getMessage() for r in caplog.records if "terminal" in r.getMessage()]
    assert opened
    for message in opened:
        assert "\x1b" not in message and "\n" not in message and len(message) < 500
    assert any("xterm\\x1b[2J\\nFORGED LINE" in m for m in opened)
    assert max(len(r.getMessage()) for r in caplog.records) < 1000


# --- stopping under load ---------------------------------------------------------------------

FLOODER = """
import asyncio, sys, asyncssh
async def main(port, count):
    chans = []
    for n in range(count):
        conn = await asyncssh.connect("127.0.0.1", port, username=f"flood{n}", known_hosts=None,
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")], agent_path=None)
        chan, _ = await conn.create_session(asyncssh.SSHClientSession, encoding=None,
                                            term_type="xterm", term_size=(80, 24))
        chans.append(chan)
    print("flooding", flush=True)
    while True:
        for chan in chans:
            chan.write(sys.argv[3].encode().decode("unicode_escape").encode("latin-1"))
        await asyncio.sleep(1 / 30)
asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
"""


async def test_the_server_stops_within_seconds_during_a_flood(tmp_path):
    """Flooders in a process of their own (so that they do not share the server's loop,
    as real clients do not); the stop drops input first and ends every session quickly."""
    import sys

    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await server.start()
    chunk = KEYS_AND_MOUSE.decode("latin-1").encode("unicode_escape").decode()
    flooders = await asyncio.create_subprocess_exec(
        sys.executable, "-c", FLOODER, str(server.port), "3", chunk,
        stdout=asyncio.subprocess.PIPE)
    try:
        assert await asyncio.wait_for(flooders.stdout.readline(), 30) == b"flooding\n"
        await asyncio.sleep(5.0)  # the flood goes on while the server is asked to stop
        tasks = [s._task for s in server.sessions if s._task is not None]
        assert len(tasks) == 3
        start = time.monotonic()
        await server.stop()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
        assert time.monotonic() - start < 4.0
    finally:
        try:
            flooders.kill()
        except ProcessLookupError:
            pass  # it ended already: its connections were closed by the stop
        await flooders.wait()
        await server.stop()
