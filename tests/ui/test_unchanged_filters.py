"""The colour filter hands back a line it does not change, and changes the others as
Textual does."""

from __future__ import annotations

import sys

import pytest
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import MONOKAI
from textual.color import Color
from textual.filter import ANSIToTruecolor
from textual.strip import Strip

import diamant_tui.ui  # noqa: F401  (the interface sets strips and filters up as it loads)
from diamant_tui.ui import DiamantApp
from diamant_tui.ui import unchanged_filters
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from ui_helpers import FixedTable, after_disaster, mid_round

BACKGROUND = Color.parse("#1e1e1e")


def textuals(strip: Strip, truecolor: ANSIToTruecolor) -> list[Segment]:
    """What Textual's own filter makes of ``strip``."""
    return unchanged_filters._apply_truecolor(truecolor, list(strip), BACKGROUND)


def test_a_line_of_exact_colours_is_its_own_filtered_line_and_keeps_no_reference_to_itself():
    truecolor = ANSIToTruecolor(MONOKAI)
    line = Strip([Segment("Round 1/5 ", Style(color="#ffa62b", bold=True)),
                  Segment("card 3", Style(bgcolor="#121212")), Segment(" ")])
    held = sys.getrefcount(line)
    assert line.apply_filter(truecolor, BACKGROUND) is line
    assert line.apply_filter(truecolor, BACKGROUND) is line  # found in its cache
    assert sys.getrefcount(line) == held
    assert list(line) == textuals(line, truecolor)  # Textual's copy reads the same


@pytest.mark.parametrize("style", [Style(color="red"), Style(bgcolor="bright_blue"),
                                   Style(color="#ffffff", dim=True)],
                         ids=["named colour", "named background", "dimmed"])
def test_a_line_the_filter_changes_is_changed_as_textual_changes_it(style):
    truecolor = ANSIToTruecolor(MONOKAI)
    line = Strip([Segment("plain ", Style(color="#ffffff")), Segment("changed", style)])
    filtered = line.apply_filter(truecolor, BACKGROUND)
    assert filtered is not line
    assert list(filtered) == textuals(line, truecolor)
    assert filtered.cell_length == line.cell_length
    assert line.apply_filter(truecolor, BACKGROUND) is filtered  # cached as Textual does


def test_a_control_code_is_dropped_as_textual_drops_it():
    truecolor = ANSIToTruecolor(MONOKAI)
    line = Strip([Segment("text", Style(color="#ffffff")), Segment("", None, [(1,)])])
    filtered = line.apply_filter(truecolor, BACKGROUND)
    assert filtered is not line and list(filtered) == textuals(line, truecolor)


async def written_screen(scene) -> str:
    """A full-colour table screen, as its terminal is sent it."""
    forget_shared_lines()  # drawn by this app, not taken from an earlier test's
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        scene(table)
        await pilot.pause()
        assert app.get_line_filters(), "the full-colour theme filters its lines"
        update = app.screen._compositor.render_update(full=True)
        return update.render_segments(app.console)


async def test_a_full_colour_table_screen_is_sent_as_textuals_filter_sends_it(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("COLORTERM", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for scene in (mid_round, after_disaster):
        ours = await written_screen(scene)
        with monkeypatch.context() as textual:
            textual.setattr(ANSIToTruecolor, "apply", unchanged_filters._apply_truecolor)
            textual.setattr(Strip, "apply_filter", unchanged_filters._apply_filter)
            theirs = await written_screen(scene)
        forget_shared_lines()
        assert ours == theirs, scene.__name__
