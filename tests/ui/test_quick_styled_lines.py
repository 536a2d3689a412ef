"""A widget's lines styled from a plan are Textual's own, segment for segment, on every
screen of a game in every look; and a line the plan cannot make is Textual's to make."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.widgets import Static

import diamant_tui.ui.app  # noqa: F401  (installs the plans, as every app does)
from diamant_tui.ui import DiamantApp
from diamant_tui.ui import quick_styled_lines as quick
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from ui_helpers import (FixedTable, after_disaster, mid_round, play_to_the_end, three_at_a_table,
                        until, whole_game)


class BothWays:
    """Styles every line of the process both ways, keeps what differs, and counts the
    lines the plan made itself."""

    def __init__(self, monkeypatch) -> None:
        self.lines = 0
        self.planned = 0
        self.kinds: set[str] = set()
        self.planned_lines: set[tuple[str | None, int]] = set()
        """(widget id, line) of every line the plan made."""
        self.differing: list[tuple[str, int, list, list]] = []
        both = self._both
        monkeypatch.setattr(StylesCache, "render_line",
                            lambda cache, *args: both(cache, *args))
        forget_shared_lines()  # (drawings kept by earlier tests would not be styled again)

    def _both(self, cache: StylesCache, styles, y, *rest):
        ours = quick._render_line(cache, styles, y, *rest)
        plan = cache._quick_plan
        theirs = quick._textual_render_line(cache, styles, y, *rest)
        self.lines += 1
        if plan.quick and plan.top <= y < plan.bottom:
            self.planned += 1
            node = styles.node
            self.kinds.add(type(node).__name__ if node is not None else "?")
            self.planned_lines.add((node.id if node is not None else None, y))
        if list(ours) != list(theirs) or ours.cell_length != theirs.cell_length:
            node = styles.node
            self.differing.append((type(node).__name__ if node is not None else "?", y,
                                   list(ours), list(theirs)))
        return theirs


async def test_every_line_of_a_game_is_styled_as_textual_styles_it(monkeypatch):
    """Two people and a spectator, in three languages and two sizes, play a whole game:
    the table, the round summaries, the final scores, the chat box and a toast."""
    both = BothWays(monkeypatch)
    async with AsyncExitStack() as stack:
        table, pilots = await three_at_a_table(stack, notifications=True)
        await pilots[1].press("t")  # the chat box opened, a line said: a toast for the others
        await pilots[1].press(*"salut", "enter")
        await play_to_the_end(table, pilots)
        await pilots[0].pause(0.3)
        await pilots[0].press("right")  # the focus on the final scores' other button
        await pilots[0].pause()
    await table.close()
    assert both.differing == [], both.differing[0]
    assert both.planned > 1000, both.planned
    assert {"PlayerList", "DeckInfo", "CavePath", "RoundBar", "KeyBar", "SummaryBox",
            "ChoiceButton"} <= both.kinds, both.kinds


@pytest.mark.parametrize("term, no_color", [("xterm-256color", None), ("xterm", None),
                                            ("xterm-256color", "1")])
async def test_each_look_is_styled_as_textual_styles_it(monkeypatch, term, no_color):
    """The full theme, sixteen colours and no colour, mid-round and after a disaster."""
    monkeypatch.setenv("TERM", term)
    monkeypatch.delenv("COLORTERM", raising=False)
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    both = BothWays(monkeypatch)
    for scene in (mid_round, after_disaster, whole_game):
        table = FixedTable()
        app = DiamantApp(lang="es", member=table.member(0))
        async with app.run_test(size=(80, 24)) as pilot:
            scene(table)
            await pilot.pause()
    assert both.differing == [], both.differing[0]
    assert both.planned > 100, both.planned


class Effects(App):
    """Widgets whose lines the plan leaves to Textual: an outline, a tint, a hatch, half
    opacity, faded text; and one with borders all round and padding, whose side lines
    the plan makes."""

    CSS = """
    #outlined { outline: round red; height: 3; }
    #tinted { tint: blue 40%; height: 3; }
    #hatched { hatch: cross green; height: 3; }
    #faint { opacity: 50%; height: 3; }
    #faded { text-opacity: 50%; height: 3; }
    #boxed { border: heavy yellow; padding: 1 2; height: 7; background: $panel; }
    """

    def compose(self) -> ComposeResult:
        for name in ("outlined", "tinted", "hatched", "faint", "faded", "boxed"):
            yield Static(f"{name} words", id=name)


async def test_lines_with_effects_are_textuals_and_boxed_sides_are_the_plans(monkeypatch):
    both = BothWays(monkeypatch)
    app = Effects()
    async with app.run_test(size=(40, 30)) as pilot:
        await until(pilot, lambda: both.lines >= 22)
        await pilot.pause()
    assert both.differing == [], both.differing[0]
    # Of the widgets, only the boxed one's three lines between its padding are the
    # plan's own (the screen's background lines are too).
    assert both.kinds == {"Static", "Screen"}, both.kinds
    assert {line for line in both.planned_lines if line[0] != "_default"} \
        == {("boxed", 2), ("boxed", 3), ("boxed", 4)}, both.planned_lines
