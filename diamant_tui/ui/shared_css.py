"""One parse of the stylesheet for every app in the process.

Each Textual app parses its CSS (the stylesheet file and every widget's ``DEFAULT_CSS``)
into rule sets, and keeps them in a small cache of its own. A server runs one app per
SSH session, all with the same CSS: parsing it again for every join was about a sixth of
a join's CPU. Here the cache behind every app's stylesheet is one, keyed also by the CSS
variables the rules were parsed with (they differ between themes: colours, monochrome).

Textual treats parsed rule sets as immutable (its own cache hands the same ones out on
every reparse), so apps can share them. The map from selector names to rule sets that
each stylesheet builds from its rules (``Stylesheet.rules_map``, some 20 KiB an app) is
shared too, between stylesheets holding the very same rule sets. ``Stylesheet._parse_cache``
and ``_rules_map`` are private: this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from collections import OrderedDict

from textual.css.stylesheet import Stylesheet

_KEPT = 512
"""Parsed CSS sources kept: a few themes times the sources of every widget in use."""
_RULES: OrderedDict[tuple, list] = OrderedDict()
_VARIABLE_SETS: dict[tuple, int] = {}
"""Each set of CSS variables seen, numbered: a short key instead of hashing ~200 pairs."""


class _SharedParseCache:
    """Stands in for one stylesheet's own parse cache; the rules live in :data:`_RULES`."""

    def __init__(self, stylesheet: Stylesheet) -> None:
        self._stylesheet = stylesheet
        self._variables_key: int | None = None

    def _key(self, key: tuple) -> tuple:
        if self._variables_key is None:
            variables = tuple(sorted(self._stylesheet._variables.items()))
            self._variables_key = _VARIABLE_SETS.setdefault(variables, len(_VARIABLE_SETS))
        return key, self._variables_key

    def __getitem__(self, key: tuple) -> list:
        full = self._key(key)
        rules = _RULES[full]  # KeyError when not parsed yet, as the stylesheet expects
        _RULES.move_to_end(full)
        return rules

    def __setitem__(self, key: tuple, rules: list) -> None:
        _RULES[self._key(key)] = rules
        while len(_RULES) > _KEPT:
            _RULES.popitem(last=False)

    def clear(self) -> None:
        # Called when the stylesheet's variables change: the key changes with them,
        # and what other apps parsed stays good for them.
        self._variables_key = None


_MAPS_KEPT = 16
"""Rules maps kept: one for each set of rules in use (a few themes)."""
_MAPS: OrderedDict[tuple[int, ...], tuple[list, dict]] = OrderedDict()
"""Each rules map, keyed by the identities of the rule sets it maps (kept with it, so that
those identities stay theirs)."""


def _shared_rules_map(build):
    """``Stylesheet.rules_map``, built by ``build`` once for every stylesheet with the
    same rule sets. Textual only reads the map, and drops a stylesheet's own when its
    rules change."""

    def rules_map(self: Stylesheet) -> dict:
        if self._rules_map is None:
            rules = self.rules
            key = tuple(map(id, rules))
            kept = _MAPS.get(key)
            if kept is None:
                kept = _MAPS[key] = (list(rules), build(self))
                while len(_MAPS) > _MAPS_KEPT:
                    _MAPS.popitem(last=False)
            else:
                _MAPS.move_to_end(key)
            self._rules_map = kept[1]
        return self._rules_map

    return rules_map


def share_parsed_css() -> None:
    """Make every stylesheet in the process use (and fill) the one cache of parsed CSS.

    Done for the class, not for each app's stylesheet: Textual also parses into fresh
    stylesheets of its own (``Stylesheet.reparse`` when a theme is set). Idempotent.
    """
    if getattr(Stylesheet.__init__, "_shares_parsed_css", False):
        return
    original = Stylesheet.__init__

    def __init__(self: Stylesheet, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        self._parse_cache = _SharedParseCache(self)  # type: ignore[assignment]

    __init__._shares_parsed_css = True  # type: ignore[attr-defined]
    Stylesheet.__init__ = __init__  # type: ignore[method-assign]
    Stylesheet.rules_map = property(  # type: ignore[method-assign]
        _shared_rules_map(Stylesheet.rules_map.fget), doc=Stylesheet.rules_map.__doc__)


__all__ = ["share_parsed_css"]
