"""The round summary and the final scores are shown and hidden by a veil: no layout of
the screen, only their region drawn again, and a veiled widget is neither drawn nor found
by the mouse. Both cover the table at every size the terminal takes."""

from __future__ import annotations

from contextlib import asynccontextmanager

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import CavePath
from diamant_tui.ui.widgets.round_summary import RoundSummary, SummaryBox
from ui_helpers import (FixedTable, FrameCounter, final_shown, mid_round, screen_text, settled,
                        until, whole_game, round_summary_up)

SIZES = [(80, 30), (100, 40), (80, 24), (90, 26)]
"""Taller, then wider and taller, then back, then a little of both."""


@asynccontextmanager
async def at_a_table():
    """An app at a table in round 2 (whose summary would sum up round 1), settled: its
    pilot, table screen and round summary."""
    app = DiamantApp(lang="en", member=mid_round(FixedTable()).member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        yield pilot, app.screen, app.screen.query_one(RoundSummary)


async def test_the_round_summary_comes_and_goes_without_a_layout_of_the_screen():
    async with at_a_table() as (pilot, screen, summary):
        app = pilot.app
        view = screen.view
        table_text = screen_text(app)
        assert "Round 1 of 5 is over" not in table_text and "╭───────╮" in table_text
        summary.show(view)  # the first: the box takes the size of its words
        await settled(pilot)
        shown_text = screen_text(app)
        summary.hide()
        await settled(pilot)
        layouts = []
        layout = screen._refresh_layout
        screen._refresh_layout = lambda *a, **k: (layouts.append(1), layout(*a, **k))
        frames = FrameCounter(app)
        for _ in range(3):
            summary.show(view)
            await settled(pilot)
            assert screen_text(app) == shown_text
            assert "Round 1 of 5 is over" in shown_text and "╭───────╮" not in shown_text
            summary.hide()
            await settled(pilot)
            assert screen_text(app) == table_text
        assert layouts == []
        assert frames.frames == 6 and frames.full == 0


async def test_a_veiled_summary_is_not_found_by_the_mouse():
    async with at_a_table() as (pilot, screen, summary):
        assert isinstance(screen.get_widget_at(20, 2)[0], CavePath)
        summary.show(screen.view)
        await settled(pilot)
        assert isinstance(screen.get_widget_at(40, 10)[0], SummaryBox)
        summary.hide()
        await settled(pilot)
        assert isinstance(screen.get_widget_at(20, 2)[0], CavePath)


async def test_a_summary_shown_or_hidden_under_another_screen_is_right_when_it_comes_back():
    async with at_a_table() as (pilot, screen, summary):
        app = pilot.app
        for shown in (True, False, True):
            await pilot.press("f1")  # the rules, over the table
            await settled(pilot)
            assert app.screen is not screen
            if shown:
                summary.show(screen.view)
            else:
                summary.hide()
            app.pop_screen()
            await settled(pilot)
            assert app.screen is screen
            assert ("Round 1 of 5 is over" in screen_text(app)) is shown
            assert ("╭───────╮" in screen_text(app)) is not shown


async def test_the_round_summary_covers_the_table_as_the_terminal_grows_taller():
    """Its height is set from the terminal's (all but the footer's line): a terminal
    grown only taller changed nothing of its own size, and the table showed under it."""
    async with round_summary_up() as (table, pilot):
        app = pilot.app
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await settled(pilot)
            text = screen_text(app)
            assert "Round 1 of 5 is over" in text, size
            # The banner's line, at the foot of the table.
            assert "Round 1 ends in disaster" not in text, size


async def test_the_final_scores_cover_the_cave_below_the_round_bar_at_every_size():
    """The final scores lie over the table's column, from under the round bar down to
    the footer, however the terminal's size changes."""
    table = whole_game(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: final_shown(app))
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await settled(pilot)
            lines = screen_text(app).splitlines()
            assert lines[0].startswith("Classic · Round 5/5"), size  # the round bar
            assert any("Final scores" in line for line in lines), size
            # The banner, at the foot of the cave, says how the last round ended.
            assert not any("boulders!" in line for line in lines), size
            assert lines[-1].startswith(" g Log"), size
