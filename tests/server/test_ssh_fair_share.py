"""Every session's fair share of the one event loop all the apps run in: a session that
uses more than its share while the loop runs late gets its keys later (none lost), and
another's keys go through first; a table's game loop is charged to nobody."""

from __future__ import annotations

import asyncio
import re
import subprocess
import time
from dataclasses import replace

import pytest

from conftest import TEST_CONFIG
from diamant_server.fair_share import CURRENT_SESSION, IDLE_MEASURE, METERED_MEASURE, LoopShare
from diamant_server.server import GameServer
from diamant_tui.engine.events import CardRevealed
from test_ssh_terminal import until

TURN = r"Round \d+/\d+ · card \d+"
NEW_TABLE = "Open a table"
"""What ``n`` in the lobby shows: a key with a visible effect."""


@pytest.fixture
async def fair_server(tmp_path):
    """A server that finds its loop late from 20 ms on, and lets input wait as long as
    the test needs (the bound on waiting is not what is tested here)."""
    game_server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, fair_share_lag=0.02,
                                     fair_share_hold=600.0))
    await game_server.start()
    yield game_server
    await game_server.stop()


def session_of(server, name: str):
    return next(s for s in server.sessions if s.identity.name == name)


def hog(app, every: float, busy: float):
    """Make ``app`` cost the loop ``busy`` seconds in every ``every`` (as an app whose
    frames are very dear would): a timer of the app's own, so the loop's work for it is
    the app's. Returns what stops it."""
    timers = []

    def work() -> None:
        end = time.perf_counter() + busy
        while time.perf_counter() < end:
            pass

    app.call_later(lambda: timers.append(app.set_interval(every, work)))
    return lambda: [timer.stop() for timer in timers]


async def test_a_session_over_its_share_gets_its_keys_once_the_loop_keeps_time(
        fair_server, players, make_key):
    """Hugo's app keeps the loop busy; Bea only types. While the loop runs late, Bea's key
    goes through at once and Hugo's waits; once the loop keeps time, Hugo's comes too."""
    server = fair_server
    hugo, bea = players("hugo"), players("bea")
    for person in (hugo, bea):
        await person.connect(server.port, key=make_key())
        await person.wait_for("lobby")
    hugos, beas = session_of(server, "hugo"), session_of(server, "bea")
    stop_hogging = hog(hugos.app, every=0.1, busy=0.09)
    # The loop is late, Hugo over his share and Bea within hers (her start has worn off).
    await until(lambda: server.share.should_hold(hugos) and not server.share.should_hold(beas))
    bea.press("n")
    await bea.wait_for(NEW_TABLE)
    await until(lambda: server.share.should_hold(hugos))
    hugo.press("n")
    await until(lambda: hugos.input_held)
    await until(lambda: not server.share.should_hold(beas))  # her form has worn off too
    bea.press("escape")  # Bea goes on typing all the while: her keys are never held
    await bea.wait_for(lambda text: NEW_TABLE not in text)
    assert NEW_TABLE not in hugo.text
    assert hugos.input_held and not beas.input_held

    stop_hogging()
    await hugo.wait_for(NEW_TABLE)  # nothing lost: the key was only late
    assert not hugos.input_held


async def test_callbacks_are_timed_only_once_the_loop_runs_late(tmp_path):
    """Timing every callback costs each seat CPU: it is on only while the loop is (or was
    lately) behind."""
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await server.start()
    try:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(0.2)
        assert not server.share.metering and "call_soon" not in loop.__dict__
        time.sleep(0.3)  # the loop held up: the next tick comes late
        await until(lambda: server.share.metering)
        assert "call_soon" in loop.__dict__
    finally:
        await server.stop()
    assert "call_soon" not in loop.__dict__


async def test_a_tables_game_loop_is_charged_to_nobody(fair_server, players, make_key):
    """The game at a table starts when its last seat is taken, in that person's app; the
    loop of that game (bots, reveals) then runs for everyone, not as that person's work."""
    server = fair_server
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 2")
    await ann.wait_for("Your turn")
    table = server.lobby.get("den")
    charged = []
    table.watch("probe", "probe").subscribe(lambda update: charged.append(
        CURRENT_SESSION.get()) if any(isinstance(e, CardRevealed) for e in update.events)
        else None)
    ann.press("c")
    await until(lambda: charged)
    assert charged[0] is None, charged


def test_the_share_settings_are_named_in_help_and_checked():
    from diamant_server.config import ConfigError, ServerConfig, load
    from test_ssh_server import DIAMANT, parse

    out = subprocess.run([*DIAMANT, "serve", "--help"], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    out = " ".join(out.split())
    for flag in ("--fair-share-lag", "--fair-share-window", "--fair-share-hold",
                 "--fair-share-seat-weight"):
        assert flag in out
    assert "a crowd's typing cannot slow a player's game" in out

    config = load(parse(["--fair-share-lag", "0.1", "--fair-share-window", "2",
                         "--fair-share-hold", "5", "--fair-share-seat-weight", "3"]), {})
    assert (config.fair_share_lag, config.fair_share_window, config.fair_share_hold,
            config.fair_share_seat_weight) == (0.1, 2.0, 5.0, 3.0)
    assert ServerConfig().fair_share_lag == 0.05
    with pytest.raises(ConfigError, match="fair_share_hold: must be more than 0"):
        load(parse(["--fair-share-hold", "0"]), {})
    server = GameServer(replace(TEST_CONFIG, fair_share_lag=0.1, fair_share_window=2.0,
                                fair_share_hold=5.0, fair_share_seat_weight=3.0))
    share = server.share
    assert (share.lag, share.window, share.hold, share.seat_weight) == (0.1, 2.0, 5.0, 3.0)


async def test_a_seat_in_a_game_counts_for_more_of_the_loop_than_watching(
        fair_server, players, make_key):
    """Ann has turns to take; Wes only watches: Ann's session gets the seat's weight."""
    server = fair_server
    ann, wes = players("ann"), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 2")
    await ann.wait_for("Your turn")
    await wes.connect(server.port, key=make_key(), command="watch den")
    await wes.wait_for("You are watching")
    anns, wess = session_of(server, "ann"), session_of(server, "wes")
    assert anns.seated and not wess.seated
    assert server.config.fair_share_seat_weight == 2.0
    await until(lambda: server.share.weight(anns) == 2.0 and server.share.weight(wess) == 1.0)


async def test_a_flood_throws_away_what_was_held_with_it(fair_server, players, make_key):
    """Pat's paste begins while his input waits for its turn, and the rest of it is over
    his allowance: the part held back goes too, so that it cannot reach the parser without
    its end and swallow the keys he types next."""
    server = fair_server
    pat, bea = players("pat"), players("bea")
    for person in (pat, bea):
        await person.connect(server.port, key=make_key())
        await person.wait_for("lobby")
    pats, beas = session_of(server, "pat"), session_of(server, "bea")
    stop_hogging = hog(pats.app, every=0.1, busy=0.09)
    bea.press("down")  # Bea is there too: the loop is shared between two
    await until(lambda: server.share.should_hold(pats) and not server.share.should_hold(beas))
    pat.send(b"\x1b[200~the start of a paste ")
    await until(lambda: pats.input_held)
    pat.send(b"x" * (server.config.input_byte_burst + 1))  # over the allowance at once
    await pat.wait_for("some of it was ignored")
    stop_hogging()
    await pat.press_until("n", "Open a table")


async def test_a_player_deciding_is_never_held_however_dear_their_screen(
        fair_server, players, make_key):
    """Ann's screen costs the loop more than her share while it runs late (her table's
    cards, not her keys, make it dear): her one key a turn still goes through at once.
    Typing faster than a person deciding, she waits like anyone over their share."""
    server = fair_server
    share = server.share
    ann, wes = players("ann"), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 2")
    await ann.wait_for("Your turn")
    await wes.connect(server.port, key=make_key())
    await wes.wait_for("lobby")
    anns, wess = session_of(server, "ann"), session_of(server, "wes")
    for _ in range(6):  # keys long ago do not count: they have worn off
        ann.send(b"x")
    await until(lambda: anns.keys_passed >= 6)
    await asyncio.sleep(3 * share.window)
    stoppers = [hog(anns.app, every=0.1, busy=0.08), hog(wess.app, every=0.1, busy=0.01)]
    try:
        await until(lambda: share.behind and anns.seated
                    and share.rate(anns) > share.share * share.weight(anns))
        turn = re.search(TURN, ann.text)[0]
        before = anns.last_input
        ann.press("c")
        await until(lambda: anns.last_input > before)  # the key has reached the server
        assert not anns.input_held
        await ann.wait_for(lambda text: "You chose" in text or (
            (now := re.search(TURN, text)) is not None and now[0] != turn))
        for _ in range(8):  # not a decision: a burst of keys
            ann.send(b"x")
        await until(lambda: anns.keys_passed >= 5)  # c, and at least four of them
        ann.send(b"x")
        await until(lambda: anns.input_held)
    finally:
        for stop in stoppers:
            stop()
    await until(lambda: not anns.input_held)  # nothing lost: only late


class _Counted:
    """A session as the share sees it, counting how often it is asked whether it is
    seated in a game."""

    def __init__(self) -> None:
        self.loop_seconds = 0.0
        self.last_input = 0.0
        self.keys_passed = 0
        self.asked = 0

    @property
    def seated(self) -> bool:
        self.asked += 1
        return True

    def release_input(self) -> None:
        pass


def test_whether_a_session_is_seated_is_asked_every_few_ticks_not_at_every_tick():
    """While the loop is late every session's use is looked at often (10 times a second);
    whether it holds a seat changes only at a game's start and end."""
    share = LoopShare(lag=0.02, window=2.0, hold=1.0, seat_weight=2.0)
    sessions = [_Counted() for _ in range(3)]
    for session in sessions:
        share.add(session)
    for tick in range(1, 21):
        share._ticks = tick
        share._measure(0.05)
    assert [s.asked for s in sessions] == [20 // IDLE_MEASURE] * 3
    assert all(share.weight(s) == 2.0 for s in sessions)


async def test_while_timed_the_sessions_use_is_looked_at_every_other_tick():
    """While the loop runs late (the sessions timed) the lateness is looked at every tick,
    and the sessions' use every :data:`METERED_MEASURE` ticks; once it keeps time again,
    every :data:`IDLE_MEASURE` ticks."""
    share = LoopShare(lag=10.0, window=2.0, hold=1.0)  # late only when the test says so
    share.add(_Counted())
    measured: list[tuple[int, bool]] = []
    measure = share._measure
    share._measure = lambda elapsed: (measured.append((share._ticks, share.metering)),
                                      measure(elapsed))
    share.start()
    try:
        share._late_at = asyncio.get_running_loop().time()  # as if a tick came late
        await until(lambda: share._ticks >= 12, timeout=5.0)
        assert share.metering
        timed = [tick for tick, metering in measured if metering]
        assert timed and all(tick % METERED_MEASURE == 0 for tick in timed), measured
        assert len(timed) >= (share._ticks - 2) // METERED_MEASURE, measured
        share._late_at = float("-inf")  # the loop keeps time again
        measured.clear()
        start = share._ticks
        await until(lambda: share._ticks >= start + 12, timeout=5.0)
        assert not share.metering
        assert measured and all(tick % IDLE_MEASURE == 0 for tick, _ in measured), measured
    finally:
        share.stop()
