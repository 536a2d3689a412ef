"""Over SSH, frames leave out what each terminal shows already, and every terminal still
shows its screen whole: whenever the screens have settled in a game, the cells a real
client's terminal emulator holds are those of a full repaint of its app on the server."""

from __future__ import annotations

import pyte

from diamant_tui.table import TableSettings
from diamant_tui.ui import shown_pieces
from harness import TerminalScreen
from test_ssh_game import sent, settle  # noqa: F401  (sent: the fixture settle counts with)


def session_of(server, name: str):
    return next(s for s in server.sessions if s.identity.name == name)


def wrong_cells(server, player) -> list[tuple[int, str, str]]:
    """The lines where the player's terminal differs from a full repaint of their app."""
    app = session_of(server, player.name).app
    compositor = app.screen._compositor
    with app._context():  # drawn as the app draws: with it active (see settle)
        full = shown_pieces._textual_render_full_update(compositor)
        segments = full.render_segments(app.console)
    width, height = app.size
    expected = TerminalScreen(width, height)
    pyte.Stream(expected).feed(segments)
    got = player.screen
    wrong = []
    for y in range(height):
        if [tuple(got.buffer[y][x]) for x in range(width)] != \
                [tuple(expected.buffer[y][x]) for x in range(width)]:
            wrong.append((y, got.display[y], expected.display[y]))
    return wrong


async def shows_its_screen(server, sent, player) -> list[tuple[int, str, str]]:
    """What is wrong on ``player``'s terminal once settled (nothing, if all is well).
    A change on the server just before the comparison (another player's mark, gathered
    for a second) is on its way to the client: the terminal is looked at again once it
    has come, and only what stays wrong counts."""
    wrong = wrong_cells(server, player)
    for _ in range(3):
        if not wrong:
            break
        await settle(server, sent, player)
        wrong = wrong_cells(server, player)
    return wrong


async def test_each_terminal_shows_its_whole_screen_through_a_game(server, players, make_key,
                                                                  sent):
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
        await settle(server, sent, *everyone)
        for player in everyone:
            assert await shows_its_screen(server, sent, player) == [], player.name
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
            await settle(server, sent, ann)
            assert await shows_its_screen(server, sent, ann) == []
            ann.press("escape")  # (a lone Escape: given a moment before the next key)
            await ann.wait_for(lambda t: "the rules" not in t and "Your turn" in t)
            shown_rules = True
            continue
        before = ann.text
        ann.press("c")
        bob.press("c")
        await ann.wait_for(lambda t: t != before)
    await settle(server, sent, *everyone)
    for player in everyone:
        assert await shows_its_screen(server, sent, player) == [], player.name
    assert checks >= 9 and shown_rules


async def test_a_join_sends_the_whole_screen_once(server, players, make_key, sent):
    """Textual repaints the whole screen as it is shown and again as the app learns the
    terminal's size: each join sent its screen whole three times (some 11 KB for a table
    at 80x24). A repaint of what the terminal shows already sends nothing now, and each
    terminal still shows its whole screen."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",), pace=0.02),
                        "test")
    ann, wes, lou = players("ann"), players("wes"), players("lou")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("waiting for players")
    await wes.connect(server.port, key=make_key(), command="watch den")
    await wes.wait_for("waiting for players")
    await lou.connect(server.port, key=make_key())
    await lou.wait_for("lobby")
    await settle(server, sent, ann, wes, lou)
    # A heading is written by a whole screen, and by no later change of it.
    assert bytes(ann.raw).count(b"waiting for players") == 1
    assert bytes(wes.raw).count(b"waiting for players") == 1
    assert bytes(lou.raw).count(b"known by your SSH key") == 1
    for player in (ann, wes, lou):
        assert await shows_its_screen(server, sent, player) == []


async def test_a_frame_whose_first_lines_are_shown_already_scrolls_nothing(
        server, players, make_key, sent):
    """A frame's lines were separated by line feeds, Textual's way, though each piece
    begins with a move of the cursor to its place. Once the lines shown already were left
    out, a frame could begin with their line feeds alone, moving the cursor down from
    where the last frame left it: after the chat was closed, that was the focused
    widget's place near the bottom, and each line feed past the last line scrolled the
    terminal. Here bob (in French) says a line, his terminal grows and shrinks back, and
    he chooses: his terminal showed the table two lines too high, and the server drew on
    as if it did not. A partial frame sends no line feed now, and every terminal shows its
    screen."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("cards:5",), seed=4,
                                      pace=0.05), "test")
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den")
    await bob.connect(server.port, key=make_key(), command="play den",
                      env={"LANG": "fr_FR.UTF-8"})
    await ann.wait_for("Your turn")
    await bob.wait_for("À vous")
    bob.press("t")
    await bob.wait_for("Écrivez un message")
    bob.type("[bold]salut[/bold]")
    bob.press("\r")
    await ann.wait_for(lambda text: "bob: [bold]salut[/bold]" in text)
    # The line sent, the chat closed: the focus back on his choice, near the bottom.
    await bob.wait_for(lambda text: "Écrivez un message" not in text)
    await settle(server, sent, ann, bob)
    ann.press("c")
    bob.press("c")
    await bob.wait_for(lambda t: "carte 2" in t and "À vous" in t)
    for size in ((100, 30), (80, 24)):
        bob.resize(*size)
        # The server follows a window's changes a few times a second at most.
        await bob.wait_for(lambda _: session_of(server, "bob").app.size == size)
        await settle(server, sent, ann, bob)
        assert await shows_its_screen(server, sent, bob) == []
    bob.press("l")
    await bob.wait_for("Choix : Sortir")
    await settle(server, sent, ann, bob)
    assert await shows_its_screen(server, sent, bob) == []
    assert await shows_its_screen(server, sent, ann) == []
