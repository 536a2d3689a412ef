"""The game log is kept as text until it is first shown: a seat at 80 columns that never
opens it holds no log widget, and opening it (``g``) or widening the terminal shows every
line of the game so far."""

from contextlib import asynccontextmanager

from textual.widgets import RichLog

from diamant_tui.ui import DiamantApp
from ui_helpers import FixedTable, T, mid_round, screen_text, settled


def log_words(app) -> list[str]:
    """The log's lines so far, as the screen has written them."""
    return app.screen._log.waiting()


@asynccontextmanager
async def seat_without_a_log():
    """A seat's app at 80x24 in the middle of a round, with no log widget made yet: its
    pilot, and the log's lines so far."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert not app.screen.query(RichLog)
        yield pilot, log_words(app)


async def test_no_log_widget_until_g_opens_it_then_every_line_is_there():
    """At 80x24 the log is hidden until ``g``: no widget for it until then, and once
    opened it shows the round's events written before."""
    async with seat_without_a_log() as (pilot, written):
        app = pilot.app
        assert written, "the arrival lines are in the log"
        await pilot.press("g")
        await settled(pilot)
        (log,) = app.screen.query(RichLog)
        assert log.display and log.region.area
        text = screen_text(app)
        assert "Game log" in text
        assert written[-1][:30] in " ".join(text.split()), (written[-1], text)
        await pilot.press("g")  # closed and opened again: still the one widget
        await settled(pilot)
        await pilot.press("g")
        await settled(pilot)
        assert len(app.screen.query(RichLog)) == 1


async def test_a_terminal_widened_shows_the_log_with_the_game_so_far():
    """From 80 columns to 120, the log takes its own column, with the lines so far."""
    async with seat_without_a_log() as (pilot, written):
        app = pilot.app
        await pilot.resize_terminal(120, 30)
        await settled(pilot)
        (log,) = app.screen.query(RichLog)
        assert log.region.width == 40 and log.region.x == 80
        assert written[-1][:30] in " ".join(screen_text(app).split())


async def test_lines_written_while_the_log_is_closed_fit_its_width_when_opened_again():
    """At 80x24, the log opened and closed again: the lines of the cards turned while it
    was closed read at the log's own width when it is opened again, not cut into pieces
    of 20 columns (a hidden RichLog has no width and wraps at its least)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("g")
        await settled(pilot)
        (log,) = app.screen.query(RichLog)
        width = log.scrollable_content_region.width
        assert width > 40
        await pilot.press("g")
        await settled(pilot)
        assert not log.display
        table.decide(Ana="continue")  # the turn's choices, then a card: long lines
        table.reveal(T(15))
        await settled(pilot)
        await pilot.press("g")
        await settled(pilot)
        rows = [strip.text.rstrip() for strip in log.lines]
        # Each line wraps only where the log's width ends, never at 20 columns.
        assert "Continue: Ana, Dmytro · Exit: Chiara" in rows, rows
        (treasure,) = [row for row in rows if row.startswith("Treasure 15")]
        assert len(treasure) > 40, rows
        assert max(len(row) for row in rows) <= width


async def test_a_terminal_narrowed_wraps_the_log_again_at_its_new_width():
    """From 200 columns to 120 (and from the log opened over the table at 80 columns to
    its own column at 120), the log's lines are wrapped again at its new width: none is
    cut at the column's edge behind a horizontal scroll bar."""
    async with seat_without_a_log() as (pilot, written):
        app = pilot.app
        widths = []
        for size in ((200, 60), (120, 30), (80, 24), (120, 30)):
            await pilot.resize_terminal(*size)
            await settled(pilot)
            if size == (80, 24):
                await pilot.press("g")  # opened over the table, 54 columns inside
                await settled(pilot)
            (log,) = app.screen.query(RichLog)
            width = log.scrollable_content_region.width
            widths.append(width)
            rows = [strip.text.rstrip() for strip in log.lines]
            assert max(len(row) for row in rows) <= width, (size, width, rows)
            assert log.virtual_size.width <= width, (size, log.virtual_size)
            assert written[-1][:30] in " ".join(screen_text(app).split())
            if size == (80, 24):
                await pilot.press("g")
                await settled(pilot)
        assert len(set(widths)) == 3, widths


async def test_escape_closes_the_log_as_g_does_and_its_border_says_so():
    """Escape goes back on every screen: the log opened over the table closes with it
    too, as with ``g`` (it stayed open, Escape doing nothing), and its border says both."""
    async with seat_without_a_log() as (pilot, _written):
        app = pilot.app
        await pilot.press("g")
        await settled(pilot)
        (log,) = app.screen.query(RichLog)
        assert log.display and log.region.area
        assert "Esc" in str(log.border_subtitle)
        await pilot.press("escape")
        await settled(pilot)
        assert not app.screen.has_class("-log-open")
        assert not log.region.area
        assert "Game log" not in screen_text(app)
