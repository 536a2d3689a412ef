"""One rule for the CSS: each widget of the game carries its own look in its DEFAULT_CSS;
``diamant.tcss`` holds the layout of the screens only, the server's screens included.

And the CSS each app would parse (the stylesheet and every widget's DEFAULT_CSS) is
parsed once per process: a second app, like a second SSH session joining, parses none.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator

import textual.css.stylesheet as stylesheet_module
from textual.css.model import Selector, SelectorType
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen
from textual.widget import Widget

import diamant_server.app  # noqa: F401  (imports every screen of the server)
import diamant_tui.ui.screens
import diamant_tui.ui.widgets
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widget_css import own_css_source
from ui_helpers import FixedTable, final_shown, mid_round, settled, table_shown, until, whole_game

PROJECT = ("diamant_tui.", "diamant_server.")


def _import_all(package) -> None:
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{module.name}")


def _subclasses(base: type) -> Iterator[type]:
    for cls in base.__subclasses__():
        yield cls
        yield from _subclasses(cls)


def screen_classes() -> set[type]:
    """Every screen of the game and of the server."""
    _import_all(diamant_tui.ui.screens)
    return {cls for cls in _subclasses(Screen) if cls.__module__.startswith(PROJECT)}


def widget_classes() -> set[type]:
    """Every widget of the game (the classes of ``diamant_tui/ui/widgets``)."""
    _import_all(diamant_tui.ui.widgets)
    return {cls for cls in _subclasses(Widget)
            if cls.__module__.startswith("diamant_tui.ui.widgets.")
            and not issubclass(cls, Screen)}


def _variables() -> dict[str, str]:
    return DiamantApp(lang="en").get_css_variables()


def stylesheet_selectors() -> list[list[Selector]]:
    """Each selector of ``diamant.tcss``, as the list of its simple selectors."""
    sheet = Stylesheet(variables=_variables())
    sheet.read(DiamantApp.CSS_PATH)
    sheet.parse()
    return [selector_set.selectors for rule in sheet.rules for selector_set in rule.selector_set]


def widget_selectors(cls: type) -> list[list[Selector]]:
    """Each selector of a widget's own DEFAULT_CSS (scoped to the widget, as Textual does)."""
    css = cls.__dict__.get("DEFAULT_CSS", "")
    if not css:
        return []
    sheet = Stylesheet(variables=_variables())
    sheet.add_source(css, read_from=(cls.__module__, cls.__name__), is_default_css=True,
                     scope=cls._css_type_name)
    sheet.parse()
    return [selector_set.selectors for rule in sheet.rules for selector_set in rule.selector_set]


def _text(selectors: list[Selector]) -> str:
    return " ".join(selector.css for selector in selectors)


def test_every_rule_of_the_stylesheet_begins_with_a_screen():
    """The stylesheet is about screens: each of its selectors starts from one."""
    screens = {cls._css_type_name for cls in screen_classes()} | {"Screen", "ModalScreen"}
    outside = [_text(selectors) for selectors in stylesheet_selectors()
               if not (selectors[0].type == SelectorType.TYPE and selectors[0].name in screens)]
    assert outside == []


def test_the_stylesheet_styles_no_widget_of_the_game():
    """A widget's look is in its DEFAULT_CSS: the stylesheet names no widget of the game,
    nor any id or class that a widget styles in its own parts (its buttons, its box...).
    It reaches a widget only by the id its screen gave it, to place it or hide it."""
    widgets = widget_classes()
    names = {cls._css_type_name for cls in widgets}
    parts = {
        (selector.type, selector.name)
        for cls in widgets
        for selectors in widget_selectors(cls)
        for selector in selectors
        if selector.type in (SelectorType.ID, SelectorType.CLASS)
    }
    wrong = [
        _text(selectors) for selectors in stylesheet_selectors()
        if any((s.type == SelectorType.TYPE and s.name in names) or (s.type, s.name) in parts
               for s in selectors)
    ]
    assert wrong == []
    assert (SelectorType.ID, "final-note") in parts  # the widgets' parts were found


def test_screens_keep_their_layout_in_the_stylesheet():
    """No screen, of the game or of the server, carries CSS of its own."""
    screens = screen_classes()
    assert {"LobbyScreen", "TableScreen", "CreateTableScreen"} <= {cls.__name__ for cls in screens}
    inline = sorted(cls.__name__ for cls in screens
                    if cls.__dict__.get("DEFAULT_CSS") or cls.__dict__.get("CSS"))
    assert inline == []


def test_the_server_app_loads_the_stylesheet():
    """The server's screens have their layout there: the server's app must read it."""
    assert diamant_server.app.ServerApp.CSS_PATH == DiamantApp.CSS_PATH


def test_every_widgets_css_is_in_the_stylesheet_from_the_start():
    """A widget's CSS added as the first of its kind mounts makes the app parse its
    stylesheet again and index its rules anew: every widget of the game that carries CSS
    has it in the app's stylesheet before anything is shown."""
    sources = DiamantApp(lang="en").stylesheet.source
    missing = sorted(cls.__name__ for cls in widget_classes()
                     if cls.__dict__.get("DEFAULT_CSS") and own_css_source(cls)[0] not in sources)
    assert missing == []


async def test_a_second_app_parses_no_css(monkeypatch):
    """Every app of a process shares the parsed CSS, the widgets' DEFAULT_CSS included:
    the second app to show a table (as a second SSH session would) parses nothing."""
    parsed: list[str] = []
    real_parse = stylesheet_module.parse

    def counting_parse(scope, css, read_from, *args, **kwargs):
        parsed.append(str(read_from))
        return real_parse(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(stylesheet_module, "parse", counting_parse)

    async def show_a_table() -> None:
        table = FixedTable()
        app = DiamantApp(lang="en", member=table.member(0))
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: table_shown(app))
            mid_round(table)
            await settled(pilot)

    await show_a_table()
    parsed.clear()
    await show_a_table()
    assert parsed == []


async def test_no_widget_mounted_later_makes_the_app_parse_its_stylesheet_again(monkeypatch):
    """Every widget's CSS is in the app's stylesheet before its first parse: the chat box
    that a table's screen mounts as a person joins, and the labels and buttons of the
    final scores at the game's end, add none of theirs later. Each such addition parsed
    the whole stylesheet again and styled every widget of the app anew, for every seat."""
    parses: list[Stylesheet] = []
    real_parse = Stylesheet.parse

    def counting_parse(self):
        parses.append(self)
        return real_parse(self)

    monkeypatch.setattr(Stylesheet, "parse", counting_parse)
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_shown(app))
        await settled(pilot)
        assert parses.count(app.stylesheet) == 1  # its first, with every widget's CSS
        whole_game(table)
        await until(pilot, lambda: final_shown(app))
        await settled(pilot)
        assert parses.count(app.stylesheet) == 1


async def test_apps_with_the_same_rules_share_one_map_of_them():
    """Two sessions at a table: their stylesheets hold the same rule sets, and one map from
    selector names to those rules serves both, the very map Textual builds for one."""
    table = mid_round(FixedTable())
    first, second = (DiamantApp(lang="en", member=table.member(seat)) for seat in (0, 1))
    async with first.run_test(size=(80, 24)) as one, second.run_test(size=(80, 24)) as two:
        await settled(one)
        await settled(two)
        maps = [app.stylesheet.rules_map for app in (first, second)]
        assert maps[0] is maps[1]
        assert _stock_rules_map(first.stylesheet) == maps[0]


def _stock_rules_map(stylesheet: Stylesheet) -> dict:
    """The map Textual itself builds (``Stylesheet.rules_map`` as Textual defines it)."""
    from collections import defaultdict

    rules_map: dict[str, list] = defaultdict(list)
    for rule in stylesheet.rules:
        for name in rule.selector_names:
            rules_map[name].append(rule)
    return dict(rules_map)


async def test_a_second_app_works_out_no_theme_variables(monkeypatch):
    """The CSS variables come from the theme alone: the second app with a theme (as a
    second SSH session) works out none, and gets what Textual works out for it, in a
    dict of its own. Another theme gets its own."""
    from textual.app import App
    from textual.design import ColorSystem

    worked_out: list[ColorSystem] = []
    real_generate = ColorSystem.generate

    def counting_generate(self, *args, **kwargs):
        worked_out.append(self)
        return real_generate(self, *args, **kwargs)

    monkeypatch.setattr(ColorSystem, "generate", counting_generate)
    first = DiamantApp(lang="en")
    first.get_css_variables()
    worked_out.clear()
    second = DiamantApp(lang="en")
    variables = second.get_css_variables()
    assert worked_out == []
    assert second.theme_variables == variables
    assert variables is not first.get_css_variables()
    theme = second.current_theme
    expected = {**second.get_theme_variable_defaults(),
                **theme.to_color_system().generate(), **theme.variables}
    assert variables == expected
    other = next(name for name in second.available_themes if name != second.theme)
    second.theme = other
    assert second.get_css_variables()["primary"] == \
        second.current_theme.to_color_system().generate()["primary"]
    assert App.get_css_variables.__doc__
