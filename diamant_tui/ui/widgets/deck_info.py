"""What is left in the deck, the hazards seen, and (on request) the disaster chance."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...cards import HazardType, Rules
from ...view import PlayerView
from ..describe import RUBY


@dataclass(frozen=True)
class DeckState:
    """The part of a view the deck panel shows; the view itself is not compared,
    so a player's tick (a new view, the same deck) does not redraw the panel."""

    view: PlayerView = field(compare=False)
    rules: Rules
    deck: tuple[tuple[str, int], ...]
    hazards_showing: tuple[HazardType, ...]
    hazards_removed: tuple[HazardType, ...]

    @classmethod
    def of(cls, view: PlayerView) -> "DeckState":
        """The panel's state for ``view``."""
        return cls(view, view.rules, view.deck, view.hazards_showing, view.hazards_removed)


class DeckInfo(Widget):
    """The deck by kind of card; the disaster chance shows only when switched on."""

    COMPONENT_CLASSES = {"deck--title", "deck--risk"}

    state: reactive[DeckState | None] = reactive(None)
    # The chance is one more line, hence a new layout.
    show_chance: reactive[bool] = reactive(False, layout=True)
    _height = 0

    def watch_state(self) -> None:
        # A new layout (a full redraw of the screen) only when the number of lines changes.
        height = len(self._lines())
        if height != self._height:
            self._height = height
            self.refresh(layout=True)

    def render(self) -> Text:
        return Text("\n").join(self._lines())

    def _lines(self) -> list[Text]:
        t = self.app.t
        if self.state is None:
            return [Text("")]
        view = self.state.view
        counts = view.deck_counts
        treasures = sum(n for code, n in counts.items() if code.startswith("T"))
        relics = sum(n for code, n in counts.items() if code.startswith("R"))
        hazards = {h: counts.get(f"H:{h.value}", 0) for h in HazardType}
        lines = [
            Text(t("deck.title", count=view.deck_size),
                 style=self.get_component_rich_style("deck--title")),
            Text(t("deck.treasure", count=treasures, rubies=view.treasure_in_deck, ruby=RUBY)),
            Text(t("deck.hazard", count=sum(hazards.values()))),
            *self._per_type(hazards, set(view.hazards_showing)),
        ]
        if relics or view.rules.value != "classic":
            lines.append(Text(t("deck.relic", count=relics)))
        showing = sorted(set(view.hazards_showing), key=list(HazardType).index)
        seen = " ".join(t(f"hazard_short.{h.value}") for h in showing) or "—"
        lines += self._wrapped(t("deck.seen", hazards=seen))
        if view.hazards_removed:
            removed = " ".join(t(f"hazard_short.{h.value}") for h in view.hazards_removed)
            lines += self._wrapped(t("deck.removed", hazards=removed))
        if self.show_chance:
            lines.append(Text(t("deck.chance", percent=round(100 * view.disaster_chance)),
                              style=self.get_component_rich_style("deck--risk")))
        return lines

    def _per_type(self, hazards: dict[HazardType, int], showing: set[HazardType]) -> list[Text]:
        # A type already on the path is deadly now: marked with "!" (and the risk style).
        # The counts wrap rather than lose a type on a narrow panel.
        width = max(10, self.size.width)
        lines = [Text()]
        for h, n in hazards.items():
            label = f"{self.app.t(f'hazard_short.{h.value}')[:2]}{n}" + ("!" if h in showing else "")
            line = lines[-1]
            if line and len(line) + 1 + len(label) > width:
                lines.append(line := Text(" "))
            if line.plain.strip():
                line.append(" ")
            line.append(label, style=self.get_component_rich_style("deck--risk") if h in showing else "")
        return lines

    def _wrapped(self, text: str) -> list[Text]:
        """``text`` on as many lines as the width needs (no word cut)."""
        width = max(10, self.size.width)
        return [Text(line) for line in textwrap.wrap(text, width, subsequent_indent="  ")]
