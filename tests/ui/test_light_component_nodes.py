"""Component classes are styled on light stand-in nodes, with the very styles Textual's
own nodes would get."""

from __future__ import annotations

import tracemalloc

from textual.dom import DOMNode

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.light_component_nodes import ComponentNode
from ui_helpers import FixedTable, mid_round, settled

PUMP_STATE = ("_timers", "_bindings", "_query_one_cache", "_nodes", "message_signal",
              "_disabled_messages")
"""What every message pump holds and a component class's styling never reads."""


def styled_widgets(app) -> list:
    """The widgets of the app's screens that have component classes."""
    nodes = []
    for screen in app.screen_stack:
        nodes.extend(screen.walk_children(with_self=True))
    return [node for node in nodes if node._component_styles]


async def test_component_styles_stand_on_light_nodes_with_textuals_own_styles():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        widgets = styled_widgets(app)
        assert len(widgets) >= 10  # the table screen's parts: the path, players, deck…
        for widget in widgets:
            for name, styles in widget._component_styles.items():
                light = styles.node
                assert isinstance(light, ComponentNode), (widget, name)
                assert not any(hasattr(light, attr) for attr in PUMP_STATE), (widget, name)
                # A plain node, styled as stock Textual styles one, in the same place.
                plain = DOMNode(classes=name)
                plain._attach(widget)
                app.stylesheet.apply(plain, animate=False)
                assert light.styles._base_styles._rules == plain.styles._base_styles._rules, \
                    (widget, name)
                assert light.rich_style == plain.rich_style, (widget, name)


def test_a_light_node_styled_weighs_a_fraction_of_a_plain_one():
    def weight(make) -> float:
        nodes = [make() for _ in range(10)]  # warm up
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot()
            nodes = [make() for _ in range(500)]
            after = tracemalloc.take_snapshot()
        finally:
            tracemalloc.stop()
        assert len(nodes) == 500
        return sum(s.size_diff for s in after.compare_to(before, "filename")) / 500

    light = weight(lambda: ComponentNode(classes="path--disaster"))
    plain = weight(lambda: DOMNode(classes="path--disaster"))
    assert light < plain / 3, (light, plain)
