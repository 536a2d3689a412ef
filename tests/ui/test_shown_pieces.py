"""A frame leaves out what the terminal shows already, and the terminal still shows
exactly the screen: a terminal emulator fed every frame an app writes reads, after each
one, what a full repaint of that moment would show, cell by cell and look by look."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pyte
from rich.console import Console
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Static

import diamant_tui.ui.app  # noqa: F401  (installs the record, as every app does)
from diamant_tui.ui import DiamantApp
from diamant_tui.ui import shown_pieces
from ui_helpers import FixedTable, mid_round, play_to_the_end, three_at_a_table, until

_textual_full_update = shown_pieces._textual_render_full_update


def _console(size) -> Console:
    return Console(width=size[0], height=size[1], color_system="truecolor",
                   force_terminal=True, legacy_windows=False)


def _screen_of(text: str, size) -> pyte.Screen:
    screen = pyte.Screen(*size)
    pyte.Stream(screen).feed(text)
    return screen


def _cells(screen: pyte.Screen) -> list[list[tuple]]:
    return [[tuple(screen.buffer[y][x]) for x in range(screen.columns)]
            for y in range(screen.lines)]


def _settled(app) -> bool:
    """Whether every change made so far is in the frames written (nothing is waiting to
    be laid out or drawn)."""
    screen = app.screen
    # (Its dirty widgets are forgotten only once the frame is written: they are in it.)
    if screen._compositor._dirty_regions or screen._layout_required:
        return False
    if screen._compositor.size != app.size:
        return False  # resized: the layout for the new size has not been made yet
    return not any(widget._repaint_required or widget._layout_required
                   for widget in screen.walk_children(with_self=False))


class Terminal:
    """The terminal of one app: fed every frame the app writes; after each one, its
    cells are compared with a full repaint of the screen at that moment."""

    def __init__(self, app, each_frame: bool = True) -> None:
        self.app = app
        self.each_frame = each_frame
        self.frames = 0
        self.checked = 0
        self.partial_bytes = 0
        self.wrong: list[tuple[int, list[str], list[str]]] = []
        self.screen: pyte.Screen | None = None
        self._display = app._display
        app._display = self._written

    def _written(self, screen, renderable) -> None:
        self._display(screen, renderable)
        if renderable is None or self.app._batch_count:
            return
        size = tuple(self.app.size)
        console = _console(size)
        if self.screen is None:
            self.screen = pyte.Screen(*size)
        elif (self.screen.columns, self.screen.lines) != size:
            self.screen.resize(size[1], size[0])  # as a terminal does: what it shows stays
        text = renderable.render_segments(console)
        pyte.Stream(self.screen).feed(text)
        self.frames += 1
        if isinstance(renderable, shown_pieces.ShownChops):
            self.partial_bytes += len(text)
        if not self.each_frame or not _settled(self.app):
            return  # the screen has changed since: the next frame shows it
        self.check()

    def check(self) -> None:
        """Compare the terminal with what a full repaint would show now (Textual's
        own, which forgets nothing)."""
        size = tuple(self.app.size)
        console = _console(size)
        self.checked += 1
        compositor: Compositor = self.app.screen._compositor
        dirty = compositor._dirty_regions.copy()
        full = _textual_full_update(compositor)
        compositor._dirty_regions.update(dirty)
        expected = _screen_of(full.render_segments(console), size)
        if _cells(self.screen) != _cells(expected):
            self.wrong.append((self.frames, self.screen.display, expected.display))


async def test_the_terminal_shows_every_frame_of_a_game_whole():
    """Two people and a spectator, in three languages and two sizes, through a game:
    the rules shown and closed, the leave dialog refused, the chance shown, the chat box
    and its toasts, a resize, the round summaries and the final scores."""
    resized = []

    async with AsyncExitStack() as stack:
        table, pilots = await three_at_a_table(stack, notifications=True)
        terminals = [Terminal(pilot.app) for pilot in pilots]
        ann, bob, wes = pilots
        await ann.press("f1")
        await ann.pause()
        await ann.press("escape")
        await bob.press("p", "q")
        await bob.pause()
        await bob.press("n")
        await ann.press("t", *"hello", "enter")

        async def resize_once(view) -> None:
            if not resized and view.round == 2:
                await bob.resize_terminal(90, 28)
                resized.append(True)

        await play_to_the_end(table, pilots, resize_once)
        await ann.pause(0.3)
        await ann.press("right")
        await ann.pause()
        for terminal in terminals:
            terminal.check()  # (the last frames, whatever they were)
    await table.close()
    for terminal in terminals:
        assert terminal.wrong == [], terminal.wrong[0]
        # (Enough frames to have seen the game: a repaint of what a terminal shows
        # already sends none, so fewer than its changes.)
        assert terminal.frames > 12 and terminal.checked > 10, (terminal.frames,
                                                                 terminal.checked)
    assert resized


async def test_a_frame_leaves_out_what_the_terminal_shows():
    """The player list drawn again whole with nothing changed sends no frame at all; a
    player's decided mark then sends their row's changed cells, not the list."""
    from dataclasses import replace
    from diamant_tui.ui.widgets.players import PlayerList

    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        terminal = Terminal(app)
        mid_round(table)
        await pilot.pause()
        players = app.screen.query_one(PlayerList)
        players.refresh()
        await pilot.pause()
        frames, sent = terminal.frames, terminal.partial_bytes
        players.refresh()  # drawn again, the same
        await pilot.pause()
        assert terminal.frames == frames
        first = players.state
        view = first.view
        marked = tuple(replace(p, decided=p.seat == 2) for p in view.players)
        players.state = replace(first, view=replace(view, players=marked))
        await pilot.pause()
        assert terminal.frames == frames + 1
        assert 0 < terminal.partial_bytes - sent < 300  # one row, not the list
        assert "decided" in terminal.screen.display[15 + 2]
        assert terminal.wrong == []


async def test_a_lost_frame_is_sent_again_in_full():
    """The server could not send a frame: forgotten, what the terminal shows is sent
    again with the next change of those places."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        Terminal(app)
        mid_round(table)
        await pilot.pause()
        from diamant_tui.ui.widgets.players import PlayerList

        players = app.screen.query_one(PlayerList)
        players.refresh()
        await pilot.pause()
        # Nothing changed: the repaint the list asked for is left out.
        compositor = app.screen._compositor
        players.refresh()
        app.screen._compositor.update_widgets({players})
        assert compositor.render_partial_update() is None
        shown_pieces.forget_shown(app)
        players.refresh()
        app.screen._compositor.update_widgets({players})
        update = compositor.render_partial_update()
        assert update is not None
        assert "▶" in update.render_segments(_console((80, 24)))  # the whole list again


class Halves(App):
    """One line of words that changes whole, but is drawn again in two frames: first
    its left part, then the rest."""

    CSS = "Static { width: 20; height: 1; }"

    def compose(self) -> ComposeResult:
        yield Static("aaaaaaaaaaaaaaaaaaaa", id="line")


async def test_a_piece_sent_in_part_is_not_taken_as_shown_whole():
    app = Halves()
    async with app.run_test(size=(40, 5)) as pilot:
        terminal = Terminal(app, each_frame=False)
        line = app.query_one("#line", Static)
        line.refresh()
        await pilot.pause()
        # The words change; only the first five cells are said to have changed.
        line.update("bbbbbbbbbbbbbbbbbbbb")
        app.screen._compositor._dirty_regions.clear()
        app.screen._dirty_widgets.clear()
        line._repaint_regions.clear()
        app.screen.refresh(Region(0, 0, 5, 1))
        await pilot.pause()
        # Then the rest: the terminal shows "bbbbbaaaa…" until it is sent.
        app.screen.refresh(Region(5, 0, 15, 1))
        await pilot.pause()
        terminal.check()
        assert terminal.wrong == [], terminal.wrong[0]
        assert terminal.screen.display[0].startswith("b" * 20)
