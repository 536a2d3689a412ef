"""Events the engine emits for every step of a game, in order.

An interface shows them one at a time; a log writes them down. Events are public
information: none of them carries a decision before all decisions of a turn are in.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Hazard, HazardType, Relic


@dataclass(frozen=True)
class RoundStarted:
    """A round begins: everyone is in the cave, carrying nothing."""

    round: int
    relic_added: Relic | None = None


@dataclass(frozen=True)
class CardRevealed:
    """A card was turned and added to the path.

    For a treasure, each of ``receivers`` got ``share`` rubies and ``remainder`` stayed
    on the card. For a hazard, ``first_of_type`` says whether it was harmless.
    """

    round: int
    step: int
    card: Card
    receivers: tuple[int, ...] = ()
    share: int = 0
    remainder: int = 0
    first_of_type: bool = False


@dataclass(frozen=True)
class DecisionMade:
    """A seat has chosen (never what) or changed its choice."""

    seat: int


@dataclass(frozen=True)
class DecisionsRevealed:
    """All choices of a turn, revealed at once."""

    round: int
    step: int
    continuing: tuple[int, ...]
    leaving: tuple[int, ...]


@dataclass(frozen=True)
class PlayerLeft:
    """A player went back to camp: ``picked_up`` rubies from the path, plus relics."""

    seat: int
    carried: int
    picked_up: int
    relics: tuple[tuple[Relic, int], ...]
    """Relics taken, each with the points it is worth."""
    banked: int
    """Rubies put into the chest now: carried + picked up."""


@dataclass(frozen=True)
class Disaster:
    """A second hazard of a type: everyone still in the cave loses what they carry."""

    round: int
    hazard: HazardType
    losses: tuple[tuple[int, int], ...]
    """(seat, rubies lost) for each player caught in the cave."""
    removed: Hazard


@dataclass(frozen=True)
class RoundEnded:
    """The round is over: by disaster, or because everyone left."""

    round: int
    disaster: HazardType | None
    rubies_returned: int
    relics_removed: int


@dataclass(frozen=True)
class GameEnded:
    """After the last round: final scores by seat and the (possibly tied) winners."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    RoundStarted
    | CardRevealed
    | DecisionMade
    | DecisionsRevealed
    | PlayerLeft
    | Disaster
    | RoundEnded
    | GameEnded
)
