"""What one player may know: a frozen snapshot the engine gives to each seat.

Interfaces render a :class:`PlayerView`; computer players decide from it alone. It never
holds the order of the deck nor another player's pending choice.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import Card, Hazard, HazardType, Relic, Rules


class Decision(str, enum.Enum):
    """The choice every player in the cave makes after each card."""

    CONTINUE = "continue"
    LEAVE = "leave"


class Phase(str, enum.Enum):
    """What the game waits for."""

    REVEAL = "reveal"
    """A card must be turned (a chance step)."""
    DECISION = "decision"
    """Players in the cave must choose."""
    ROUND_OVER = "round over"
    """A round (not the last) has ended; its path is still on show."""
    OVER = "over"
    """The last round has ended."""


@dataclass(frozen=True)
class SeatView:
    """One player as the viewer sees them."""

    seat: int
    name: str
    in_cave: bool
    carried: int
    chest: int | None
    """Rubies banked, or None when chests are hidden from this viewer."""
    relics: tuple[int, ...]
    """Points of each relic taken (safe at once, shown to everyone)."""
    decided: bool
    """Whether this player has chosen this turn (never what)."""

    @property
    def relic_points(self) -> int:
        """The points of the relics this player has taken."""
        return sum(self.relics)


@dataclass(frozen=True)
class PathCard:
    """A card on this round's path and the rubies still lying on it."""

    card: Card
    rubies: int = 0
    taken: bool = False
    """For a relic: a player has taken it out of the cave this round."""


@dataclass(frozen=True)
class RoundResult:
    """How a finished round ended and what each seat banked in it."""

    round: int
    disaster: HazardType | None
    cards: int
    banked: tuple[int | None, ...]
    """Rubies plus relic points each seat made safe during the round (None for another
    seat while chests are hidden, since these add up to the chest)."""
    relics: tuple[int, ...] = ()
    """Of ``banked``, the relic points each seat took out of the cave during the round
    (public, like the relics themselves; empty when not known)."""


@dataclass(frozen=True)
class PlayerView:
    """Everything ``seat`` may know now (``seat`` is None for a spectator)."""

    rules: Rules
    seat: int | None
    players: tuple[SeatView, ...]
    round: int
    step: int
    """Cards revealed so far this round."""
    phase: Phase
    path: tuple[PathCard, ...]
    deck: tuple[tuple[str, int], ...]
    """Cards still in the deck, counted by card code (never their order)."""
    hazards_removed: tuple[HazardType, ...]
    round_results: tuple[RoundResult, ...]
    relics_taken: int
    """Relics taken out of the cave so far in the game (sets ``relics`` values)."""
    rounds: int
    """The rounds this game is played over (its config's)."""
    chests_hidden: bool = False
    decision_due: bool = False
    """True when this seat is in the cave and must choose now."""
    my_decision: Decision | None = None
    """This seat's own pending choice, before the reveal."""
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()

    @property
    def me(self) -> SeatView | None:
        """The viewer's own seat (None for a spectator)."""
        return None if self.seat is None else self.players[self.seat]

    @property
    def in_cave(self) -> tuple[SeatView, ...]:
        """The players still in the cave, in seat order."""
        return tuple(p for p in self.players if p.in_cave)

    @property
    def deck_size(self) -> int:
        """How many cards are left in the deck."""
        return sum(n for _, n in self.deck)

    @property
    def deck_counts(self) -> dict[str, int]:
        """How many cards of each code are left in the deck."""
        return dict(self.deck)

    @property
    def rubies_on_path(self) -> int:
        """The rubies left lying on the path's cards."""
        return sum(pc.rubies for pc in self.path)

    @property
    def relics_on_path(self) -> int:
        """The relics on the path that nobody has taken yet."""
        return sum(1 for pc in self.path if isinstance(pc.card, Relic) and not pc.taken)

    @property
    def hazards_showing(self) -> tuple[HazardType, ...]:
        """The type of each hazard card on the path, in the order they came."""
        return tuple(pc.card.type for pc in self.path if isinstance(pc.card, Hazard))

    @property
    def disaster_chance(self) -> float:
        """Chance that the next card ends the round in disaster."""
        size = self.deck_size
        if not size:
            return 0.0
        counts = self.deck_counts
        deadly = sum(counts.get(f"H:{h.value}", 0) for h in set(self.hazards_showing))
        return deadly / size

    @property
    def treasure_in_deck(self) -> int:
        """The rubies of all the treasure cards left in the deck."""
        return sum(int(code[1:]) * n for code, n in self.deck if code.startswith("T"))
