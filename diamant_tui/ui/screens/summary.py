"""After a round: how it ended and what each player banked."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, Static

from ...view import PlayerView, RoundResult
from ..cells import cell, widest
from ..describe import RUBY, hazard_name
from ..widgets.quiet_footer import QuietFooter
from .base import DiamantModal


def summary_text(t, view: PlayerView, result: RoundResult) -> Text:
    """The summary's body: one line per player, best banked first, with the rubies and
    the relic points of the round apart (a relic's points are not rubies)."""
    relics = result.relics or tuple(0 for _ in view.players)
    order = sorted(view.players, key=lambda p: (-(result.banked[p.seat] or 0), p.seat))
    rows = []
    for p in order:
        banked = result.banked[p.seat]
        rubies = "?" if banked is None else f"+{banked - relics[p.seat]}{RUBY}"
        points = f"+{relics[p.seat]}" if relics[p.seat] else "—"
        total = "?" if p.chest is None else str(p.chest + p.relic_points)
        mark = "▶ " if p.seat == view.seat else "  "
        rows.append((mark + p.name, rubies, points, total))
    heads = (t("players.name"), t("summary.banked"), t("summary.relics"), t("summary.score"))
    widths = [widest([row[i] for row in rows] + [heads[i]]) for i in range(4)]
    gap = "   "

    def line(row) -> str:
        return cell(row[0], widths[0]) + "".join(
            gap + cell(text, width, right=True) for text, width in zip(row[1:], widths[1:])
        )

    return Text("\n").join([Text(line(heads), style="bold")] + [Text(line(row)) for row in rows])


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
