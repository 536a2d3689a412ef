"""The fast path of ``diamant sim``: many games of rule-based players at once, in numpy.

Every game of a batch is one row of arrays. Each round, every row's deck is shuffled
(a random order of the cards present) and cards are turned one step at a time for all
rows together; the players' rules are array formulas (``bots/_features.py``, the same
formulas the engine-path players use), so a batch plays exactly as the engine would
on the same decks. :func:`play` can return those decks so that a test replays them
through :class:`diamant_tui.engine.Game`.

Only players whose rule is such a formula can play here (see :func:`vector_policy`);
the simulator falls back to the engine for any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .bots import parse_spec
from .bots._cave import Cave
from .bots._encoding import FIRST_RELIC, encoding
from .bots._features import (
    Features,
    cards_leaves,
    carry_leaves,
    ev_leaves,
    hazards_leaves,
    risk_leaves,
)
from .cards import Rules
from .engine import ROUNDS

VectorPolicy = Callable[[Features, np.random.Generator], np.ndarray]
"""Decides for every row at once: True where the player leaves."""

_FORMULAS = {
    "cards": cards_leaves,
    "carry": carry_leaves,
    "hazards": hazards_leaves,
    "risk": risk_leaves,
    "ev": ev_leaves,
}


def vector_policy(spec: str) -> VectorPolicy | None:
    """The array version of computer player ``spec``, or None if it has none."""
    kind, param = parse_spec(spec)
    if kind.name == "random":
        p = float(param)
        return lambda f, rng: rng.random(f.step.shape[0]) < p
    formula = _FORMULAS.get(kind.name)
    if formula is None:
        return None
    return lambda f, rng: formula(f, param)


@dataclass
class FastGames:
    """The outcome of a batch of games (one row per game, one column per seat)."""

    scores: np.ndarray
    """(games, seats) final scores."""
    cards: np.ndarray
    """(games, rounds) cards revealed in each round."""
    disasters: np.ndarray
    """(games, rounds) True where the round ended in disaster."""
    decks: np.ndarray | None = None
    """(games, rounds, ids) card ids in the order they would be turned (if kept)."""


def play(
    rules: Rules | str,
    policies: list[VectorPolicy],
    games: int,
    rng: np.random.Generator,
    *,
    keep_decks: bool = False,
    rounds: int = ROUNDS,
) -> FastGames:
    """Play ``games`` games, seat ``i`` following ``policies[i]``.

    One player alone, and fewer than five rounds, are allowed here (the rules need three
    players and five rounds) for reference figures such as solo play.
    """
    enc = encoding(Rules.parse(rules))
    seats, size = len(policies), enc.size
    present = np.zeros((games, size + 1), dtype=np.int64)
    present[:, :size] = 1
    if enc.rules is Rules.RELIC_VARIANT:
        present[:, FIRST_RELIC:size] = 0  # one relic joins the deck per round
    relic_ids = np.flatnonzero(enc.relic[:size])
    scores = np.zeros((games, seats), dtype=np.int64)
    taken = np.zeros(games, dtype=np.int64)
    cards = np.zeros((games, rounds), dtype=np.int64)
    disasters = np.zeros((games, rounds), dtype=bool)
    decks = np.zeros((games, rounds, size), dtype=np.int8) if keep_decks else None
    rows = np.arange(games)
    for rnd in range(rounds):
        if enc.rules is Rules.RELIC_VARIANT:
            present[:, FIRST_RELIC + rnd] = 1
        keys = rng.random((games, size))
        keys[present[:, :size] == 0] = 2.0  # absent cards sort last, never drawn
        order = np.argsort(keys, axis=1)
        if decks is not None:
            decks[:, rnd] = order
        by_step = np.ascontiguousarray(order.T)  # row t: the t-th card of every game
        cave = Cave(enc, present, np.ones((seats, games), dtype=bool), taken)
        ruin = np.full(games, enc.null)
        step = np.zeros(games, dtype=np.int64)
        playing = rows  # the games still in the cave arrays, as indices into all games
        for t in range(size):
            active = cave.active
            if not active.all():
                # Set the finished rounds aside once half are done: the longest rounds
                # run far past the average one, and the arrays shrink with them.
                done = ~active
                if done.sum() * 2 >= active.size:
                    _set_aside(cave, done, playing, scores, step, taken)
                    cave.keep(active)
                    playing, by_step = playing[active], by_step[:, active]
                    if not playing.size:
                        break
            drawn = np.where(cave.active, by_step[t], enc.null)
            disaster = cave.reveal(drawn)
            ruin[playing[disaster]] = drawn[disaster]
            if cave.active.any():
                f = cave.features()
                leaving = np.stack([policy(f, rng) for policy in policies])
                cave.leave(leaving)
        everyone = np.ones(playing.size, dtype=bool)
        _set_aside(cave, everyone, playing, scores, step, taken)
        cards[:, rnd] = step
        hit = ruin != enc.null
        disasters[:, rnd] = hit
        # After the round: the disaster's hazard card and every relic turned leave the game.
        present[rows[hit], ruin[hit]] = 0
        if relic_ids.size:
            # A card was turned when its key is at most that of the round's last card.
            last = order[rows, np.maximum(step - 1, 0)]
            turned = keys[:, relic_ids] <= keys[rows, last][:, None]
            present[:, relic_ids] &= ~turned
    return FastGames(scores, cards, disasters, decks)


def _set_aside(cave: Cave, games: np.ndarray, playing: np.ndarray, scores: np.ndarray,
               step: np.ndarray, taken: np.ndarray) -> None:
    """Copy the round's outcome of the selected cave games into the per-game totals."""
    where = playing[games]
    scores[where] += cave.banked[:, games].T
    step[where] = cave.step[games]
    taken[where] = cave.relics_taken[games]
