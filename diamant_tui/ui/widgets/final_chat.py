"""The chat at the final scores: the newest lines, under the rematch buttons.

While the people at a table vote for a rematch they talk about it, several at once: a
single line showed only the last thing said, the others went to the log. These rows
show the newest lines that fit, newest last, each whole (wrapped) or, for the newest
alone, cut cleanly; a chat line refused for its allowance is told on the last rows for
a few seconds (a toast stood over the rematch lines). They take the rows the scores
leave free: three at 80x24 with eight players, more on a taller screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..literal import printable
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines


def _cut(rows: list[Text], room: int, width: int) -> list[Text]:
    """The first ``room`` of ``rows`` (of one wrapped line), the last ending in an
    ellipsis when any row is left out."""
    if len(rows) <= room:
        return rows
    kept = rows[:room]
    last = kept[-1].copy()
    last.rstrip()
    last.truncate(max(0, width - 1))
    last.append("…")
    kept[-1] = last
    return kept


def fitted_rows(lines: Sequence[str], refusal: str | None, width: int, height: int,
                console: Console, chat_style: Style | str = "",
                refusal_style: Style | str = "") -> list[Text]:
    """The rows to show in ``height`` rows of ``width`` cells, top first: the newest of
    ``lines`` that fit whole (wrapped), oldest first, then ``refusal``. The refusal and,
    when no line fits whole, the newest line are cut cleanly rather than left out. Every
    line is literal text (never markup)."""
    if width <= 0 or height <= 0:
        return []
    room = height
    told: list[Text] = []
    if refusal:
        told = _cut(list(Text(printable(refusal), style=refusal_style).wrap(console, width)),
                    room, width)
        room -= len(told)
    shown: list[Text] = []
    for line in reversed(lines):
        if room <= 0:
            break
        wrapped = list(Text(printable(line), style=chat_style).wrap(console, width))
        if len(wrapped) > room:
            if not shown:  # the newest line, cut, rather than nothing said
                shown = _cut(wrapped, room, width)
            break
        shown[:0] = wrapped
        room -= len(wrapped)
    return shown + told


class FinalChat(SizedInOneLayout, SharedLines, Widget):
    """The newest chat lines at the final scores and, for a moment, why a line of this
    person's was refused (:meth:`show`). Its height is the room the scores leave (see
    :class:`~diamant_tui.ui.widgets.final_scores.FinalScores`): new words redraw its
    rows and lay nothing out."""

    COMPONENT_CLASSES = {"final-chat--line", "final-chat--refusal"}

    DEFAULT_CSS = """
    FinalChat {
        width: 100%;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .final-chat--line { color: $text-muted; }
        & > .final-chat--refusal { color: $warning; }
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: tuple[str, ...] = ()
        """The newest chat lines (``» ann: hello``), oldest first."""
        self.refusal: str | None = None
        """Why this person's line was refused, while it is told."""

    def shared_key(self):
        return (self.lines, self.refusal)

    def show(self, lines: tuple[str, ...], refusal: str | None) -> None:
        """Show ``lines`` (those that fit) and ``refusal`` under them."""
        if (lines, refusal) == (self.lines, self.refusal):
            return
        self.lines, self.refusal = lines, refusal
        self.refresh()  # the same rows: nothing to lay out

    def render(self) -> Text:
        width, height = self.content_size
        style = self.get_component_rich_style
        rows = fitted_rows(self.lines, self.refusal, width, height, self.app.console,
                           style("final-chat--line"), style("final-chat--refusal"))
        return Text("\n").join(rows)
