"""Widgets that tell their screen at once that they need drawing again.

When a widget's content changes, Textual marks it for a repaint and wakes the widget's
own message loop (a ``Prompt``); once that loop is idle, the widget sends its screen an
``Update`` message, and the screen's loop then puts the widget among those to draw at
the next frame. That is two messages and two wake-ups of a task for every widget that
changes, before anything is drawn. The table screen's widgets change together, several
at every card, for every seat: on a server those hops were a good part of what a frame
cost besides the drawing.

A widget with :class:`RepaintedDirectly` puts itself among the widgets its screen draws
at the next frame when it is refreshed, as the screen would on its ``Update``. A refresh
that asks for a new layout sends the screen its ``Layout`` at once too: what changes
together must still be drawn together (the round's last card and its summary laid over
it, a widget and the line it grows), and a layout asked the long way would come a frame
after the repaints asked the short way. A recomposition, a screen not on show (being
made, or under another: it is drawn whole when shown) or a batch of updates goes
Textual's way. The screen is then prompted to go idle (a message), unless it says it
will anyway (``idle_follows``: the table's screen while it handles a table's update).
``Widget._set_dirty``, the screen's ``_dirty_widgets`` and ``_compositor`` are private:
this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from textual import messages
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget


def screen_of(widget: Widget) -> Screen | None:
    """The screen ``widget`` is in, found through its parents (None before it is in one);
    unlike ``Widget.screen``, asking raises nothing."""
    node = widget._parent
    while node is not None and not isinstance(node, Screen):
        node = node._parent
    return node


class RepaintedDirectly:
    """Mixin for a widget: a repaint, or a new layout, is handed to its screen at once
    (see the module)."""

    def _set_dirty(self, *regions: Region) -> None:
        if regions:
            return super()._set_dirty(*regions)  # type: ignore[misc]
        # Textual's, but for marking the content's lines dirty in the styles' cache it
        # has just emptied (an empty cache draws every line anyway): that found the
        # widget's size through its screen's map, at every change of every widget, for
        # every seat. The outer size is the one the last layout gave.
        widget: Widget = self  # type: ignore[assignment]
        widget._dirty_regions.clear()
        widget._repaint_regions.clear()
        widget._styles_cache.clear()
        outer_size = widget._size
        widget._dirty_regions.add(outer_size.region)
        if outer_size:
            widget._repaint_regions.add(outer_size.region)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False):
        widget: Widget = self  # type: ignore[assignment]
        screen = screen_of(widget)
        if (recompose or not widget._is_mounted or widget._closing or screen is None
                or not screen.is_current or screen.app._batch_count):
            # A screen not on show (being made, or under another): Textual's way, which
            # draws it whole when it is shown.
            return super().refresh(  # type: ignore[misc]
                *regions, repaint=repaint, layout=layout, recompose=recompose)
        # Widget.refresh, then what the widget's idle and its screen would do with it: a
        # repaint and a layout asked together are drawn in one frame, as Textual does.
        widget._layout_cache.clear()
        if repaint:
            widget._set_dirty(*regions)
            widget.clear_cached_dimensions()
            widget._rich_style_cache.clear()
            # Drawn at the screen's next frame if it is laid out (a widget being shown
            # is drawn with the layout that shows it).
            if widget.display and widget in screen._compositor.widgets:
                screen._dirty_widgets.add(widget)
        if layout:
            widget._layout_updates += 1
            for ancestor in widget.ancestors:
                if not isinstance(ancestor, Widget):
                    break
                ancestor._clear_arrangement_cache()
                ancestor._layout_updates += 1
                if not ancestor.styles.auto_dimensions:
                    break
            screen.post_message(messages.Layout(widget))
        if not getattr(screen, "idle_follows", False):
            screen.check_idle()
        return widget
