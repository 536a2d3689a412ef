"""The escape code that moves the cursor to a cell, made once per cell.

At every frame Textual's compositor asks Rich for a cursor move before each run of a
line it sends (``Control.move_to``), and Rich builds a new control object each time:
a list, a format and a segment, for a code that depends only on the column and the
row. On a server that was about 2 % of the CPU under load (some 35 moves a frame). The
moves are kept here for the last :data:`KEPT` cells asked for; a ``Control`` is never
changed once made, so one can be handed out again.
"""

from __future__ import annotations

from functools import lru_cache

from rich.control import Control

KEPT = 8192
"""Cursor moves kept (a terminal of 80x24 asks for a few hundred cells at most)."""

_RICH_MOVE_TO = Control.move_to
"""Rich's own, kept for comparison (tests)."""


@lru_cache(maxsize=KEPT)
def _kept_move(x: int, y: int) -> Control:
    return _RICH_MOVE_TO(x, y)


def _move_to(cls, x: int, y: int) -> Control:
    if cls is Control:
        return _kept_move(x, y)
    return _RICH_MOVE_TO.__func__(cls, x, y)  # a subclass gets its own, as before


def keep_cursor_moves() -> None:
    """Make ``Control.move_to`` hand out the move kept for its cell (see the module)."""
    Control.move_to = classmethod(_move_to)  # type: ignore[method-assign, assignment]
