"""After a round: how it ended and what each player banked."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, Static

from ...view import PlayerView, RoundResult
from ..describe import RUBY, hazard_name
from ..literal import fit
from ..widgets.quiet_footer import QuietFooter
from .base import DiamantModal


def summary_text(t, view: PlayerView, result: RoundResult) -> Text:
    """The summary's body: one line per player, best banked first."""
    lines = [Text(
        fit(t("players.name"), 15) + " " + t("summary.banked").rjust(10)
        + t("summary.score").rjust(10),
        style="bold",
    )]
    order = sorted(view.players, key=lambda p: (-(result.banked[p.seat] or 0), p.seat))
    for p in order:
        total = "?" if p.chest is None else str(p.chest + p.relic_points)
        banked = result.banked[p.seat]
        gain = "?" if banked is None else f"+{banked}{RUBY}"
        mark = "▶ " if p.seat == view.seat else "  "
        lines.append(Text(fit(mark + p.name, 15) + " " + gain.rjust(10) + total.rjust(10)))
    return Text("\n").join(lines)


class RoundSummaryScreen(DiamantModal):
    """Shown over the table when a round (not the last) ends; any of Enter/Escape closes it."""

    BINDINGS = [Binding("enter,escape,space", "close", "key.continue_game")]

    def __init__(self, view: PlayerView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        t = self.app.t
        result = self.view.round_results[-1]
        with Vertical(id="summary-box", classes="dialog"):
            yield Label(t("summary.title", round=result.round, rounds=self.view.rounds),
                        classes="dialog-title")
            if result.disaster is not None:
                how = "✖ " + t("summary.disaster", hazard=hazard_name(t, result.disaster))
            else:
                how = "✔ " + t("summary.safe")
            yield Label(how, id="summary-how",
                        classes="-disaster" if result.disaster is not None else "")
            yield Label(t("summary.cards", cards=result.cards))
            yield Static(summary_text(t, self.view, result), id="summary-table")
            yield Label(t("summary.next"), classes="dialog-hint")
        yield QuietFooter()

    def action_close(self) -> None:
        self.close()
