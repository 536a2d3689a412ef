"""Over SSH, frames leave out what each terminal shows already, and every terminal still
shows its screen whole: at each quiet moment of a game, the cells a real client's
terminal emulator holds are those of a full repaint of its app on the server."""

from __future__ import annotations

import asyncio

from harness import TerminalScreen
import pyte

from diamant_tui.table import TableSettings
from diamant_tui.ui import shown_pieces

QUIET = 0.3
"""Seconds without a byte from the server after which a screen is taken as drawn."""


async def quiet(*players) -> None:
    """Wait until no player has received anything for a while (bounded)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 20
    sizes = [len(p.raw) for p in players]
    while loop.time() < end:
        await asyncio.sleep(QUIET)
        now = [len(p.raw) for p in players]
        if now == sizes:
            return
        sizes = now
    raise AssertionError("the server kept sending")


def session_of(server, name: str):
    return next(s for s in server.sessions if s.identity.name == name)


def wrong_cells(server, player) -> list[tuple[int, str, str]]:
    """The lines where the player's terminal differs from a full repaint of their app."""
    app = session_of(server, player.name).app
    compositor = app.screen._compositor
    full = shown_pieces._textual_render_full_update(compositor)
    width, height = app.size
    expected = TerminalScreen(width, height)
    pyte.Stream(expected).feed(full.render_segments(app.console))
    got = player.screen
    wrong = []
    for y in range(height):
        if [tuple(got.buffer[y][x]) for x in range(width)] != \
                [tuple(expected.buffer[y][x]) for x in range(width)]:
            wrong.append((y, got.display[y], expected.display[y]))
    return wrong


async def shows_its_screen(server, player) -> list[tuple[int, str, str]]:
    """What is wrong on ``player``'s terminal once it is quiet (nothing, if all is well).
    A change on the server just before the comparison (another player's mark, gathered
    for a second) is on its way to the client: the terminal is looked at again once it
    has come, and only what stays wrong counts."""
    wrong = wrong_cells(server, player)
    for _ in range(3):
        if not wrong:
            break
        await quiet(player)
        wrong = wrong_cells(server, player)
    return wrong


async def test_each_terminal_shows_its_whole_screen_through_a_game(server, players, make_key):
    server.lobby.create(TableSettings(name="den", seats=3, bots=("cards:5",), seed=4,
                                      pace=0.05), "test")
    ann, bob, wes = players("ann"), players("bob", size=(100, 30)), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den")
    await bob.connect(server.port, key=make_key(), command="play den",
                      env={"LANG": "fr_FR.UTF-8"})
    await wes.connect(server.port, key=make_key(), command="watch den",
                      env={"LANG": "uk_UA.UTF-8"})
    everyone = (ann, bob, wes)
    checks = 0
    turns = 0
    shown_rules = False
    while True:
        text = await ann.wait_for(lambda t: "Your turn" in t or "Final scores" in t)
        if "Final scores" in text:
            break
        await bob.wait_for("À vous")
        await quiet(*everyone)
        for player in everyone:
            assert await shows_its_screen(server, player) == [], player.name
            checks += 1
        turns += 1
        if turns == 2:
            bob.press("p")  # the disaster chance: the deck's panel takes a line more
        if turns == 4:
            bob.resize(90, 28)  # the whole screen laid out again, the pieces cut anew
        if turns == 3 and not shown_rules:
            before = ann.text
            ann.press("f1")  # the rules over the table, then the table again
            await ann.wait_for(lambda t: t != before)
            await quiet(ann)
            assert await shows_its_screen(server, ann) == []
            ann.press("escape")
            await ann.wait_for("Your turn")
            shown_rules = True
            continue
        before = ann.text
        ann.press("c")
        bob.press("c")
        await ann.wait_for(lambda t: t != before)
    await quiet(*everyone)
    for player in everyone:
        assert await shows_its_screen(server, player) == [], player.name
    assert checks >= 9 and shown_rules
