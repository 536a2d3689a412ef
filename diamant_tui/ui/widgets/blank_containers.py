"""Containers whose blank lines are drawn once for every app in the process.

A container draws nothing of its own but its background (and a frame where it has one),
yet Textual keeps a line of it for every line it covers, in every app: the table screen,
its columns, the path's area, the middle row and the decision panel, some hundred lines
per seat. Worse, the compositor cuts each of those lines where the widgets on top of it
begin and end, at every frame, and each line keeps its pieces in a cache of its own: a
seat's screen held about 300 such pieces once its game had begun, a seventh of what the
game's widgets cost it. All seats at 80x24 lay the table out alike, so one set of lines,
and of pieces, serves them all.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.containers import Horizontal, Vertical

from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines


class SharedBlank(SharedLines):
    """Mixin for a widget that draws no content of its own (only its background and frame,
    which its size, classes and the app's look decide): its lines are shared."""

    def shared_key(self) -> Hashable | None:
        return ()  # no state of its own: the size and the look are in the key already


class Row(SharedBlank, SizedInOneLayout, Horizontal):
    """A ``Horizontal`` whose blank lines are shared by every app of the process (and
    whose new size asks for no second layout: see :mod:`.one_layout`)."""


class Column(SharedBlank, SizedInOneLayout, Vertical):
    """A ``Vertical`` whose blank lines are shared by every app of the process (and
    whose new size asks for no second layout: see :mod:`.one_layout`)."""


__all__ = ["Column", "Row", "SharedBlank"]
