"""Final scores: ranking (ties share a place), each round's takings and a small chart."""

from __future__ import annotations

from itertools import accumulate

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...view import PlayerView
from ..literal import fit

SPARKS = "▁▂▃▄▅▆▇█"
NAME_WIDTH = 14


def ranking(scores: tuple[int, ...]) -> list[tuple[int, int]]:
    """(place, seat) best first; tied scores share the same place (1, 1, 3…)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    places: list[tuple[int, int]] = []
    for i, seat in enumerate(order):
        tied = i and scores[order[i - 1]] == scores[seat]
        places.append((places[-1][0] if tied else i + 1, seat))
    return places


def sparkline(values: list[int], top: int) -> str:
    """One block character per value, scaled so that ``top`` is a full block."""
    if top <= 0:
        return SPARKS[0] * len(values)
    return "".join(SPARKS[min(len(SPARKS) - 1, v * (len(SPARKS) - 1) // top)] for v in values)


class ScoreTable(Widget):
    """The final table; the cumulative score over the rounds is drawn as a sparkline."""

    COMPONENT_CLASSES = {"scores--header", "scores--winner"}

    view: reactive[PlayerView | None] = reactive(None, layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 2 + (len(self.view.players) if self.view else 0)

    def render(self) -> Text:
        t = self.app.t
        view = self.view
        if view is None:
            return Text("")
        scores = view.scores or tuple(0 for _ in view.players)
        rounds = view.round_results
        totals = {
            p.seat: list(accumulate(r.banked[p.seat] for r in rounds)) for p in view.players
        }
        top = max([max(v, default=0) for v in totals.values()] + [1])
        header = Text(style=self.get_component_rich_style("scores--header"))
        header.append(" #  " + fit(t("players.name"), NAME_WIDTH - 1) + " ")
        for r in rounds:
            header.append(t("final.round_short", round=r.round).rjust(5))
        header.append(t("final.total").rjust(7) + "  " + t("final.chart"))
        lines = [header]
        bar_room = max(4, self.size.width - 4 - NAME_WIDTH - 5 * len(rounds) - 7 - 2 - 6 - 1)
        for place, seat in ranking(scores):
            winner = seat in view.winners
            style = self.get_component_rich_style("scores--winner") if winner else ""
            line = Text(f"{place:>2}{'★' if winner else ' '} ", style=style)
            line.append(fit(view.players[seat].name, NAME_WIDTH - 1) + " ", style=style)
            for r in rounds:
                line.append(str(r.banked[seat]).rjust(5))
            line.append(str(scores[seat]).rjust(7) + "  ", style=style)
            line.append(sparkline(totals[seat], top).ljust(6))
            line.append("█" * (scores[seat] * bar_room // max(1, max(scores))))
            lines.append(line)
        ended = Text("    " + fit(t("final.ended"), NAME_WIDTH - 1) + " ")
        for r in rounds:
            how = "✖" + t(f"hazard_short.{r.disaster.value}")[:3] if r.disaster else "✔"
            ended.append(how.rjust(5))
        lines.append(ended)
        return Text("\n").join(lines)
