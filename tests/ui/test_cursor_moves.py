"""Cursor moves are made once per cell and read exactly as Rich's."""

from rich.control import Control
from rich.segment import Segment

import diamant_tui.ui.app  # noqa: F401  (installs the kept moves, as every app does)
from diamant_tui.ui.cursor_moves import _RICH_MOVE_TO


def test_a_move_reads_as_rich_makes_it_and_is_made_once_per_cell():
    for x, y in ((0, 0), (79, 23), (5, 17), (999, 999)):
        kept = Control.move_to(x, y)
        rich = _RICH_MOVE_TO(x, y)
        assert kept.segment == rich.segment
        assert str(kept) == str(rich) == f"\x1b[{y + 1};{x + 1}H"
        assert Control.move_to(x, y) is kept  # made once for that cell
    assert Control.move_to(1, 2) is not Control.move_to(2, 1)


def test_a_subclass_still_gets_its_own_kind_of_move():
    class Marked(Control):
        pass

    move = Marked.move_to(3, 4)
    assert type(move) is Marked and move.segment == Segment("\x1b[5;4H", None, move.segment.control)

