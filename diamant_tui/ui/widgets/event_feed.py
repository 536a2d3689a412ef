"""Under the path: the round's earlier events, so the reveal sequence stays readable."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..cells import wrap
from .component_styles import KeptComponentStyles
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines


class EventFeed(SizedInOneLayout, SharedLines, KeptComponentStyles, Widget):
    """The round's lines before those in the banner; the newest that fit, oldest first.

    It takes whatever room the path leaves: as the path grows it shows fewer lines,
    and none once the path needs the whole area. A line too long for the width goes on
    over the next row; a line that does not fit whole is left out, never cut.
    """

    COMPONENT_CLASSES = {"feed--line"}

    DEFAULT_CSS = """
    EventFeed {
        height: 1fr;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .feed--line { color: $text-muted; }
    }
    """

    lines: reactive[tuple[str, ...]] = reactive(())

    def shared_key(self):
        return self.lines

    def render(self) -> Text:
        room = self.size.height
        if room <= 0 or not self.lines:
            return Text("")
        style = self.component_style("feed--line")
        width = self.size.width
        rows: list[str] = []
        for line in reversed(self.lines):
            wrapped = wrap(line, width)
            if len(rows) + len(wrapped) > room:
                break
            rows[:0] = wrapped
        return Text("\n").join(Text(row, style=style) for row in rows)
