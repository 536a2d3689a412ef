"""The rules that hold for a widget in its place are found once for the process: what is
kept gives every widget the very rules Textual finds for it, whatever its focus, classes,
disabled ancestors or the app's colours; and a second app styling the same screen finds
none of them again."""

from __future__ import annotations

from textual.dom import DOMNode

from diamant_tui.ui import DiamantApp
from diamant_tui.ui import shared_rules
from diamant_tui.ui.widgets.decision import ChoiceButton, DecisionPanel
from diamant_tui.ui.widgets.event_banner import EventBanner
from diamant_tui.ui.widgets.final_scores import FinalScores
from ui_helpers import FixedTable, after_disaster, final_shown, mid_round, settled, until, whole_game


def _nodes(app) -> list[DOMNode]:
    """Every node of the screen on top, and the nodes that style its component classes."""
    nodes = []
    for node in app.screen.walk_children(with_self=True):
        nodes.append(node)
        for component in sorted(node._get_component_classes()):
            virtual = DOMNode(classes=component)
            virtual._attach(node)
            nodes.append(virtual)
    return nodes


def _rules_both_ways(app) -> list[tuple[str, dict, dict]]:
    """For every node: the rules the kept way gives it (asked twice, so that the second
    answer comes from what was kept) and the rules Textual's own way gives it."""
    stylesheet = app.stylesheet
    found = []
    for node in _nodes(app):
        stylesheet.apply(node)
        stylesheet.apply(node)
        kept = dict(node.styles.base._rules)
        shared_rules._apply(stylesheet, node)
        textuals = dict(node.styles.base._rules)
        found.append((f"{type(node).__name__}#{node.id} {sorted(node.classes)}", kept, textuals))
    return found


def _assert_same(app) -> None:
    for name, kept, textuals in _rules_both_ways(app):
        assert kept == textuals, name


async def test_kept_rules_are_textuals_rules_in_every_state_of_the_table_screen():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        _assert_same(app)
        # The other choice focused: the buttons' looks swap.
        buttons = list(app.screen.query(ChoiceButton))
        buttons[-1].focus()
        await settled(pilot)
        _assert_same(app)
        focused = app.screen.focused
        assert focused is buttons[-1]
        app.screen.query_one(DecisionPanel).disabled = True
        await settled(pilot)
        _assert_same(app)


async def test_kept_rules_follow_a_disabled_container_down_to_its_buttons():
    table = whole_game(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: final_shown(app))
        await settled(pilot)
        _assert_same(app)
        # Disabled, the scores' box disables its buttons, whose rules ask for :disabled.
        final = app.screen.query_one(FinalScores)
        final.query_one("#final-box").disabled = True
        await settled(pilot)
        button = final.query_one("#quit")
        assert button.is_disabled and not button.disabled
        _assert_same(app)
        final.query_one("#final-box").disabled = False
        await settled(pilot)
        _assert_same(app)


async def test_kept_rules_follow_a_class_and_the_apps_colours():
    table = after_disaster(FixedTable())
    app = DiamantApp(lang="fr", member=table.member(1))
    app.no_color = True  # the rules asking for :nocolor hold
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        banner = app.screen.query_one(EventBanner)
        banner.set_class(True, "-disaster")
        await settled(pilot)
        _assert_same(app)
        banner.set_class(False, "-disaster")
        await settled(pilot)
        _assert_same(app)


async def test_a_second_app_styling_the_same_screen_asks_textual_for_no_rule(monkeypatch):
    shared_rules.forget_applied_rules()
    table = mid_round(FixedTable())
    first = DiamantApp(lang="en", member=table.member(0))
    async with first.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
    asked: list[str] = []
    textuals = shared_rules._apply

    def counted(stylesheet, node, **kwargs):
        asked.append(type(node).__name__)
        return textuals(stylesheet, node, **kwargs)

    monkeypatch.setattr(shared_rules, "_apply", counted)
    second = DiamantApp(lang="en", member=table.member(0))
    async with second.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        styled = len(list(second.screen.walk_children(with_self=True)))
    # Only what Textual keeps for no one (rules about siblings or descendants) is asked.
    assert styled > 15
    assert len(asked) < styled / 3, asked


async def test_a_class_toggled_is_restyled_without_a_second_styles(monkeypatch):
    """A disaster marks the banner with a class, and the next round takes it off: the
    banner gets the rules Textual gives it (its background), but once the process has
    found them (the first time, Textual's own way), no second ``Styles`` is made to look
    for transitions to animate (there are none), nor anything when the rules stay the
    same."""
    from textual.css.styles import Styles

    table = after_disaster(FixedTable())
    app = DiamantApp(lang="en", member=table.member(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        banner = app.screen.query_one(EventBanner)
        for disaster in (True, False):  # the rules of both found once for the process
            banner.set_class(disaster, "-disaster")
            await settled(pilot)
        plain = banner.styles.background
        made: list[object] = []
        init = Styles.__init__

        def counted(self, *args, **kwargs):
            made.append(self)
            init(self, *args, **kwargs)

        monkeypatch.setattr(Styles, "__init__", counted)
        for disaster in (True, False):
            made.clear()
            banner.set_class(disaster, "-disaster")
            await settled(pilot)
            assert made == [], len(made)
            assert (banner.styles.background == plain) is not disaster
            _assert_same(app)
        made.clear()
        app.update_styles(banner)  # the same rules again
        assert made == [], len(made)
