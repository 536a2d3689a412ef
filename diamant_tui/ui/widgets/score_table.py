"""Final scores: ranking (ties share a place), each round's takings and a small chart."""

from __future__ import annotations

from itertools import accumulate

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine.view import PlayerView
from ..cells import cell, cell_len, widest
from ..describe import hazard_abbr

SPARKS = "▁▂▃▄▅▆▇█"
MIN_NAME = 8
"""Cells a name keeps at least: a longer one is shortened (…) only on a very narrow screen."""
ROUND_WIDTH = 5
TOTAL_WIDTH = 7
SPARK_WIDTH = 6
BAR_MAX = 25
"""Cells the longest bar takes at most (as at 80 columns): on a wider screen a bar as
long as the line ran over a hundred cells."""


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

    DEFAULT_CSS = """
    ScoreTable {
        height: auto;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .scores--header { text-style: bold underline; }
        & > .scores--winner { text-style: bold; }
    }
    """

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
        # Everything but the names and the bar has a fixed width; the names take what
        # they need, the bar what is left.
        fixed = 4 + ROUND_WIDTH * len(rounds) + TOTAL_WIDTH + 2 + SPARK_WIDTH
        names = [p.name for p in view.players] + [t("players.name"), t("final.ended")]
        name_w = max(MIN_NAME, min(widest(names), self.size.width - fixed - 1))
        bar_room = min(BAR_MAX, self.size.width - fixed - name_w - 1)
        header = Text(style=self.get_component_rich_style("scores--header"))
        header.append(" #  " + cell(t("players.name"), name_w) + " ")
        for r in rounds:
            header.append(t("final.round_short", round=r.round).rjust(ROUND_WIDTH))
        header.append(t("final.total").rjust(TOTAL_WIDTH) + "  ")
        chart = t("final.chart")
        if cell_len(chart) <= SPARK_WIDTH + bar_room:
            header.append(chart)
        lines = [header]
        for place, seat in ranking(scores):
            winner = seat in view.winners
            style = self.get_component_rich_style("scores--winner") if winner else ""
            line = Text(f"{place:>2}{'★' if winner else ' '} ", style=style)
            line.append(cell(view.players[seat].name, name_w) + " ", style=style)
            for r in rounds:
                line.append(str(r.banked[seat]).rjust(ROUND_WIDTH))
            line.append(str(scores[seat]).rjust(TOTAL_WIDTH) + "  ", style=style)
            line.append(sparkline(totals[seat], top).ljust(SPARK_WIDTH))
            if bar_room > 0:
                line.append("█" * (scores[seat] * bar_room // max(1, max(scores))))
            lines.append(line)
        ended = Text("    " + cell(t("final.ended"), name_w) + " ")
        for r in rounds:
            how = "✖" + hazard_abbr(t, r.disaster) if r.disaster else "✔"
            ended.append(how.rjust(ROUND_WIDTH))
        lines.append(ended)
        return Text("\n").join(lines)
