"""Python's cycle collector, set for a server that holds many apps in one process.

Every session's Textual app is some ten thousand objects, and an app's work leaves cyclic
garbage behind (widgets, messages and their tasks refer to each other). With Python's
default settings (a young collection every 700 new objects) much of that garbage lives
through two young collections, reaches the oldest generation and makes it grow; each
quarter of growth costs a full collection, which looks at every object of every app at
once: with 60 sessions, 300 to 700 ms during which nobody's screen moves.

Collecting the young generation every :data:`YOUNG` new objects instead lets the garbage
of a frame die young (where a collection looks at few objects), and the objects of the
server's start (modules, stylesheet, tables rebuilt) are moved out of the collector's
sight for good (``gc.freeze``): they live as long as the server. Measured with
``benchmarks/chat_attack.py`` (60 clients): full collections went from 14 to none over the
run, the longest pause from 450-730 ms to about 60 ms, and the collector's time in all
from 3.4 s to 0.9 s.
"""

from __future__ import annotations

import gc

YOUNG = 10_000
"""New objects between two young collections (Python's default is 700)."""


class Collector:
    """Sets the collector for the server while it runs, and puts it back as it was."""

    def __init__(self) -> None:
        self._before: tuple[int, int, int] | None = None

    def tune(self) -> None:
        """After the server's start: freeze what it has built, collect young less often."""
        if self._before is not None:
            return
        self._before = gc.get_threshold()
        gc.collect()  # garbage must not be frozen with the rest
        gc.freeze()
        gc.set_threshold(YOUNG, *self._before[1:])

    def restore(self) -> None:
        """At the server's stop: the settings it found, nothing frozen."""
        if self._before is None:
            return
        gc.set_threshold(*self._before)
        gc.unfreeze()
        self._before = None
