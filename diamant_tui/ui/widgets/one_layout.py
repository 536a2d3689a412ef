"""Widgets whose new size asks for no second layout of the screen.

When a layout gives a widget another size, Textual stores the widget's new virtual
(scrollable) size through a reactive that asks for a layout: the screen is laid out
again, in a frame of its own, though the first layout already placed everything. The
cave's path, growing past its area, changes size; the deck's panel grows by a line when a
hazard type is first seen, and the middle row with it; the round summary's box takes the
size of its words: every seat at a table would pay a second layout for each. Counted
over SSH (20 seats, 2 games), these second layouts were two in five of the layouts
made during a game. These widgets take their new size without asking again; a scroll
bar coming or going still asks for its own layout (``show_vertical_scrollbar``).

Only for widgets whose height the first layout gets right by itself: a fixed share of
the room, a container's (worked out from its children), a fixed height (the decision's
buttons and note, the banner, the round bar, the key bar), one counted from the state
(the player list), or one worked out from the width Textual gives (the path's and the
deck's ``get_content_height``, a ``Static``'s words). As a game began, the parts of the
first kinds each asked for a second layout, a frame later, for every seat.
The game log does need the second layout: its lines are wrapped at the width it had
when they were written, and a log column shown without it kept the old width. The round
summary over the table (not its box) is left to Textual's way too: sized in one layout,
its first showing sent every seat the whole screen.

Private Textual (``Widget._size_updated``), pinned with it in pyproject.toml.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget


class SizedInOneLayout:
    """Mixin for a widget whose size, once laid out, needs no second layout."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        return super()._size_updated(  # type: ignore[misc]
            size, virtual_size, container_size, layout=False)


async def mount_in_one_layout(parent: Widget, *widgets: Widget, before: Widget | None = None,
                              ) -> None:
    """Mount ``widgets`` in ``parent`` and wait until they are mounted, with the one
    layout that asks.

    Textual's ``mount`` also hands the same wait to the parent, as its next callback,
    for a caller that does not await it; once run, that asks for the layout again. The
    parent runs it when its own loop next wakes, often after the screen has laid the
    new widgets out: at a game's start that was a second layout of the whole screen,
    a frame later, for every seat. Awaited here, the copy is dropped.
    Private Textual (``MessagePump._next_callbacks``), pinned with it."""
    awaited = parent.mount_all(widgets, before=before)
    parent._next_callbacks[:] = [
        callback for callback in parent._next_callbacks
        if getattr(callback.callback, "func", None) is not awaited]
    await awaited
