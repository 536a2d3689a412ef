"""Under the path: the round's earlier events, so the reveal sequence stays readable."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..literal import printable


class EventFeed(Widget):
    """The round's lines before those in the banner; the newest that fit, oldest first.

    It takes whatever room the path leaves: as the path grows it shows fewer lines,
    and none once the path needs the whole area.
    """

    COMPONENT_CLASSES = {"feed--line"}

    lines: reactive[tuple[str, ...]] = reactive(())

    def render(self) -> Text:
        room = self.size.height
        if room <= 0 or not self.lines:
            return Text("")
        style = self.get_component_rich_style("feed--line")
        return Text("\n").join(Text(printable(line), style=style) for line in self.lines[-room:])
