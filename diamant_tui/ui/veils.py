"""Widgets hidden and shown again without a layout of the screen.

Textual hides a widget by its ``display`` (or ``visibility``), and either one lays the
whole screen out again: every widget is arranged anew, and every line under the widget
is drawn and sent. The round summary, which stands over the whole table at every round's
end, cost each seat two such layouts a round (shown, then hidden): about a tenth of what
a seat's screen cost the server in a game, for a widget whose place never changes.

A veiled widget keeps its place in the screen's layout, but the compositor leaves it out
of what it draws (and of what the mouse finds), as it leaves out a widget scrolled out of
sight: what is under it shows. Veiling or unveiling redraws only the widget's region, in
the next frame, with whatever else changed meanwhile. The compositor's caches of what it
draws (``_visible_widgets``, ``_layers_visible``, ``_cuts``) are private: this relies on
the pinned minor version of Textual.
"""

from __future__ import annotations

from textual._compositor import Compositor
from textual.widget import Widget

from .widgets.direct_repaint import screen_of

_visible_widgets = Compositor.visible_widgets.fget


def _visible_unveiled(self: Compositor):
    if self._visible_widgets is None:
        widgets = _visible_widgets(self)
        if any(widget._veiled for widget in widgets):
            widgets = self._visible_widgets = {
                widget: place for widget, place in widgets.items() if not widget._veiled}
        return widgets
    return self._visible_widgets


def use_veils() -> None:
    """Let widgets of this process be veiled (idempotent)."""
    Widget._veiled = False  # type: ignore[attr-defined]
    Compositor.visible_widgets = property(  # type: ignore[method-assign, assignment]
        _visible_unveiled, doc=Compositor.visible_widgets.__doc__)


def veil(widget: Widget, veiled: bool = True) -> None:
    """Hide ``widget`` and everything in it (``veiled``), or show them again, leaving the
    screen's layout as it is: only the widget's region is drawn again.

    The widget must keep its ``display``: a veiled widget is still laid out (give it a
    place that moves nothing, such as a dock in a layer of its own). A widget not mounted
    yet is veiled with what it holds so far, what is composed in it included (a
    widget that composes more later veils it as it composes it)."""
    nodes = list(_tree(widget))
    if all(node._veiled == veiled for node in nodes):
        return
    screen = screen_of(widget)
    compositor = screen._compositor if screen is not None else None
    place = compositor.visible_widgets.get(widget) if compositor is not None else None
    for node in nodes:
        node._veiled = veiled
    if veiled and screen is not None and screen.focused in nodes:
        # A hidden widget keeps no focus: the next Enter or Space would press a button
        # nobody can see (the final scores' "Quit" under the next game).
        screen.set_focus(None)
    if compositor is None:
        return  # not on a screen yet: its first layout leaves it out or in
    compositor._visible_widgets = None
    compositor._layers_visible = None
    compositor._cuts = None
    if not (widget._is_mounted and screen.is_current):
        return  # a screen not on show is drawn whole when it is shown
    # Sent again, not drawn again: what is under a veil, and the veiled widgets' own
    # lines, are still in their caches when nothing else changed them.
    if veiled:
        if place is not None:
            region, clip = place
            screen._repaint_regions.add(region.intersection(clip))
            screen._dirty_widgets.add(screen)
    else:
        for node in nodes:
            if node.display:
                node._repaint_regions.add(node.outer_size.region)
                screen._dirty_widgets.add(node)
    screen.check_idle()


def _tree(widget: Widget):
    """``widget`` and every widget in it, mounted or still waiting to be."""
    yield widget
    for child in (*widget._nodes, *widget._pending_children):
        yield from _tree(child)


__all__ = ["use_veils", "veil"]
