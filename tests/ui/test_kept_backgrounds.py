"""A widget's background colours, kept between frames, follow its ancestors' CSS."""

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.widget import Widget

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.shared_lines import SharedLines

from ui_helpers import FixedTable, FrameCounter, T, mid_round, settled


class Drawn(SharedLines, Widget):
    def shared_key(self):
        return "same"

    def render(self) -> str:
        return "x"


class Boxed(App):
    CSS = """
    #box { background: blue; }
    Screen.-red #box { background: red; }
    Screen.-red:light #box { background: green; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Drawn()


def worked_out(widget):
    """The background colours as Textual works them out, through the ancestors."""
    return DOMNode.background_colors.fget(widget)


async def test_the_kept_background_changes_with_an_ancestors_class_and_the_theme():
    app = Boxed()
    async with app.run_test(size=(20, 5)) as pilot:
        drawn = app.query_one(Drawn)
        await pilot.pause()
        before = drawn.background_colors
        assert before == worked_out(drawn)
        app.screen.add_class("-red")
        await pilot.pause()
        assert drawn.background_colors == worked_out(drawn) != before
        red = drawn.background_colors
        app.theme = "textual-light"
        await pilot.pause()
        assert drawn.background_colors == worked_out(drawn) != red


async def test_a_table_screens_frames_walk_no_ancestors_for_its_containers(monkeypatch):
    """Under every change of a game lie the table screen's columns, rows and scrolling
    area, and the screen itself: drawn in every frame for every seat, they keep their
    background colours instead of walking their ancestors for them each time."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        walked: list[str] = []
        fget = DOMNode.background_colors.fget

        def counted(node):
            walked.append(f"{type(node).__name__}#{node.id}")
            return fget(node)

        monkeypatch.setattr(DOMNode, "background_colors", property(counted))
        frames = FrameCounter(app)
        table.decide(Ana="continue")
        await settled(pilot)
        for card in (T(3), T(4)):
            table.reveal(card)
            await settled(pilot)
            table.decide(Ana="continue", Dmytro="continue")
            await settled(pilot)
        assert frames.frames >= 2
        for container in ("TableScreen#None", "Row#table-columns", "Column#table-main",
                          "PathScroll#path-scroll", "Row#table-middle",
                          "DecisionPanel#decision"):
            assert container not in walked, walked
