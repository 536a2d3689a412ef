"""Strips that make their caches only when they use them.

Textual gives every strip (one line of a widget's rendering) seven small caches of its
own, made in ``Strip.__init__``, for what it derives from itself: a crop, a division, a
restyling, and so on. Most strips use one or two of them, or none, and die with their
frame; yet each strip made them all. In a server that draws frames for many apps that was
eight objects the cycle collector tracks for every line on every screen: 158,000 of the
509,000 objects it looked at in a full collection with 20 seats playing, and the time
spent making them on every frame.

Here a strip starts with no caches, and makes each on first use, with the size Textual
gives it: the same caches, holding the same things, only not made in vain. ``Strip``'s
caches are private: this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from typing import Iterable

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

CACHE_SIZES: dict[str, int] = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""Each cache of a strip, with the size ``Strip.__init__`` gives it in Textual 8.2."""


def _init_without_caches(self: Strip, segments: Iterable[Segment],
                         cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _make_cache(self: Strip, name: str) -> FIFOCache:
    # Called only when an attribute is missing: a cache slot not set yet.
    size = CACHE_SIZES.get(name)
    if size is None:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    cache: FIFOCache = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def make_strip_caches_lazy() -> None:
    """Make every strip of this process create each of its caches on first use
    (idempotent)."""
    Strip.__init__ = _init_without_caches  # type: ignore[method-assign]
    Strip.__getattr__ = _make_cache  # type: ignore[attr-defined]


__all__ = ["CACHE_SIZES", "make_strip_caches_lazy"]
