"""Each run of text's style, with its place on the line, made once for the process.

Textual gives every run of text it draws a Rich style of its own that carries the run's
place in the widget (``Style.rich_style_with_offset``, for selecting text with the
mouse): a new style, with its metadata encoded, for every run of every line drawn. A line
drawn again after a change (the cave path with one more card, a player's row with a new
count) is mostly the same runs in the same places, and on a server every table draws its
own: those styles were about a fifth of what drawing the cave cost, and many of the
objects Python's cycle collector looked at in each young collection.

Here the styles are kept, by style and place, for the last :data:`KEPT` asked: the same
style and place give the very same Rich style (they are immutable, and Textual tells two
styles apart by their hash, which covers every attribute). This relies on the pinned
minor version of Textual.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style as RichStyle
from textual.style import Style

KEPT = 8192
"""Styles with a place kept (some tables' worth of lines)."""

_rich_style_with_offset = Style.rich_style_with_offset


@lru_cache(maxsize=KEPT)
def rich_style_at(style: Style, x: int, y: int) -> RichStyle:
    """Textual's Rich style for ``style`` at (``x``, ``y``), made once while kept."""
    return _rich_style_with_offset(style, x, y)


def _rich_style_with_offset_kept(self: Style, x: int, y: int) -> RichStyle:
    return rich_style_at(self, x, y)


def keep_positioned_styles() -> None:
    """Make every app of this process take the Rich styles of its runs of text from
    :func:`rich_style_at` (idempotent)."""
    Style.rich_style_with_offset = _rich_style_with_offset_kept  # type: ignore[method-assign]


__all__ = ["KEPT", "keep_positioned_styles", "rich_style_at"]
