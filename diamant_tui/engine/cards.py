"""The cards of Diamant and the decks of the three rule sets (RULES.md, Components).

A card is an immutable value with a short code used in game records:
``T9`` treasure of value 9, ``H:snakes`` a hazard, ``R`` a relic of the ``relics``
rule set and ``R7`` a relic of ``relic-variant``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Union

from .errors import UnknownCard, UnknownRules

TREASURE_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)
HAZARD_COPIES = 3
VARIANT_RELIC_VALUES: tuple[int, ...] = (5, 7, 8, 10, 12)
RELICS_IN_RELICS_DECK = 5


class Rules(str, enum.Enum):
    """The three rule sets of RULES.md."""

    CLASSIC = "classic"
    RELICS = "relics"
    RELIC_VARIANT = "relic-variant"

    @classmethod
    def parse(cls, name: "str | Rules") -> "Rules":
        """Return the rule set named ``name`` or raise :class:`UnknownRules`."""
        if isinstance(name, Rules):
            return name
        for rules in cls:
            if rules.value == name:
                return rules
        allowed = ", ".join(r.value for r in cls)
        raise UnknownRules(f"unknown rule set {name!r}; choose one of {allowed}.")


class HazardType(str, enum.Enum):
    """The five hazard types, named as in the English edition."""

    SPIDERS = "spiders"
    SNAKES = "snakes"
    LAVA = "lava"
    BOULDERS = "boulders"
    RAMS = "rams"


@dataclass(frozen=True, order=True)
class Treasure:
    """A treasure card worth ``value`` rubies, shared among the players in the cave."""

    value: int

    code: str = field(init=False, repr=False, compare=False)
    """The card's code in game records."""

    def __post_init__(self) -> None:
        # Computed once: codes are read for every card of every view.
        object.__setattr__(self, "code", f"T{self.value}")


@dataclass(frozen=True, order=True)
class Hazard:
    """A hazard card; the second of a type on one round's path is a disaster."""

    type: HazardType

    code: str = field(init=False, repr=False, compare=False)
    """The card's code in game records."""

    def __post_init__(self) -> None:
        # Computed once: codes are read for every card of every view.
        object.__setattr__(self, "code", f"H:{self.type.value}")


@dataclass(frozen=True, order=True)
class Relic:
    """A relic card. ``value`` is the printed value (``relic-variant``) or None (``relics``)."""

    value: int | None = None

    code: str = field(init=False, repr=False, compare=False)
    """The card's code in game records."""

    def __post_init__(self) -> None:
        # Computed once: codes are read for every card of every view.
        object.__setattr__(self, "code", "R" if self.value is None else f"R{self.value}")


Card = Union[Treasure, Hazard, Relic]


def sort_key(card: Card) -> tuple[int, str, int]:
    """A total order on cards, so decks are kept in a canonical, reproducible order."""
    if isinstance(card, Treasure):
        return (0, "", card.value)
    if isinstance(card, Hazard):
        return (1, card.type.value, 0)
    return (2, "", card.value or 0)


def parse_card(code: str) -> Card:
    """Parse a record card code (``T9``, ``H:snakes``, ``R``, ``R7``)."""
    if not isinstance(code, str):
        raise UnknownCard(f"card {code!r} is not a card code such as T9, H:snakes, R or R7.")
    if code.startswith("H:"):
        try:
            return Hazard(HazardType(code[2:]))
        except ValueError:
            kinds = ", ".join(h.value for h in HazardType)
            raise UnknownCard(f"unknown hazard {code!r}; hazard types are {kinds}.") from None
    if code == "R":
        return Relic()
    # ASCII digits only, and few of them: str.isdigit() also accepts "²", which int() refuses.
    digits = code[1:]
    plain_number = digits.isascii() and digits.isdigit() and len(digits) <= 3
    if code[:1] in ("T", "R") and plain_number and not digits.startswith("0"):
        value = int(digits)
        return Treasure(value) if code[0] == "T" else Relic(value)
    raise UnknownCard(f"card {code!r} is not a card code such as T9, H:snakes, R or R7.")


def base_deck(rules: Rules) -> list[Card]:
    """The deck at the start of the game, before any round-start additions."""
    deck: list[Card] = [Treasure(v) for v in TREASURE_VALUES]
    deck += [Hazard(h) for h in HazardType for _ in range(HAZARD_COPIES)]
    if rules is Rules.RELICS:
        deck += [Relic() for _ in range(RELICS_IN_RELICS_DECK)]
    deck.sort(key=sort_key)
    return deck


def relic_value_in_relics(taken_before: int) -> int:
    """Value of a ``relics`` relic when ``taken_before`` relics were taken earlier in the game."""
    return 5 if taken_before < 3 else 10
