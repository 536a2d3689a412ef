"""The replay's top line: what is being watched (table, date) and the step on show."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..cells import cell_len, shorten
from ..literal import printable
from .component_styles import KeptComponentStyles

SHORTEST_NAME = 8
"""Cells a shortened table name needs to be worth showing (" · " and a few letters and "…")."""


@dataclass(frozen=True)
class HeaderState:
    """What the header says: the step on show and, when the record tells, table and date."""

    step: int
    steps: int
    table: str | None = None
    when: str | None = None
    """The date and time the game was played, already written out."""


class ReplayHeader(KeptComponentStyles, Widget):
    """``Replay · table · date`` on the left, ``step s of n`` on the right.

    On a narrow terminal the date goes first, then the table's name (shortened with "…"
    before it goes): the step is always shown.
    """

    DEFAULT_CSS = """
    ReplayHeader {
        height: 1;
        padding: 0 1;
        background: $primary-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    ReplayHeader > .replay-header--title { text-style: bold; }
    ReplayHeader > .replay-header--step { text-style: bold; }
    """
    COMPONENT_CLASSES = {"replay-header--title", "replay-header--step"}

    state: reactive[HeaderState | None] = reactive(None)

    def render(self) -> Text:
        state = self.state
        if state is None:
            return Text("")
        t = self.app.t
        right = Text(t("replay.step", step=state.step, steps=state.steps),
                     style=self.component_style("replay-header--step"))
        title = t("replay.title")
        width = self.content_region.width or self.size.width
        # The table's name came from a file: shown as written, control characters aside.
        table = printable(state.table) if state.table else None
        room = width - right.cell_len - 1
        left = title
        for parts in ((table, state.when), (table, None)):
            text = " · ".join([title, *(p for p in parts if p)])
            if cell_len(text) <= room:
                left = text
                break
        else:
            if table and room >= cell_len(title) + SHORTEST_NAME:
                left = shorten(f"{title} · {table}", room)
        line = Text(left)
        line.stylize(self.component_style("replay-header--title"), 0, len(title))
        gap = max(1, width - line.cell_len - right.cell_len)
        return Text.assemble(line, " " * gap, right)
