"""Which style rules hold for a widget, found once for the process for each place in the DOM.

Textual styles a widget by matching each rule of the stylesheet that could name it
against the widget's path from the app (the type, id, classes and pseudo-classes of every
node on it), then keeping the most specific value of each property. For a widget of the
table screen that is 80 to 440 µs, its component classes included, and it is done again
whenever the widget is mounted, gains or loses the focus, or gains or loses a class. On a
server every seat's app styles the same widgets in the same places: at every join, at
every game's end (the final scores mounted), at every move of the focus between the
choice buttons, at every disaster (the banner's class).

Here the outcome is kept for the process, keyed by all that the matching reads: the
stylesheet's rules (apps with the same rules share one map of them, see
:mod:`.shared_css`) and, for every node of the path, its type, id, classes and the state
of each pseudo-class that any of those rules asks about. What Textual leaves out of its
own cache (rules asking about a node's place among its siblings, its descendants, or
whether it is empty) is left to Textual here too. Rules found again for a node whose
class or focus changed replace its own without Textual's search for transitions to
animate (no rule here declares one): that search made a second ``Styles`` and worked
out every property twice, half of what restyling a node cost. ``Stylesheet.apply``'s
cache argument, ``replace_rules`` and ``_process_component_classes`` are Textual's:
this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.widget import Widget

KEPT = 4096
"""Outcomes kept: each widget's place in each screen, in a few looks (themes, focus)."""

_PLANS_KEPT = 1024
"""Which pseudo-classes matter, kept for each set of rules and each set of names a node
goes by."""


class _Plan:
    """For one set of rules and the names a node goes by (type, id, classes): which
    pseudo-classes the rules that could name it ask about, and what Textual records on
    the node about them."""

    __slots__ = ("rules_map", "pseudo_classes", "flags")

    def __init__(self, stylesheet: Stylesheet, rules_map: dict, names: frozenset[str]) -> None:
        self.rules_map = rules_map  # kept: its identity is part of the keys
        candidates = {rule for name in rules_map.keys() & names for rule in rules_map[name]}
        asked: set[str] = set()
        for rule in stylesheet.rules:
            if rule in candidates:
                asked.update(rule.pseudo_classes)
        self.pseudo_classes = tuple(sorted(asked))
        # As Stylesheet.apply sets them, from the same rules.
        self.flags = (
            "hover" in asked,
            "focus-within" in asked,
            not asked.isdisjoint({"first-of-type", "last-of-type", "first-child",
                                  "last-child", "empty"}),
            "odd" in asked or "even" in asked,
        )


class _Catch(dict):
    """Stands in for the cache Textual's ``apply`` may fill: catches the rules it finds
    (Textual puts them there only when they may be kept), passing any lookup to the
    caller's own cache."""

    __slots__ = ("outer", "caught")

    def __init__(self, outer: dict | None) -> None:
        super().__init__()
        self.outer = outer
        self.caught = None

    def get(self, key, default=None):
        return default if self.outer is None else self.outer.get(key, default)

    def __setitem__(self, key, value) -> None:
        self.caught = value
        if self.outer is not None:
            self.outer[key] = value


_PLANS: LRUCache[tuple, _Plan] = LRUCache(_PLANS_KEPT)
_APPLIED: LRUCache[tuple, tuple[dict, dict]] = LRUCache(KEPT)
_apply = Stylesheet.apply
_IS_DISABLED = Widget._PSEUDO_CLASSES["disabled"]
_IS_ENABLED = Widget._PSEUDO_CLASSES["enabled"]


def _path_key(path: list[DOMNode], pseudo_classes: tuple[str, ...]) -> tuple:
    """Each node of ``path`` as the rules see it: type, id, classes, and the state of
    each of ``pseudo_classes``."""
    parts = []
    for node in path:
        checks = node._PSEUDO_CLASSES
        state = []
        for name in pseudo_classes:
            check = checks.get(name)
            if check is None:
                state.append(False)
            elif check is _IS_DISABLED or check is _IS_ENABLED:
                # A widget is disabled when it or a widget above it is: every node above
                # is in the key with its own flag, which says as much without a walk up
                # from every node (that walk was most of the key's cost).
                state.append(node.disabled)  # type: ignore[attr-defined]
            else:
                state.append(check(node))
        parts.append((type(node), node._id, frozenset(node._classes), tuple(state)))
    return tuple(parts)


def _plan(stylesheet: Stylesheet, rules_map: dict, node: DOMNode) -> _Plan:
    names = frozenset(node._selector_names)
    key = (id(rules_map), names)
    plan = _PLANS.get(key)
    if plan is None or plan.rules_map is not rules_map:
        plan = _PLANS[key] = _Plan(stylesheet, rules_map, names)
    return plan


def _apply_kept(self: Stylesheet, node: DOMNode, *, animate: bool = False,
                cache: dict | None = None) -> None:
    rules_map = self.rules_map
    plan = _plan(self, rules_map, node)
    hover, focus_within, order, odd_even = plan.flags
    if order or odd_even or focus_within:
        _apply(self, node, animate=animate, cache=cache)
        return
    key = (id(rules_map), _path_key(node.css_path_nodes, plan.pseudo_classes))
    kept = _APPLIED.get(key)
    if kept is not None and kept[0] is rules_map:
        node._has_hover_style = hover
        node._has_focus_within = focus_within
        node._has_order_style = order
        node._has_odd_or_even = odd_even
        rules = kept[1]
        base = node.styles.base._rules
        if animate and "transitions" not in rules and "transitions" not in base:
            # Nothing to animate (no transition; nothing here animates a style): Textual's
            # animated replacement would set the same rules after making a second Styles
            # and every render rule twice, some 40 µs a node at every change of a class
            # or of the focus. It leaves the node alone when its rules are the same.
            if rules != base:
                self.replace_rules(node, rules, animate=False)
        else:
            self.replace_rules(node, rules, animate=animate)
        self._process_component_classes(node)
        return
    catch = _Catch(cache)
    _apply(self, node, animate=animate, cache=catch)
    if catch.caught is not None:
        _APPLIED[key] = (rules_map, catch.caught)


def share_applied_rules() -> None:
    """Make every app of this process take the rules that hold for a widget from the one
    cache (idempotent)."""
    Stylesheet.apply = _apply_kept  # type: ignore[method-assign]


def forget_applied_rules() -> None:
    """Drop what is kept (tests comparing styles found with and without it)."""
    _PLANS.clear()
    _APPLIED.clear()


__all__ = ["KEPT", "forget_applied_rules", "share_applied_rules"]
