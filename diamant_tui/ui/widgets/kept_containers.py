"""The table screen's plain containers, their background colours kept between frames.

Textual draws a container's own cells (its background, where no child covers it) at every
frame that touches it, and works out its background colours for that by walking all its
ancestors. The table screen's columns and rows stand under every change of a game, for
every seat: with :class:`~.shared_lines.KeptBackgrounds` they work them out once per
change of CSS. They add no CSS of their own: they are styled as the containers they are.
"""

from __future__ import annotations

from textual.containers import Horizontal, Vertical

from .shared_lines import KeptBackgrounds


class KeptHorizontal(KeptBackgrounds, Horizontal):
    """A ``Horizontal`` whose background colours are kept (see the module)."""


class KeptVertical(KeptBackgrounds, Vertical):
    """A ``Vertical`` whose background colours are kept (see the module)."""
