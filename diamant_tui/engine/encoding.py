"""Cards as small integers, for the numpy simulator and the expert's look-ahead.

Every card of a rule set gets an id: treasures 0-14 (in the order of
``TREASURE_VALUES``), hazards 15-29 (three of each type, in ``HazardType`` order) and,
with relics, relics 30-34 (lowest first in ``relic-variant``). One more id, ``null``,
is a card that does nothing: rows whose round is over draw it, so arrays keep their
shape. Lookup tables indexed by id turn a drawn card into what it changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .cards import (
    HAZARD_COPIES,
    RELICS_IN_RELICS_DECK,
    TREASURE_VALUES,
    VARIANT_RELIC_VALUES,
    Card,
    Hazard,
    HazardType,
    Relic,
    Rules,
    Treasure,
)

MAX_PLAYERS = 8
HAZARD_TYPES = tuple(HazardType)
FIRST_HAZARD = len(TREASURE_VALUES)
FIRST_RELIC = FIRST_HAZARD + len(HAZARD_TYPES) * HAZARD_COPIES


def _relics_table() -> np.ndarray:
    # RELICS_VALUE[t, m]: points of m relics taken together when t were taken before
    # (``relics`` rule set: the 1st to 3rd are worth 5, the 4th and 5th 10).
    table = np.zeros((RELICS_IN_RELICS_DECK + 2, RELICS_IN_RELICS_DECK + 2), dtype=np.int64)
    for t in range(table.shape[0]):
        for m in range(1, table.shape[1]):
            table[t, m] = table[t, m - 1] + (5 if t + m - 1 < 3 else 10)
    return table


RELICS_VALUE = _relics_table()


@dataclass(frozen=True, eq=False)
class Encoding:
    """The id tables of one rule set."""

    rules: Rules
    cards: tuple[Card, ...]
    """The card of each id (the null card is not listed)."""
    value: np.ndarray
    """Treasure value per id (0 for other cards and the null card)."""
    hazard: np.ndarray
    """Hazard type index per id, -1 for other cards."""
    hazard_onehot: np.ndarray
    """(ids, 5): 1 in the column of the card's hazard type."""
    relic: np.ndarray
    """1 for relic ids."""
    relic_value: np.ndarray
    """Printed value of ``relic-variant`` relics, else 0."""
    shares: np.ndarray
    """(ids, 9): ``value // n`` for n players in the cave (column 0 unused)."""
    leftovers: np.ndarray
    """(ids, 9): ``value % n``, what stays on the card."""
    hazard_bit: np.ndarray
    """``1 << type`` for hazards, 0 for other cards: a set of types is a bit mask."""
    treasure_bit: np.ndarray
    """``1 << id`` for treasures, 0 for other cards: the treasure in a deck is a bit mask."""

    @property
    def size(self) -> int:
        """How many card ids there are (the null card not counted)."""
        return len(self.cards)

    @property
    def null(self) -> int:
        """The id of the null card, one past the last card."""
        return len(self.cards)

    @property
    def deck_shares(self) -> np.ndarray:
        """Flat table: ``[mask * 9 + n]`` sums ``value // n`` over the treasure in ``mask``."""
        return _deck_tables(self)[0]

    @property
    def deck_leftovers(self) -> np.ndarray:
        """Flat table: ``[mask * 9 + n]`` sums ``value % n`` over the treasure in ``mask``."""
        return _deck_tables(self)[1]

    def ids_of(self, code: str) -> tuple[int, ...]:
        """Every id whose card has this record code."""
        return _ids_by_code(self)[code]

    def deck_ids(self, deck: tuple[tuple[str, int], ...]) -> list[int]:
        """Ids for a view's deck (counts by card code)."""
        ids: list[int] = []
        for code, count in deck:
            ids.extend(self.ids_of(code)[:count])
        return ids


@lru_cache(maxsize=None)
def encoding(rules: Rules) -> Encoding:
    """The (cached) id tables of ``rules``."""
    rules = Rules.parse(rules)
    cards: list[Card] = [Treasure(v) for v in TREASURE_VALUES]
    cards += [Hazard(h) for h in HAZARD_TYPES for _ in range(HAZARD_COPIES)]
    if rules is Rules.RELICS:
        cards += [Relic() for _ in range(RELICS_IN_RELICS_DECK)]
    elif rules is Rules.RELIC_VARIANT:
        cards += [Relic(v) for v in VARIANT_RELIC_VALUES]
    size = len(cards) + 1
    value = np.zeros(size, dtype=np.int64)
    hazard = np.full(size, -1, dtype=np.int64)
    relic = np.zeros(size, dtype=np.int64)
    relic_value = np.zeros(size, dtype=np.int64)
    for i, card in enumerate(cards):
        if isinstance(card, Treasure):
            value[i] = card.value
        elif isinstance(card, Hazard):
            hazard[i] = HAZARD_TYPES.index(card.type)
        else:
            relic[i] = 1
            relic_value[i] = card.value or 0
    onehot = np.zeros((size, len(HAZARD_TYPES)), dtype=np.int64)
    onehot[hazard >= 0, hazard[hazard >= 0]] = 1
    n = np.arange(MAX_PLAYERS + 1)
    n[0] = 1
    shares = value[:, None] // n[None, :]
    leftovers = value[:, None] % n[None, :]
    shares[:, 0] = leftovers[:, 0] = 0
    hazard_bit = np.where(hazard >= 0, 1 << np.maximum(hazard, 0), 0)
    treasure_bit = np.where(value > 0, 1 << np.arange(size), 0)
    return Encoding(rules, tuple(cards), value, hazard, onehot, relic, relic_value,
                    shares, leftovers, hazard_bit, treasure_bit)


@lru_cache(maxsize=None)
def _deck_tables(enc: Encoding) -> tuple[np.ndarray, np.ndarray]:
    # One row per subset of the 15 treasure cards: looking a sum up beats adding it up.
    count = len(TREASURE_VALUES)
    bits = (np.arange(1 << count)[:, None] >> np.arange(count)) & 1
    shares = (bits @ enc.shares[:count]).astype(np.int32).ravel()
    leftovers = (bits @ enc.leftovers[:count]).astype(np.int32).ravel()
    return shares, leftovers


@lru_cache(maxsize=None)
def _ids_by_code(enc: Encoding) -> dict[str, tuple[int, ...]]:
    found: dict[str, list[int]] = {}
    for i, card in enumerate(enc.cards):
        found.setdefault(card.code, []).append(i)
    return {code: tuple(ids) for code, ids in found.items()}
