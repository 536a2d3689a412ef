"""A frame gathered from its changed spans sends what Textual's own way sends, byte for
byte, and asks only the widgets that reach a change for their lines."""

from __future__ import annotations

from contextlib import AsyncExitStack

from rich.console import Console
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual._compositor import Compositor

import diamant_tui.ui.app  # noqa: F401  (installs the gathering, as every app does)
from diamant_tui.ui import DiamantApp
from diamant_tui.ui import span_chops
from diamant_tui.ui.widgets.players import PlayerList
from ui_helpers import FixedTable, mid_round, play_to_the_end, three_at_a_table, until

CONSOLE = Console(color_system="truecolor", force_terminal=True, legacy_windows=False,
                  width=200)


class BothWays:
    """Renders every partial frame of the process both ways and keeps what differs."""

    def __init__(self, monkeypatch) -> None:
        self.frames = 0
        self.differing: list[tuple[str, str]] = []
        monkeypatch.setattr(Compositor, "render_partial_update",
                            lambda compositor: self._both(compositor))

    def _both(self, compositor: Compositor):
        regions = compositor._dirty_regions.copy()
        ours = span_chops._render_partial_update(compositor)
        compositor._dirty_regions.update(regions)
        textuals = span_chops._textual_partial_update(compositor)
        if ours is None or textuals is None:
            assert ours is None and textuals is None
            return ours
        self.frames += 1
        sent, expected = ours.render_segments(CONSOLE), textuals.render_segments(CONSOLE)
        if sent != expected:
            self.differing.append((sent, expected))
        return ours


async def test_every_frame_of_a_game_is_sent_as_textual_would_send_it(monkeypatch):
    """Two people and a spectator at a table play a whole game to its final scores: the
    cards, the choices, the marks, the round summaries shown and veiled, the deck's panel
    growing."""
    both = BothWays(monkeypatch)
    async with AsyncExitStack() as stack:
        table, pilots = await three_at_a_table(stack)
        await play_to_the_end(table, pilots)
        await pilots[0].pause(0.3)
    await table.close()
    assert both.frames > 50, both.frames
    assert both.differing == [], both.differing[0]


class ShortLines(Widget):
    """A widget whose lines stop short of its width: the rest shows what is behind."""

    def render_lines(self, crop: Region) -> list[Strip]:
        return [Strip.blank(max(0, crop.width - 3)) for _ in range(crop.height)]


class Overlapping(App):
    CSS = """
    #back { width: 30; height: 6; background: blue; }
    #front { layer: above; width: 20; height: 3; offset: 2 1; background: red; }
    Screen { layers: below above; }
    """

    def compose(self) -> ComposeResult:
        yield Widget(id="back")
        yield ShortLines(id="front")


async def test_what_a_short_line_leaves_is_filled_from_behind(monkeypatch):
    both = BothWays(monkeypatch)
    app = Overlapping()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        back, front = app.query_one("#back"), app.query_one("#front")
        for widget, region in ((back, Region(0, 0, 30, 6)), (front, Region(1, 0, 19, 2)),
                               (back, Region(19, 0, 5, 5)), (front, Region(16, 2, 4, 1)),
                               (back, Region(1, 1, 2, 1)), (back, Region(29, 4, 1, 1)),
                               (app.screen, Region(28, 5, 3, 1))):
            widget.refresh(region)
            await pilot.pause()
    assert both.frames >= 3
    assert both.differing == []


async def test_a_row_of_the_player_list_asks_no_other_widget_for_its_lines(monkeypatch):
    """A player deciding changes one row of the list: the list alone is asked for its
    lines, not the column and screen behind it (Textual asked every widget in the box
    around the change, for every line it covers)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.view is not None)
        await pilot.pause(0.3)
        asked: list[str] = []
        for widget in app.screen._compositor.visible_widgets:
            render_lines = widget.render_lines

            def counted(crop, widget=widget, render_lines=render_lines):
                asked.append(type(widget).__name__)
                return render_lines(crop)

            widget.render_lines = counted
        players = app.screen.query_one(PlayerList)
        players.refresh(Region(0, 2, players.size.width, 1))
        await pilot.pause()
        assert asked == ["PlayerList"]
