"""A server killed in the middle of a round (``kill -9``) and started again on the same data
folder: the table is back at the point it had reached, its people reconnect with their keys
and go straight back to their seats, and the game ends as it would have without the kill."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import sys

from harness import Player

from diamant_tui.engine.record import game_to_record
from diamant_tui.engine.view import Decision, Phase
from diamant_tui.table.snapshot import restore
from diamant_server.storage import DATABASE

DIAMANT = [sys.executable, "-m", "diamant_tui"]
TURN = "Your turn"
CODE = re.compile(r"resume code is ([A-Z0-9]{6})")


async def serve(data_dir, *options: str) -> tuple[asyncio.subprocess.Process, int]:
    """``diamant serve`` on a free loopback port; returns the process and its port."""
    proc = await asyncio.create_subprocess_exec(
        *DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(data_dir),
        "--pace", "0.05", *options,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DIAMANT_LOG_LEVEL": "warning"})
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    assert "port " in line, line + (await proc.stderr.read()).decode()
    return proc, int(line.split("port ")[1].split()[0])


def saved_table(data_dir, name: str) -> dict | None:
    """The table ``name`` as last saved in the database (read without changing it)."""
    with sqlite3.connect(f"file:{data_dir / DATABASE}?mode=ro", uri=True) as db:
        for (text,) in db.execute("SELECT snapshot FROM open_tables WHERE name = ?", (name,)):
            return json.loads(text)["table"]
    return None


def saved_choices(data_dir, name: str) -> dict | None:
    """The choices of the turn under way saved since the table ``name``'s snapshot."""
    with sqlite3.connect(f"file:{data_dir / DATABASE}?mode=ro", uri=True) as db:
        for (text,) in db.execute("SELECT choices FROM open_tables WHERE name = ?", (name,)):
            return None if text is None else json.loads(text)
    return None


def finished_record(data_dir) -> dict | None:
    with sqlite3.connect(f"file:{data_dir / DATABASE}?mode=ro", uri=True) as db:
        for (text,) in db.execute("SELECT record FROM games WHERE finished = 1"):
            return json.loads(text)
    return None


async def until(test, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        assert loop.time() < end, "not reached in time"
        await asyncio.sleep(0.05)


async def leave_at_every_turn(player: Player, done: asyncio.Event) -> None:
    """Press ``l`` (back to camp) whenever it is this player's turn, until ``done``."""
    while not done.is_set():
        if TURN in player.text:
            player.press("l")
            await until(lambda: TURN not in player.text or done.is_set(), 30)
        await asyncio.sleep(0.05)


def continued_from(snapshot: dict, chosen: dict | None, final: dict) -> dict:
    """The game of ``snapshot`` (and the ``chosen`` saved after it) played on with the
    choices ``final`` records, every card drawn by the game's own generator (as it would
    have gone without the kill)."""
    _, state, _ = restore(snapshot, chosen)
    game = state.game
    rounds = final["rounds"]
    while not game.over:
        if game.phase is Phase.DECISION:
            choices = rounds[game.round - 1]["decisions"][game.step - 1]
            for name, choice in choices.items():
                seat = game.names.index(name)
                if seat in game.pending:
                    assert game.pending[seat] is Decision(choice), "a decision changed"
                else:
                    game.submit(seat, choice)
        else:
            game.reveal_random()
    return game_to_record(game)


async def test_a_game_survives_kill_9_of_the_server(tmp_path, players, make_key):
    keys = {name: make_key() for name in ("ann", "bob", "cy")}
    proc, port = await serve(tmp_path, "--restore-wait", "120")
    try:
        ann, bob, cy = (players(name) for name in ("ann", "bob", "cy"))
        await ann.connect(port, key=keys["ann"], command="play cave --seats 3")
        await ann.wait_for("cave")
        for player in (bob, cy):
            await player.connect(port, key=keys[player.name], command="play cave")
        for player in (ann, bob, cy):
            await player.wait_for(TURN)
        ann.press("c")  # ann's decision is in; bob's and cy's are not
        await until(lambda: "0" in ((saved_choices(tmp_path, "cave") or {}).get("pending")
                                    or {}))
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    snapshot = saved_table(tmp_path, "cave")
    chosen = saved_choices(tmp_path, "cave")
    # Her choice was saved with the game's progress since the snapshot taken as it began
    # (its first card): a few hundred bytes, where the snapshot is kilobytes.
    assert snapshot["game"]["pending"] == {} and snapshot["game"]["record"]["rounds"] == []
    assert chosen["turn"] == [0, 1, 1] and chosen["pending"] == {"0": "continue"}
    assert len(chosen["steps"]) == 1 and len(json.dumps(chosen)) < 200
    for player in (ann, bob, cy):
        await player.wait_closed()

    proc, port = await serve(tmp_path, "--restore-wait", "120")
    try:
        back = {name: players(name) for name in ("ann", "bob", "cy")}
        for name, player in back.items():
            await player.connect(port, key=keys[name])  # no command: straight to the seat
        await back["bob"].wait_for(TURN)
        await back["cy"].wait_for(TURN)
        assert TURN not in back["ann"].text  # her choice was kept
        done = asyncio.Event()
        pressing = [asyncio.create_task(leave_at_every_turn(p, done)) for p in back.values()]
        try:
            await until(lambda: finished_record(tmp_path) is not None, 120)
        finally:
            done.set()
            await asyncio.gather(*pressing)
    finally:
        proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 60) == 0
    final = finished_record(tmp_path)
    assert final["players"] == ["ann", "bob", "cy"]
    # Step for step, what the same game would have been without the kill.
    expected = continued_from(snapshot, chosen, final)
    assert final["rounds"] == expected["rounds"]
    assert final["result"] == expected["result"]
    # What was played before the kill is the start of the game as it ended.
    before = game_to_record(restore(snapshot, chosen)[1].game)["rounds"]
    assert before[0]["cards"] == chosen["steps"]
    assert final["rounds"][0]["cards"][:len(before[0]["cards"])] == before[0]["cards"]


async def test_a_guests_rematch_code_gives_the_seat_back_after_kill_9(tmp_path, players):
    """"A crash loses nothing": a guest's resume code brings them back to their seat after
    a restart. The code they keep into a rematch must be in the saves of the rematch,
    not only the first game's."""
    proc, port = await serve(tmp_path, "--restore-wait", "120")
    try:
        gus = players("gus")
        await gus.connect(port, command="play again --seats 3 --bots 2")
        code = CODE.search(await gus.wait_for(CODE.pattern))[1]
        await gus.press_until("l", "Rematch", timeout=120)  # back to camp at every card
        gus.press("r")  # the only person at the table: the rematch starts at once
        await gus.wait_for(lambda screen: "Rematch" not in screen and TURN in screen)
        # Its table is saved within a second of any change: the game goes on no further
        # without gus, so what is on disk now is all a crash would leave.
        await asyncio.sleep(2)
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    await gus.wait_closed()

    proc, port = await serve(tmp_path, "--restore-wait", "120")
    try:
        back = players("gus")
        await back.connect(port, command=f"resume {code}")
        await back.wait_for(TURN)
        assert "No seat is waiting" not in back.text
    finally:
        proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 60) == 0


async def test_the_log_tells_a_restart_after_a_crash_from_one_after_a_stop(tmp_path):
    """Started again after ``kill -9``, the server says in its log that the one before it
    did not stop cleanly (what it had not saved is lost), naming its process; started
    again after a stop, it says nothing of the kind."""
    proc, _ = await serve(tmp_path)
    crashed = proc.pid
    proc.send_signal(signal.SIGKILL)
    await proc.wait()

    proc, _ = await serve(tmp_path)
    proc.terminate()
    assert await asyncio.wait_for(proc.wait(), 60) == 0
    log = (await proc.stderr.read()).decode()
    assert f"the server before this one (process {crashed}) did not stop cleanly" in log

    proc, _ = await serve(tmp_path)
    proc.terminate()
    assert await asyncio.wait_for(proc.wait(), 60) == 0
    assert "did not stop cleanly" not in (await proc.stderr.read()).decode()
