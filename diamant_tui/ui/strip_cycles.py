"""Strips that do not keep themselves alive.

Textual caches what a strip (one line of a widget's rendering) derives from itself, in
small caches of the strip's own. Two of those can hand back the strip itself: dividing it
at its own end (``divide``, which the compositor does to every line of every frame) and
cropping it to what it already is (``crop_extend``). Cached, such a strip refers to
itself: it is no longer freed when the frame is done with it, but waits for Python's
cycle collector, with its seven caches and their contents. A server that draws frames
for many apps then made most of its cyclic garbage this way (about 110,000 caches in a
full collection after 40 s of 20 seats playing), and its collections took seconds.

Here the two return the strip as Textual does, without caching it under itself: a cache
hit saved nothing there. ``Strip``'s caches are private: this relies on the pinned minor
version of Textual.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from rich.style import Style
from textual.strip import Strip

_divide = Strip.divide
_crop_extend = Strip.crop_extend


def _divide_without_self(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    length = self.cell_length
    if type(cuts) is list and len(cuts) == 1 and cuts[0] == length:
        # The compositor's usual case (a line cut only at its own end), told at once.
        return [self]
    cuts = [cut for cut in cuts if cut <= length]
    if cuts == [length]:
        return [self]  # what Textual returns, not kept in this strip's own cache
    return _divide(self, cuts)


def _crop_extend_without_self(self: Strip, start: int, end: int,
                              style: Style | None) -> Strip:
    if start <= 0 and end == self.cell_length:
        return self  # crop_extend gives the strip itself: nothing to cache
    return _crop_extend(self, start, end, style)


def keep_strips_acyclic() -> None:
    """Make every strip of this process free itself when the frame is done with it
    (idempotent)."""
    Strip.divide = _divide_without_self  # type: ignore[method-assign]
    Strip.crop_extend = _crop_extend_without_self  # type: ignore[method-assign]


__all__ = ["keep_strips_acyclic"]
