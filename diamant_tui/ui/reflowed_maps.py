"""A screen's map of all its widgets, made once per layout, not twice.

Textual's compositor keeps a map of where every widget of a screen lies (``full_map``),
and marks it out of date when a widget it has not placed yet asks to be drawn (one just
mounted, or one not on show). A layout (``reflow``) makes that map anew, but leaves the
mark. Right after it, the layout tells every widget its new size, and a widget that has
another size marks itself for drawing, which asks where it lies: the mark still standing,
the compositor arranged the whole screen a second time to find out. That was a layout of
the whole screen more at a game's start (the cave mounted), at its end (the final scores
mounted) and at every join, for every seat.

Here a layout takes the mark down once it has made the map, which is then as the mark
would have had it made: the same arrangement of the same widgets, at the same size. Any
widget mounted later marks it again.

A layout finds what to draw again by comparing its map with the one before it. The map
may be arranged again between two layouts, though: a widget asks to be drawn before the
layout its change of size asks for (the chat box given its line, at the frame that also
redrew the key bar), the mark goes up, and the next question of where a widget lies makes
the map anew, with the box's line in it. The layout that followed then found the box
where the map already had it, and neither drew its line nor told it its new size: the box
was open, focused and blank on the terminal, and what the person typed went on unseen. So
a layout compares its map with the last layout's, never with one arranged in between,
which placed widgets but drew nothing. ``reflow``, ``_full_map`` and
``_full_map_invalidated`` are private: this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from textual._compositor import Compositor, ReflowResult
from textual.geometry import Size
from textual.widget import Widget

_reflow = Compositor.reflow


def _reflow_once(self: Compositor, parent: Widget, size: Size) -> ReflowResult:
    laid_out = self.__dict__.get("_laid_out_map")
    if laid_out is not None:
        # Compared with what the last layout drew, not with a map arranged since.
        self._full_map = laid_out
    result = _reflow(self, parent, size)
    # The full map was just arranged, from the same root at the same size.
    self._full_map_invalidated = False
    self._laid_out_map = self._full_map
    return result


def keep_reflowed_maps() -> None:
    """Make every compositor of this process keep the map its layout made (idempotent)."""
    Compositor.reflow = _reflow_once  # type: ignore[method-assign]


__all__ = ["keep_reflowed_maps"]
