"""A widget's background colours, kept between frames, follow its ancestors' CSS."""

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.widget import Widget

from diamant_tui.ui.widgets.shared_lines import SharedLines


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
