"""Chat at a table under abuse: a crowd of spectators chatting, names that forge the
watching mark or look like another's, and allowances that follow the person, not the name."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import replace

import pytest

from diamant_tui.table import TableSettings
from diamant_server.server import GameServer

TURN = re.compile(r"Round (\d+)/\d+ · card (\d+)")


@pytest.fixture
async def chatty_server(tmp_path):
    """A server whose tables take few chat lines, so that a test reaches the limits fast."""
    from conftest import TEST_CONFIG

    game_server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, chat_table_lines=8,
                                     chat_watchers_lines=4))
    await game_server.start()
    yield game_server
    await game_server.stop()


BOX_DRAWING = re.compile("[\u2500-\u257f]")


def squash(screen: str) -> str:
    """What ``screen`` says of a refusal, without whitespace and without box-drawing
    characters: toasts (right of their edge, ▌; toasts wrap their lines, and the
    screen's rules show through in the margin right of a toast), a player's refusal
    under the round's lines beneath the cave (above the rule over the players), then a
    spectator's note line (the two lines above the chat box and the key bar, which
    toasts stand above: a spectator may have both, a line in a toast and their own
    refusal)."""
    lines = screen.splitlines()
    toasts = [line.rsplit("▌", 1)[1] for line in lines if "▌" in line]
    rule = next((n for n, line in enumerate(lines) if line.startswith("─" * 40)), 0)
    cave = [line.split("▌", 1)[0] for line in lines[1:rule]]
    note = [line.split("▌", 1)[0] for line in lines[-4:-2]]
    return "".join(BOX_DRAWING.sub("", "".join(line.split()))
                   for line in toasts + cave + note)


def in_chat_box(text: str):
    """A test on the screen: the chat box (the line above the key bar) holds ``text``."""
    return lambda screen: text in screen.splitlines()[-2][:40]


REFUSED = re.compile(r"Wait\d+sbeforeyouchatagain")


KEPT = re.compile(r"Wait\d+sbeforeyouchatagain")
"""A line refused as it is sent: it stays in the box, and the screen says why."""


async def say(person, text: str) -> str | None:
    """Press t, type ``text`` and Enter; wait until the chat box has closed. Returns the
    screen that says why not, when the line was refused (the allowance is used up: the
    box opens all the same, the line stays in it with a note, and Escape drops it)."""
    person.press("t")
    await person.wait_for("Say something")
    person.type(text)
    await person.wait_for(in_chat_box(text))
    person.press("enter")
    screen = await person.wait_for(
        lambda screen: not in_chat_box(text)(screen) or KEPT.search(squash(screen)))
    if not in_chat_box(text)(screen):
        return None
    person.press("escape")
    await person.wait_for(lambda screen: not in_chat_box(text)(screen))
    return screen


async def keep_playing(ann, stop: asyncio.Event, delays: list[float]) -> None:
    """The bystander: continues at each turn and times the next card it is shown."""
    while not stop.is_set():
        text = await ann.wait_for(lambda t: "Your turn" in t or "Final scores" in t)
        if "Final scores" in text:
            return
        before = TURN.search(text)[0]
        pressed = time.monotonic()
        ann.press("c")
        await ann.wait_for(lambda t: "Final scores" in t or (
            TURN.search(t) is not None and TURN.search(t)[0] != before))
        delays.append(time.monotonic() - pressed)


async def test_a_crowd_of_spectators_cannot_flood_a_tables_chat(
        chatty_server, players, make_key, caplog):
    """Twelve spectators chat at once: the table passes on only
    the spectators' share, each one refused is told why and when to speak again, the
    refusals are logged, and the player at the table keeps getting the next card promptly."""
    server = chatty_server
    table = server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2,
                                              seed=4, pace=0.2), "test")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Your turn")
    crowd = [players(f"fan{n}") for n in range(12)]
    for fan in crowd:
        await fan.connect(server.port, key=make_key(), command="watch den")
    for fan in crowd:
        await fan.wait_for("You are watching")

    stop = asyncio.Event()
    delays: list[float] = []
    playing = asyncio.create_task(keep_playing(ann, stop, delays))
    refusals: list[str] = []

    async def chat(fan) -> None:
        text = f"a line of {fan.name}"
        refused = await say(fan, text)
        if refused is None and not any(line.text == text for line in table._chat):
            refused = await fan.wait_for(lambda screen: REFUSED.search(squash(screen)))
        if refused is not None:
            refusals.append(refused)

    began = time.monotonic()
    with caplog.at_level(logging.INFO, logger="diamant_tui.table"):
        await asyncio.gather(*(chat(fan) for fan in crowd))
        elapsed = time.monotonic() - began
        stop.set()
        await asyncio.wait_for(playing, 30)

    said = [line for line in table._chat if line.watching]
    windows = 1 + int(elapsed // server.lobby.chat.window)
    assert 0 < len(said) <= server.config.chat_watchers_lines * windows
    assert len(said) + len(refusals) == len(crowd)
    assert all("spectatorshaveusedup" in squash(screen) for screen in refusals)
    assert any("chat of" in r.getMessage() and "refused" in r.getMessage()
               for r in caplog.records)
    # The player's game went on all along (0.2 s a card; the bound is loose because the
    # twelve clients read their screens in this same process, on a machine that may be
    # shared: a stalled table stood still for half a minute).
    assert delays and max(delays) < 10.0, delays


async def test_a_player_cannot_pass_for_a_spectator(server, players, make_key, caplog):
    """A player who calls themselves ``vic (watching)`` shows without the brackets, in the
    seats and in chat; the real spectator vic chats under the mark, with an allowance of
    their own; two connections of one person share one allowance."""
    table = server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
    impostor, bob = players("vic (watching)"), players("bob")
    await impostor.connect(server.port, key=make_key(), command="play den")
    await bob.connect(server.port, key=make_key(), command="play den")
    for player in (impostor, bob):
        await player.wait_for("Your turn")
    vic_key = make_key()
    vic, vic_again = players("vic"), players("vic")
    for watcher in (vic, vic_again):
        await watcher.connect(server.port, key=vic_key, command="watch den")
        await watcher.wait_for("You are watching")
    seats = [s.name for s in table.seats]
    assert "vic watching" in seats and not any("(" in name for name in seats)
    # The impostor uses up a whole allowance: the real vic may still speak.
    for n in range(5):
        await say(impostor, f"fake {n}")
    await say(vic, "real vic")
    await bob.wait_for(r"vic \(watching\): real vic")
    log = [(line.author, line.watching, line.text) for line in table._chat]
    assert ("vic watching", False, "fake 0") in log and ("vic", True, "real vic") in log
    assert "vic (watching): fake" not in bob.text
    # vic's second connection shares vic's allowance: 1 + 4 + 1 lines is one too many.
    for n in range(4):
        await say(vic_again, f"again {n}")
    with caplog.at_level(logging.INFO, logger="diamant_tui.table"):
        refused = await say(vic_again, "one too many")
    assert refused is not None and "atmost5linesevery10seach" in squash(refused)
    assert not any(line.text == "one too many" for line in table._chat)
    fingerprint = "key:" + vic_key.get_fingerprint("sha256")
    assert any(f"chat of {fingerprint} refused (person" in r.getMessage() for r in caplog.records)


async def test_a_look_alike_name_gets_a_mark_at_the_table(server, players, make_key):
    """A Cyrillic ``аnn`` next to the Latin ``ann``: the second shows as ``аnn²``."""
    table = server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
    latin, cyrillic = players("ann"), players("\u0430nn")
    await latin.connect(server.port, key=make_key(), command="play den")
    await cyrillic.connect(server.port, key=make_key(), command="play den")
    await latin.wait_for("Your turn")
    names = [s.name for s in table.seats]
    assert names[:2] == ["ann", "\u0430nn²"]
    await latin.wait_for("\u0430nn²")
