"""Widgets whose new size asks for no second layout of the screen.

When a layout gives a widget another size, Textual stores the widget's new virtual
(scrollable) size through a reactive that asks for a layout: the screen is laid out
again, in a frame of its own, though the first layout already placed everything. The
cave's path, growing past its area, changes size, so every seat at a table would pay a
second layout and frame for it. These widgets take their new size without asking again; a scroll bar coming or
going still asks for its own layout (``show_vertical_scrollbar``).

Only for widgets whose height the first layout gets right by itself: a fixed share of
the room, or one worked out from the width (the path's ``get_content_height``). A widget whose height Textual finds by drawing its content at
the old width (the deck's panel, the summary's box) does need the second layout: the
replay's screen came out wrong without it.

Private Textual (``Widget._size_updated``), pinned with it in pyproject.toml.
"""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.geometry import Size

from .blank_containers import SharedBlank
from .focus_look import FocusDrawnByItself


class SizedInOneLayout:
    """Mixin for a widget whose size, once laid out, needs no second layout."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        return super()._size_updated(  # type: ignore[misc]
            size, virtual_size, container_size, layout=False)


class PathScroll(SharedBlank, SizedInOneLayout, FocusDrawnByItself, VerticalScroll):
    """The scrolling area of the cave path (it shows no focus of its own); its own
    blank lines, under the path, are shared by every app (:class:`SharedBlank`)."""
