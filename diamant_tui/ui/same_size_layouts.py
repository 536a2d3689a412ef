"""A screen laid out again on a resize only when its size changed.

Textual answers every ``Resize`` a screen gets by laying out that screen and every screen
beneath it, whatever the size. A seat's app got five of them as it opened, none of them
with a new size, and each laid out two screens (the table's and Textual's empty default
screen beneath it):

- the app's first size, which Textual dispatches itself as the app starts, and the same
  size posted by the driver as the terminal is set up: the app keeps that second event
  (the size unchanged) and posts it to both screens once it is idle;
- the ``Resize`` a screen's first layout sends the screen itself (a widget just shown);
- the app's first size, posted to the default screen while it was the only one.

Only the table screen's first layout, as it is shown, placed anything: the others arranged
the same widgets in the same places, found nothing to redraw and threw away the screen's
cached cuts. Here a screen told the size it was last laid out at keeps that layout; a
layout asked for meanwhile (a widget mounted, a style changed) still comes as Textual
brings it, from the screen's update timer, and a new size is laid out as before. What
else a ``Resize`` does (the size classes, the handlers of the interface's screens) is
unchanged.
``Screen._screen_resized`` and the compositor's ``size`` are private: this relies on the
pinned minor version of Textual.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.screen import Screen

_screen_resized = Screen._screen_resized


def _resized_if_new(self: Screen, size: Size) -> None:
    if self._compositor.size == size and self._compositor.root is self:
        # Laid out at this size: a layout asked for since comes from the update timer.
        return
    _screen_resized(self, size)


def lay_out_only_new_sizes() -> None:
    """Make every screen of this process skip a layout for a size it has (idempotent)."""
    Screen._screen_resized = _resized_if_new  # type: ignore[method-assign]


__all__ = ["lay_out_only_new_sizes"]
