"""The fast path of ``diamant sim``: many games of rule-based players at once, in numpy.

Every game of a batch is one row of arrays. Each round, every row's deck is shuffled
(a random order of the cards present) and cards are turned one step at a time for all
rows together; the players' rules are array formulas (``bots/_features.py``, the same
formulas the engine-path players use), so a batch plays exactly as the engine would
on the same decks. :func:`play` can return those decks so that a test replays them
through :class:`diamant_tui.engine.game.Game`.

Only players whose rule is such a formula can play here (see :func:`vector_policy`);
the simulator falls back to the engine for any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..bots import parse_spec
from ..engine.cave import Cave
from ..engine.encoding import FIRST_RELIC, encoding
from ..bots._features import (
    cards_leaves,
    carry_leaves,
    ev_leaves,
    hazards_leaves,
    risk_leaves,
)
from ..engine.cards import Rules
from ..engine.config import ROUNDS

VectorPolicy = Callable[..., np.ndarray]
"""``policy(features, rng, rows=None)`` decides for every row at once: True where the
player leaves. ``rows`` are the games (as indices into the whole batch) that the rows of
``features`` stand for; a player with a parameter of its own in each game needs them."""

_FORMULAS = {
    "cards": cards_leaves,
    "carry": carry_leaves,
    "hazards": hazards_leaves,
    "risk": risk_leaves,
    "ev": ev_leaves,
}


def vector_policy(spec: str, params: np.ndarray | None = None) -> VectorPolicy | None:
    """The array version of computer player ``spec``, or None if it has none.

    ``params``, one per game of the batch, gives the player its own parameter in each
    game instead of the named one (see :func:`personal_params`).
    """
    kind, param = parse_spec(spec)
    if kind.name == "random":
        p = float(param)
        return lambda f, rng, rows=None: rng.random(f.step.shape[0]) < p
    formula = _FORMULAS.get(kind.name)
    if formula is None:
        return None
    if params is None:
        return lambda f, rng, rows=None: formula(f, param)
    return lambda f, rng, rows=None: formula(f, params if rows is None else params[rows])


def personal_params(spec: str, rng: np.random.Generator, games: int) -> np.ndarray | None:
    """The parameter of its own that player ``spec`` draws in each of ``games`` games,
    as :func:`diamant_tui.bots.make_bot` draws it (the same range, all values equally
    likely); None when the player keeps its named parameter."""
    kind, param = parse_spec(spec)
    found = None if param is None else kind.personal_range(param)
    if found is None:
        return None
    first, last, unit = found
    k = rng.integers(first, last + 1, size=games)
    # k / unit is exactly the number the name "risk:1.13" reads back as.
    return k if kind.integer else k / unit


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
                leaving = np.stack([policy(f, rng, playing) for policy in policies])
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
