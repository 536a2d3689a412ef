"""What is left in the deck, the hazards seen, and (on request) the disaster chance.

Once a round is over (and after the last one) no card can follow on that path: the
panel then marks no hazard as deadly and gives no disaster chance.
"""

from __future__ import annotations

import textwrap
from collections.abc import Hashable
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.text import Text
from textual.cache import LRUCache
from textual.reactive import reactive
from textual.widget import Widget

from ...engine.cards import HazardType, Rules
from ...engine.view import Phase, PlayerView
from ..describe import RUBY, hazard_abbr
from .component_styles import KeptComponentStyles
from .drawn_runs import DrawnFromText
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines

OVER = (Phase.ROUND_OVER, Phase.OVER)
"""Phases in which no card will be added to the path on show."""

_LINE_COUNTS: LRUCache[Hashable, int] = LRUCache(1024)
"""Lines needed by a deck panel's state, at a width, in a language (keyed by the parts of
the state compared, never its view)."""


@dataclass(frozen=True)
class DeckState:
    """The part of a view the deck panel shows; the view itself is not compared,
    so a player's tick (a new view, the same deck) does not redraw the panel."""

    view: PlayerView = field(compare=False)
    rules: Rules
    deck: tuple[tuple[str, int], ...]
    hazards_showing: tuple[HazardType, ...]
    hazards_removed: tuple[HazardType, ...]
    over: bool = False
    """The round (or the game) is over: nothing on the path is a danger any more."""

    @classmethod
    def of(cls, view: PlayerView) -> "DeckState":
        """The panel's state for ``view``."""
        return cls(view, view.rules, view.deck, view.hazards_showing, view.hazards_removed,
                   view.phase in OVER)


class DeckInfo(SizedInOneLayout, SharedLines, DrawnFromText, KeptComponentStyles, Widget):
    """The deck by kind of card; the disaster chance shows only when switched on.

    ``keep_lines``: the panel keeps the most lines its game has needed so far, and at
    least as many as the player list beside it (a table's, where every change of height
    is a layout for every seat); otherwise (a replay, which jumps back and forth) it takes
    exactly the lines it needs.
    """

    ALLOW_SELECT = False  # its lines are drawn without the offsets selecting needs
    COMPONENT_CLASSES = {"deck--title", "deck--risk"}

    DEFAULT_CSS = """
    DeckInfo {
        width: 25;
        height: auto;
        padding: 0 1;
        border-left: solid $primary-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .deck--title { text-style: bold; }
        & > .deck--risk { color: $warning; text-style: bold; }
    }
    """

    state: reactive[DeckState | None] = reactive(None)
    # The chance is one more line, hence a new layout.
    show_chance: reactive[bool] = reactive(False, layout=True)
    _height = 0
    """The lines the panel takes (with ``keep_lines``, the most its game has needed)."""

    def __init__(self, *args, keep_lines: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._keep_lines = keep_lines

    def watch_state(self, old: DeckState | None, new: DeckState | None) -> None:
        # A new layout (a full redraw of the screen, for every seat) only when the panel
        # needs more lines than it has had this game. Fewer leave a blank line rather
        # than give one back: the lines come and go as hazards are seen, marked deadly
        # and wrapped, and each change moved the cave by a line (about four layouts a
        # game). A new game (a rematch) starts again from what it needs.
        if self._keep_lines and old is not None and new is not None \
                and new.view.round < old.view.round:
            self._height = 0
            # Asked whatever its size says: hidden under the final scores, it has none,
            # and it would keep the last game's lines.
            self.refresh(layout=True)
            return
        width = self.size.width
        if width <= 0:
            return  # not laid out yet: its first layout asks its height
        needed = self._line_count(width)
        if self._keep_lines:
            needed = max(needed, self._beside())
        if needed > self._height or (needed < self._height and not self._keep_lines):
            self.refresh(layout=True)  # (a panel not sized yet has a height of 0)

    def watch_show_chance(self) -> None:
        self._height = 0  # asked for: exactly its lines (laid out anyway)

    def get_content_height(self, container, viewport, width: int) -> int:
        if width <= 0:
            return self._height  # no room to draw in: nothing learnt about its lines
        needed = self._line_count(width)
        self._height = max(self._height, needed, self._beside()) if self._keep_lines else needed
        return self._height

    def _beside(self) -> int:
        """The lines of the player list beside the panel at a table (a heading and a line
        per player): the row is that tall anyway, so the panel takes them from the start.
        Lines it gains later within them (a hazard type put out of the game, the counts
        wrapped) then lay nothing out: at a table of five each was a layout of the whole
        screen, for every seat, about twice a game."""
        return 1 + len(self.state.view.players) if self.state is not None else 0

    def _line_count(self, width: int) -> int:
        """How many lines the panel's state needs at ``width``, worked out once per
        process for each state, width and language (every seat at a table has the same
        deck)."""
        if self.state is None:
            return 1
        state = self.state
        # The state's compared parts, not the state: it holds its whole view (every seat,
        # the path, the rounds' results), which the process would keep with the count.
        key = (state.rules, state.deck, state.hazards_showing, state.hazards_removed,
               state.over, self.show_chance, width,
               getattr(getattr(self.app, "translator", None), "lang", None))
        count = _LINE_COUNTS.get(key)
        if count is None:
            count = _LINE_COUNTS[key] = len(self._lines(width))
        return count

    def shared_key(self):
        return self.state, self.show_chance

    def render(self) -> Text:
        return Text("\n").join(self._lines())

    def drawn_texts(self) -> list[Text]:
        return self._lines()

    def _lines(self, width: int | None = None) -> list[Text]:
        t = self.app.t
        if self.state is None:
            return [Text("")]
        view = self.state.view
        counts = view.deck_counts
        treasures = sum(n for code, n in counts.items() if code.startswith("T"))
        relics = sum(n for code, n in counts.items() if code.startswith("R"))
        hazards = {h: counts.get(f"H:{h.value}", 0) for h in HazardType}
        over = self.state.over
        deadly = set() if over else set(view.hazards_showing)
        width = max(10, width) if width is not None else self._width()
        lines = [
            Text(t("deck.title", count=view.deck_size),
                 style=self.component_style("deck--title")),
            Text(t("deck.treasure", count=treasures, rubies=view.treasure_in_deck, ruby=RUBY)),
            Text(t("deck.hazard", count=sum(hazards.values()))),
            *self._per_type(hazards, deadly, width),
        ]
        if relics or view.rules.value != "classic":
            lines.append(Text(t("deck.relic", count=relics)))
        showing = sorted(set(view.hazards_showing), key=list(HazardType).index)
        lines += self._hazard_line("deck.seen", showing, width)
        if view.hazards_removed:
            lines += self._hazard_line("deck.removed", view.hazards_removed, width)
        if self.show_chance and not over:
            lines.append(Text(t("deck.chance", percent=round(100 * view.disaster_chance)),
                              style=self.component_style("deck--risk")))
        return lines

    def _per_type(self, hazards: dict[HazardType, int], deadly: set[HazardType],
                  width: int) -> list[Text]:
        # A type already on the path is deadly now: marked with "!" (and the risk style).
        # The counts wrap rather than lose a type on a narrow panel.
        risk = self.component_style("deck--risk")
        lines = [Text()]
        for h, n in hazards.items():
            label = f"{hazard_abbr(self.app.t, h)}{n}" + ("!" if h in deadly else "")
            line = lines[-1]
            if line and line.cell_len + 1 + len(label) > width:
                lines.append(line := Text(" "))
            if line.plain.strip():
                line.append(" ")
            line.append(label, style=risk if h in deadly else "")
        return lines

    def _hazard_line(self, key: str, hazards, width: int) -> list[Text]:
        """Hazard types after a heading: by name if one line holds them, else by their
        two letters (which always fit), wrapping only if even those do not."""
        t = self.app.t
        if not hazards:
            return self._wrapped(t(key, hazards="—"), width)
        named = t(key, hazards=" ".join(t(f"hazard_short.{h.value}") for h in hazards))
        if cell_len(named) <= width:
            return [Text(named)]
        return self._wrapped(t(key, hazards=" ".join(hazard_abbr(t, h) for h in hazards)), width)

    def _width(self) -> int:
        return max(10, self.size.width)

    @staticmethod
    def _wrapped(text: str, width: int) -> list[Text]:
        """``text`` on as many lines as ``width`` needs (no word cut)."""
        return [Text(line) for line in textwrap.wrap(text, width, subsequent_indent="  ")]
