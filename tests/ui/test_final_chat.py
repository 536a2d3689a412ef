"""The chat rows at the final scores: the newest lines that fit, each whole or cut
cleanly, and a refusal under them."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console

from diamant_tui.ui.widgets.final_chat import fitted_rows

LONG = "» bob: Давайте ще одну гру: минулого разу я майже виграв, а цього разу заберу всі рубіни"
WAIT = "Зачекайте 3 с, перш ніж писати знову."


def rows_of(lines, refusal, width, height) -> list[str]:
    console = Console(width=width, file=io.StringIO())
    rows = [row.plain for row in fitted_rows(lines, refusal, width, height, console)]
    assert all(cell_len(row) <= width for row in rows), rows  # never over the next cell
    return rows


def test_the_newest_lines_that_fit_whole_are_shown_oldest_first():
    """Four rows of 40 cells: the long line (three rows) and the one after it; the line
    before them, which would not fit whole, is left out rather than cut."""
    rows = rows_of(["» ann: first", LONG, "» cy: [b]ok[/b]"], None, 40, 4)
    assert rows[-1] == "» cy: [b]ok[/b]"
    assert " ".join(" ".join(rows[:-1]).split()) == LONG
    assert not any("first" in row for row in rows)


def test_a_newest_line_longer_than_the_rows_left_is_cut_cleanly_under_a_refusal():
    """Four rows of 30 cells, a refusal on two of them: the newest line reads as far as
    two rows go and ends in an ellipsis; the refusal is read whole under it."""
    rows = rows_of(["» ann: hi", LONG], WAIT, 30, 4)
    assert len(rows) == 4
    assert rows[0].startswith("» bob: Давайте") and rows[1].endswith("…"), rows
    assert " ".join(" ".join(rows[2:]).split()) == WAIT
    assert not any("hi" in row for row in rows)


def test_nothing_is_drawn_without_room():
    """A widget not laid out yet (no rows, or no width) draws nothing."""
    assert rows_of([LONG], WAIT, 30, 0) == []
    assert rows_of([LONG], WAIT, 0, 3) == []
