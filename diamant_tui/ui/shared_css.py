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

The CSS variables themselves (some 200 colours and settings) are worked out from the
app's theme, by Textual's colour system, each time an app makes its stylesheet and again
when its theme is set: two or three times a join, about 0.35 ms each, a thirtieth of a
join's CPU on a server. They depend only on the theme and the app's class, so each set
is worked out once for the process too.
"""

from __future__ import annotations

from collections import OrderedDict

from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.theme import Theme

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


_THEMES_KEPT = 64
"""Sets of theme variables kept: a few themes for each kind of app."""
_THEME_VARIABLES: dict[tuple[int, type], tuple[Theme, dict[str, str]]] = {}
"""Each theme's variables for each class of app, by the theme's identity (kept with it,
so that the identity stays its own)."""


def _shared_css_variables(work_out):
    """``App.get_css_variables``, worked out by ``work_out`` once for each theme and class
    of app in the process. Each app gets a copy of its own, kept as its theme variables
    and returned, as Textual does with the one it works out: Textual keeps the dict it
    is given, and nothing says it never changes it."""

    def get_css_variables(self: App) -> dict[str, str]:
        theme = self.current_theme
        key = (id(theme), type(self))
        kept = _THEME_VARIABLES.get(key)
        if kept is None or kept[0] is not theme:
            if len(_THEME_VARIABLES) >= _THEMES_KEPT:
                _THEME_VARIABLES.clear()
            kept = _THEME_VARIABLES[key] = (theme, dict(work_out(self)))
        variables = self.theme_variables = dict(kept[1])
        return variables

    get_css_variables.__doc__ = work_out.__doc__
    return get_css_variables


def share_parsed_css() -> None:
    """Make every stylesheet in the process use (and fill) the one cache of parsed CSS.

    Done for the class, not for each app's stylesheet: Textual also parses into fresh
    stylesheets of its own (``Stylesheet.reparse`` when a theme is set). The variables
    every app's CSS is parsed with are worked out once per theme too. Idempotent.
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
    App.get_css_variables = _shared_css_variables(  # type: ignore[method-assign]
        App.get_css_variables)


__all__ = ["share_parsed_css"]
