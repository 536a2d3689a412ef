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
widget mounted later marks it again. ``reflow`` and ``_full_map_invalidated`` are
private: this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from textual._compositor import Compositor, ReflowResult
from textual.geometry import Size
from textual.widget import Widget

_reflow = Compositor.reflow


def _reflow_once(self: Compositor, parent: Widget, size: Size) -> ReflowResult:
    result = _reflow(self, parent, size)
    # The full map was just arranged, from the same root at the same size.
    self._full_map_invalidated = False
    return result


def keep_reflowed_maps() -> None:
    """Make every compositor of this process keep the map its layout made (idempotent)."""
    Compositor.reflow = _reflow_once  # type: ignore[method-assign]


__all__ = ["keep_reflowed_maps"]
