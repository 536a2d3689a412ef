"""The top line: rule set, round and card number, how many watch, and the five cave
entrances.

On a narrow terminal the entrances shorten rather than vanish: the hazards that closed
them are written with two letters, and at last the "Cave:" label goes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine.cards import Rules
from ...engine.view import PlayerView, RoundResult
from ..describe import hazard_abbr
from .component_styles import KeptComponentStyles
from .drawn_runs import DrawnFromText
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines


@dataclass(frozen=True)
class BarState:
    """The part of a view the bar shows; equal states draw the same line.

    The view itself is not compared: a player's tick changes the view but not the bar,
    and an unchanged bar is not redrawn.
    """

    view: PlayerView = field(compare=False)
    rules: Rules
    round: int
    rounds: int
    step: int
    round_results: tuple[RoundResult, ...]
    watchers: int = 0
    """How many people watch the table (the players are told they are watched)."""

    @classmethod
    def of(cls, view: PlayerView, watchers: int = 0) -> "BarState":
        """The bar's state for ``view`` at a table ``watchers`` people watch."""
        return cls(view, view.rules, view.round, view.rounds, view.step, view.round_results,
                   watchers)


class RoundBar(SizedInOneLayout, SharedLines, DrawnFromText, KeptComponentStyles, Widget):
    """Where the game stands; finished rounds' entrances are barricaded (▓)."""

    ALLOW_SELECT = False  # its lines are drawn without the offsets selecting needs
    COMPONENT_CLASSES = {"round-bar--title", "round-bar--current", "round-bar--closed"}

    DEFAULT_CSS = """
    RoundBar {
        height: 1;
        background: $boost;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .round-bar--title { text-style: bold; }
        & > .round-bar--current { text-style: bold reverse; }
        & > .round-bar--closed { color: $text-muted; }
    }
    """

    state: reactive[BarState | None] = reactive(None)

    def shared_key(self):
        return (self.state,)

    def render(self) -> Text:
        t = self.app.t
        if self.state is None:
            return Text(t("table.waiting"))
        view = self.state.view
        title = self.component_style("round-bar--title")
        left = Text()
        left.append(t(f"rules.{view.rules.value}"), style=title)
        left.append(" · " + t("table.round", round=view.round, rounds=view.rounds))
        left.append(" · " + t("table.card", step=view.step))
        width = self.size.width
        # The spectators' count goes first when the line is short: the entrances tell
        # the game, and the waiting room named the spectators.
        firsts = [left]
        if self.state.watchers:
            watched = left.copy()
            watched.append(" · " + t("table.watchers", count=self.state.watchers))
            firsts.insert(0, watched)
        for first in firsts:
            for short, label in ((False, True), (True, True), (True, False)):
                right = self._entrances(view, short, label)
                room = width - first.cell_len - right.cell_len
                if room >= 1:
                    return Text.assemble(first, " " * room, right)
        if self.size.height > 1:
            return Text("\n").join([left, self._entrances(view, False, True)])
        return left

    def _entrances(self, view: PlayerView, short: bool, label: bool) -> Text:
        """The five entrances; ``short``: closing hazards in two letters."""
        t = self.app.t
        right = Text(t("table.entrances") + " " if label else "")
        closed = self.component_style("round-bar--closed")
        current = self.component_style("round-bar--current")
        results = {r.round: r for r in view.round_results}
        for n in range(1, view.rounds + 1):
            if n > 1:
                right.append(" ")
            result = results.get(n)
            if result is not None:
                if result.disaster is None:
                    how = "✔"
                elif short:
                    how = "✖" + hazard_abbr(t, result.disaster)
                else:
                    how = "✖" + t(f"hazard_short.{result.disaster.value}")
                right.append(f"▓{n}{how}", style=closed)
            elif n == view.round:
                right.append(f"[{n}]", style=current)
            else:
                right.append(f"·{n}")
        return right
