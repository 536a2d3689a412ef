"""Every player at the table: in the cave or in camp, carried rubies, chest, relics."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...view import Phase, PlayerView
from ..describe import RUBY
from ..literal import fit

NAME_WIDTH = 11
PLACE_WIDTH = 10
CARRIED_WIDTH = 8
NUMBER_WIDTH = 7
WORDS_FROM = 62
"""From this width on, the turn column says "decided" in words too."""


@dataclass(frozen=True)
class PlayersState:
    """What the player list shows: the view and which seats are away (played by a computer)."""

    view: PlayerView
    away: frozenset[int] = frozenset()
    people: frozenset[int] = frozenset()


class PlayerList(Widget):
    """One line per player; it shows that a player has decided, never what."""

    COMPONENT_CLASSES = {
        "players--header",
        "players--me",
        "players--camp",
        "players--decided",
        "players--away",
    }

    state: reactive[PlayersState | None] = reactive(None)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1 + (len(self.state.view.players) if self.state else 0)

    def watch_state(self, old: PlayersState | None, new: PlayersState | None) -> None:
        # The height changes only with the number of players: then (only) a new layout.
        if (old and len(old.view.players)) != (new and len(new.view.players)):
            self.refresh(layout=True)

    def render(self) -> Text:
        t = self.app.t
        if self.state is None:
            return Text("")
        view = self.state.view
        header = Text(
            "  "
            + _cell(t("players.name"), NAME_WIDTH)
            + _cell(t("players.place"), PLACE_WIDTH)
            + _cell(t("players.carried"), CARRIED_WIDTH, right=True)
            + _cell(t("players.chest"), NUMBER_WIDTH, right=True)
            + _cell(t("players.relics"), NUMBER_WIDTH, right=True)
            + " "
            + t("players.status"),
            style=self.get_component_rich_style("players--header"),
        )
        lines = [header]
        words = self.size.width >= WORDS_FROM
        for p in view.players:
            me = p.seat == view.seat
            style = self.get_component_rich_style("players--me") if me else Style()
            if not p.in_cave:
                style = self.get_component_rich_style("players--camp") + style
            place = t("place.cave") if p.in_cave else t("place.camp")
            chest = "?" if p.chest is None else f"{RUBY}{p.chest}"
            relics = f"◈{len(p.relics)}:{p.relic_points}" if p.relics else "—"
            carried = f"{RUBY}{p.carried}" if p.in_cave else "—"
            line = Text(("▶ " if me else "  ") + _cell(p.name, NAME_WIDTH), style=style)
            line.append(_cell(place, PLACE_WIDTH), style=style)
            line.append(_cell(carried, CARRIED_WIDTH, right=True), style=style)
            line.append(_cell(chest, NUMBER_WIDTH, right=True), style=style)
            line.append(_cell(relics, NUMBER_WIDTH, right=True), style=style)
            line.append(" ")
            if p.seat in self.state.away:
                # A computer plays the seat now: that matters more than the tick.
                line.append("☾" + t("players.away"),
                            style=self.get_component_rich_style("players--away"))
            elif view.phase is Phase.DECISION and p.in_cave:
                if p.decided:
                    line.append("✓ " + t("players.decided") if words else "✓",
                                style=self.get_component_rich_style("players--decided"))
                else:
                    line.append("…")
            if p.seat not in self.state.people and p.seat not in self.state.away and words:
                line.append(" " + t("players.computer"))
            lines.append(line)
        return Text("\n").join(lines)


def _cell(text: str, width: int, right: bool = False) -> str:
    """``text`` cut and padded to ``width`` cells, with one space after it."""
    text = fit(text, width - 1)
    if right:
        kept = text.rstrip(" ")
        text = text[len(kept):] + kept  # the padding goes in front
    return text + " "
