"""Light stand-in nodes for the styles of widgets' component classes.

A widget draws parts of itself (a disaster on the path, the own row of the player list)
with the styles of its component classes (``COMPONENT_CLASSES``). To find them, Textual
matches the stylesheet against a node of its own for each component class, made afresh
every time the widget is styled, attached under the widget and kept as long as its
styles: a whole ``DOMNode``, that is a message pump with its sets, weak set, signal, key
bindings, child list and query cache, about 6.5 KB, of which the styling reads none. The
table screen's widgets have some forty component classes: a quarter of a megabyte for
every session waiting at a table.

Here that node is a :class:`ComponentNode`: the same class for the stylesheet (its type
name is ``DOMNode``, its classes the component class), with the styles, the classes and
the parent the stylesheet and :attr:`~textual.dom.DOMNode.rich_style` read, and nothing
of a message pump. Textual makes it where it made the plain node (``DOMNode`` in its
stylesheet module is only used to make these): this relies on the pinned minor version
of Textual.
"""

from __future__ import annotations

from textual.css import stylesheet
from textual.css.styles import RenderStyles, Styles
from textual.dom import DOMNode


class ComponentNode(DOMNode):
    """What Textual's stylesheet matches to find one component class's styles (see the
    module docstring); never mounted, never sent a message."""

    # Never mounted nor run: a change of its styles asks nobody to redraw.
    _is_mounted = False
    _running = False
    _closing = False
    _closed = False

    def __init__(self, *, classes: str) -> None:
        # Not DOMNode.__init__: that makes a message pump the styling never uses.
        self._classes = set(classes.split())
        self._name = None
        self._id = None
        self._parent = None
        self._css_styles = Styles(self)
        self._inline_styles = Styles(self)
        self.styles = RenderStyles(self, self._css_styles, self._inline_styles)
        self._component_styles = {}
        self._css_types = {"DOMNode"}
        # Set again by the stylesheet as it applies its rules.
        self._has_hover_style = False
        self._has_focus_within = False
        self._has_order_style = False
        self._has_odd_or_even = False


# To the stylesheet it is the plain DOMNode it stands in for. (Set after the class is
# made: Textual's __init_subclass__ would name it after itself.)
ComponentNode._css_type_name = "DOMNode"
ComponentNode._css_type_names = frozenset({"DOMNode"})


def use_light_component_nodes() -> None:
    """Make Textual's stylesheet use :class:`ComponentNode` for component classes'
    styles, in every app of this process (idempotent)."""
    stylesheet.DOMNode = ComponentNode  # type: ignore[misc]


__all__ = ["ComponentNode", "use_light_component_nodes"]
