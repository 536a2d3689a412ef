"""One round of Diamant in many games at once, as numpy arrays (one entry per game).

The fast simulator plays whole games with it and the expert plays out the rest of a
round many times with it. It follows RULES.md step for step, like the engine, but keeps
only what decides the game: every player in the cave carries the same rubies, so one
number per game is enough, and the path is its ruby total and its relics. Sets (the
treasure in the deck, the hazard types showing) are bit masks and sums over them are
looked up, because whole-array operations on one axis are what numpy does fastest.
"""

from __future__ import annotations

import numpy as np

from .cards import HAZARD_COPIES, Rules
from .encoding import FIRST_HAZARD, FIRST_RELIC, RELICS_VALUE, Encoding
from .features import Features

_COLUMNS = 9  # width of the per-player-count tables (0 to 8 players)
_POPCOUNT = np.array([bin(i).count("1") for i in range(32)], dtype=np.int64)


class Cave:
    """The round in progress in each of ``games`` games, with ``seats`` players each.

    ``deck`` counts each card id in the deck, one row per game (a single row is shared
    by all games); ``in_cave`` is a boolean array (seats, games). Mid-round states (the
    expert's) also give the hazard types showing (``showing``, a bit mask) and the path.
    """

    def __init__(
        self,
        enc: Encoding,
        deck: np.ndarray,
        in_cave: np.ndarray,
        relics_taken: int | np.ndarray,
        *,
        step: int = 0,
        carried: int = 0,
        path: int = 0,
        showing: int = 0,
        relics_on_path: int = 0,
        printed_on_path: int = 0,
    ) -> None:
        games = in_cave.shape[1]
        self.enc = enc
        self.relics_rule = enc.rules is Rules.RELICS
        self.in_cave = in_cave.copy()
        self.n = self.in_cave.sum(axis=0)
        self.banked = np.zeros(in_cave.shape, dtype=np.int64)

        def column(value: int | np.ndarray) -> np.ndarray:
            return np.zeros(games, dtype=np.int64) + value

        self.step = column(step)
        self.carried = column(carried)
        self.path = column(path)
        self.relics_taken = column(relics_taken)
        self.relics_on_path = column(relics_on_path)
        self.printed_on_path = column(printed_on_path)
        self.showing = column(showing)
        self.deck = column(deck.sum(axis=1))
        self.treasure = column(deck @ enc.treasure_bit)
        self.relics_in_deck = column(deck @ enc.relic)
        self.relic_points_in_deck = column(deck @ enc.relic_value)
        types = deck[:, FIRST_HAZARD:FIRST_RELIC].reshape(deck.shape[0], -1, HAZARD_COPIES)
        # Copies of each type in the deck, as one flat array (type-major). A type's count
        # only matters when its first card shows, and until then it cannot change.
        self._hazard_counts = np.broadcast_to(types.sum(axis=2).T, (types.shape[1], games)).ravel()
        self._hazard_offset = np.arange(games)
        shown = (showing >> np.arange(types.shape[1])) & 1
        self.deadly = column((types.sum(axis=2) * shown).sum(axis=1))

    _PER_GAME = (
        "n", "step", "carried", "path", "relics_taken", "relics_on_path", "printed_on_path",
        "showing", "deck", "treasure", "relics_in_deck", "relic_points_in_deck", "deadly",
    )

    def keep(self, games: np.ndarray) -> None:
        """Drop every game but those selected (a boolean mask), e.g. those still going on."""
        for name in self._PER_GAME:
            setattr(self, name, getattr(self, name)[games])
        self.in_cave = self.in_cave[:, games]
        self.banked = self.banked[:, games]
        types = self._hazard_counts.size // games.size
        self._hazard_counts = self._hazard_counts.reshape(types, -1)[:, games].ravel()
        self._hazard_offset = np.arange(self.n.size)

    @property
    def active(self) -> np.ndarray:
        """Games whose round goes on (someone is in the cave)."""
        return self.n > 0

    def reveal(self, cards: np.ndarray) -> np.ndarray:
        """Turn one card per game (the null id where there is nothing to turn).

        Returns where it was a disaster; the players there are out, empty-handed.
        """
        enc = self.enc
        live = cards != enc.null
        self.step += live
        self.deck -= live
        index = cards * _COLUMNS + self.n
        self.carried += np.take(enc.shares, index)
        self.path += np.take(enc.leftovers, index)
        self.treasure &= ~np.take(enc.treasure_bit, cards)
        bit = np.take(enc.hazard_bit, cards)
        disaster = (self.showing & bit) != 0
        first = (bit != 0) & ~disaster
        if first.any():
            kind = np.maximum(np.take(enc.hazard, cards), 0)
            left = np.take(self._hazard_counts, kind * self.n.size + self._hazard_offset) - 1
            self.deadly += np.where(first, left, 0)
        self.showing |= bit
        if self.relics_in_deck.any():
            relic = np.take(enc.relic, cards)
            printed = np.take(enc.relic_value, cards)
            self.relics_in_deck -= relic
            self.relic_points_in_deck -= printed
            self.relics_on_path += relic
            self.printed_on_path += printed
        if disaster.any():
            self.in_cave[:, disaster] = False
            self.carried[disaster] = 0
            self.n[disaster] = 0
        return disaster

    def relics_now(self) -> np.ndarray:
        """Points of the relics on the path for a lone leaver."""
        if self.relics_rule:
            return RELICS_VALUE[self.relics_taken, self.relics_on_path]
        return self.printed_on_path

    def features(self) -> Features:
        """The numbers the rule-based players decide from, per game."""
        now = self.relics_now()
        if self.relics_rule:
            after = RELICS_VALUE[self.relics_taken, np.minimum(self.relics_on_path + 1, 6)]
            gain = self.relics_in_deck * (after - now)
        else:
            gain = self.relic_points_in_deck
        index = self.treasure * _COLUMNS + self.n
        return Features(
            step=self.step,
            carried=self.carried,
            n=self.n,
            deadly=self.deadly,
            hazards=_POPCOUNT[self.showing],
            shares=np.take(self.enc.deck_shares, index),
            leftovers=np.take(self.enc.deck_leftovers, index),
            path=self.path,
            relics_path=now,
            relics_gain=gain,
            deck=self.deck,
        )

    def leave(self, leaving: np.ndarray) -> None:
        """Players in ``leaving`` (seats, games) go back to camp together.

        Leavers split the path's rubies; a lone leaver also takes every relic there.
        """
        leaving = leaving & self.in_cave
        k = leaving.sum(axis=0)
        if not k.any():
            return
        share = self.path // np.maximum(k, 1)
        self.path -= share * k
        lone = k == 1
        gain = self.carried + share
        if self.relics_on_path.any():
            gain = gain + np.where(lone, self.relics_now(), 0)
            self.relics_taken += np.where(lone, self.relics_on_path, 0)
            self.relics_on_path = np.where(lone, 0, self.relics_on_path)
            self.printed_on_path = np.where(lone, 0, self.printed_on_path)
        self.banked += leaving * gain
        self.in_cave &= ~leaving
        self.n -= k
