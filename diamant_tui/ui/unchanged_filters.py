"""Line filters that hand back the line itself when they change nothing in it.

Textual passes every line a widget draws through the app's line filters. With the
full-colour theme (the one most terminals get) that is ``ANSIToTruecolor``, which turns
the terminal's sixteen named colours into exact ones; this interface names none of those
colours there, so the filter changes nothing, yet it built a copy of every line: a new
strip, a new list and a new run of text for each run, kept in a cache on the line for as
long as the line is shown. On a server every frame of every app made those copies, and
they were a good part of the objects Python's cycle collector had to look at in each of
its young collections (at 200 seats playing: 10,000 to 76,000 objects, 4 to 49 ms each).

Here ``ANSIToTruecolor`` gives back the very list of runs it was given when no run has a
named colour, dimmed text or a control code (it would change those), and a strip whose
filter changed nothing is its own filtered line: no copy is made, and the strip is not
cached under itself (which would keep it alive as a cycle). Every other case is Textual's
own. ``Strip``'s filter cache is private: this relies on the pinned minor version of
Textual.
"""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import ANSIToTruecolor
from textual.strip import Strip

_UNCHANGED = object()
"""Kept in a strip's filter cache for a filter that leaves the strip as it is."""

_apply_truecolor = ANSIToTruecolor.apply
_apply_filter = Strip.apply_filter


@lru_cache(maxsize=4096)
def truecolor_changes(style: Style) -> bool:
    """Whether ``ANSIToTruecolor`` changes ``style``: a named (not exact) colour or
    background, or dimmed text with a colour (Textual's ``truecolor_style``)."""
    color, bgcolor = style.color, style.bgcolor
    return ((color is not None and color.triplet is None)
            or (bgcolor is not None and bgcolor.triplet is None)
            or bool(style.dim and color is not None))


def _apply_truecolor_if_needed(self: ANSIToTruecolor, segments: list[Segment],
                               background: Color) -> list[Segment]:
    for _text, style, control in segments:
        if control is not None or (style is not None and truecolor_changes(style)):
            return _apply_truecolor(self, segments, background)
    return segments  # nothing to change: the runs as they are


def _apply_filter_sharing(self: Strip, filter, background: Color) -> Strip:
    cache = self._filter_cache
    key = (filter, background)
    filtered = cache.get(key)
    if filtered is None:
        segments = filter.apply(self._segments, background)
        filtered = (_UNCHANGED if segments is self._segments
                    else Strip(segments, self._cell_length))
        cache[key] = filtered
    return self if filtered is _UNCHANGED else filtered


def keep_unfiltered_lines() -> None:
    """Make line filters that change nothing hand back the line itself, in every app of
    this process (idempotent)."""
    ANSIToTruecolor.apply = _apply_truecolor_if_needed  # type: ignore[method-assign]
    Strip.apply_filter = _apply_filter_sharing  # type: ignore[method-assign]


__all__ = ["keep_unfiltered_lines", "truecolor_changes"]
