"""Playing out the rest of a round many times from what one player sees.

The unseen order of the deck is drawn at random; the other players follow rules drawn
from the expert's beliefs (:mod:`._model`); the player itself either leaves now or
continues and then follows one of a few plans (and a player believed to be like it does
the same). Every plan meets the same card orders
and the same other players, so their comparison is not blurred by luck.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.view import PlayerView
from ..engine.cave import Cave
from ..engine.encoding import HAZARD_TYPES, encoding
from ..engine.features import Features
from ._model import CARDS, FAMILY, MIRROR, PARAM, RANDOM, Beliefs, family_terms

_LOGISTIC = 1.702  # logistic curve that follows the normal distribution function closely


@dataclass(frozen=True)
class Plan:
    """How the player goes on after continuing now: a rule of one family (see ``_model``)."""

    family: int
    param: float


@dataclass
class Outcome:
    """Mean value of each choice: leave now, then continue under each plan."""

    leave: float
    plans: tuple[float, ...]
    spread: float = 0.0
    """Standard error of (leave now) minus (the best plan), from the samples."""

    @property
    def best_plan(self) -> float:
        return max(self.plans)


def cave_from_view(view: PlayerView, games: int) -> Cave:
    """``games`` copies of the round as ``view`` shows it (deck order unknown)."""
    enc = encoding(view.rules)
    deck = np.zeros((1, enc.size + 1), dtype=np.int64)
    for i in enc.deck_ids(view.deck):
        deck[0, i] += 1
    in_cave = np.array([[p.in_cave] for p in view.players]).repeat(games, axis=1)
    showing = 0
    for h in set(view.hazards_showing):
        showing |= 1 << HAZARD_TYPES.index(h)
    relics = [pc.card for pc in view.path if pc.card.code.startswith("R") and not pc.taken]
    return Cave(
        enc, deck, in_cave, view.relics_taken,
        step=view.step,
        carried=view.me.carried if view.me else 0,
        path=view.rubies_on_path,
        showing=showing,
        relics_on_path=len(relics),
        printed_on_path=sum(getattr(card, "value", 0) or 0 for card in relics),
    )


def _decide(f: Features, family: np.ndarray, param: np.ndarray, uniform: np.ndarray) -> np.ndarray:
    """(seats, games) leave decisions of rules given per seat and game."""
    a, b = family_terms(f)
    games = family.shape[1]
    index = family * games + np.arange(games)
    leave = param * np.take(a, index) >= np.take(b, index)
    return np.where(family == RANDOM, uniform < param, leave)


def play_out(
    view: PlayerView,
    beliefs: Beliefs,
    plans: tuple[Plan, ...],
    value,
    rng: np.random.Generator,
    samples: int,
    most: int | None = None,
    clear: float = 2.0,
) -> Outcome:
    """Mean of ``value(banked)`` for leaving now and for continuing under each plan.

    ``value`` maps the rubies and relic points each seat banks in the rest of the round,
    an array (seats, games), to one number per game.

    With ``most`` above ``samples``, a close call is played out again: while leaving and
    the best plan are within ``clear`` standard errors of each other, another ``samples``
    play-outs are drawn (every choice meeting the same new deck orders), up to ``most``
    in all. A clear call costs no more than before.
    """
    each = _play_batch(view, beliefs, plans, value, rng, samples)
    while True:
        worth = each.mean(axis=1)
        best = 1 + int(np.argmax(worth[1:])) if len(worth) > 1 else 0
        spread = float(np.std(each[0] - each[best]) / np.sqrt(each.shape[1]))
        if (most is None or each.shape[1] + samples > most or best == 0
                or abs(worth[0] - worth[best]) > clear * spread):
            break
        more = _play_batch(view, beliefs, plans, value, rng, samples)
        each = np.concatenate([each, more], axis=1)
    return Outcome(float(worth[0]), tuple(float(w) for w in worth[1:]), spread)


def _play_batch(
    view: PlayerView,
    beliefs: Beliefs,
    plans: tuple[Plan, ...],
    value,
    rng: np.random.Generator,
    samples: int,
) -> np.ndarray:
    """``value(banked)`` of ``samples`` play-outs, per choice (leave now, then each plan),
    an array (1 + plans, samples); column k of every row meets the same deck order."""
    me = view.seat
    seats = len(view.players)
    blocks = 1 + len(plans)
    games = samples * blocks
    cave = cave_from_view(view, games)
    enc = cave.enc
    deck = np.array(enc.deck_ids(view.deck), dtype=np.int64)
    perm = np.argsort(rng.random((samples, deck.size)), axis=1)
    if deck.size:
        # The next card matters most: every card of the deck comes next in an equal share
        # of the samples (the rest of each order stays a uniform random shuffle).
        first = (np.arange(samples) + rng.integers(deck.size)) % deck.size
        where = np.argmax(perm == first[:, None], axis=1)
        perm[np.arange(samples), where] = perm[:, 0]
        perm[:, 0] = first
    order = deck[perm]
    order = np.tile(order, (blocks, 1))
    family = np.zeros((seats, samples), dtype=np.int64)
    param = np.zeros((seats, samples))
    for seat, player in enumerate(view.players):
        if player.in_cave and seat != me:
            drawn = beliefs.sample(seat, samples, rng)
            family[seat], param[seat] = FAMILY[drawn], PARAM[drawn]
    # A player like this one ("mirror") makes the same choice now and then follows the
    # same plan: in the block that leaves now it leaves too, in the others it goes on.
    mirror = np.tile(family == MIRROR, (1, blocks))
    family = np.tile(family, (1, blocks))
    param = np.tile(param, (1, blocks))
    family[mirror] = CARDS
    for k, plan in enumerate(plans, start=1):
        block = slice(k * samples, (k + 1) * samples)
        family[me, block] = plan.family
        param[me, block] = plan.param
        family[:, block] = np.where(mirror[:, block], plan.family, family[:, block])
        param[:, block] = np.where(mirror[:, block], plan.param, param[:, block])
    # The choice now: the others follow their rules, the player's is fixed per block.
    uniform = np.tile(rng.random((seats, samples)), (1, blocks))
    leaving = _decide(cave.features(), family, param, uniform)
    leaving[me] = False
    leaving[me, :samples] = True
    leaving[mirror] = False
    leaving[:, :samples] |= mirror[:, :samples]
    cave.leave(leaving)
    banked = np.zeros((seats, games), dtype=np.int64)
    rows = np.arange(games)  # the games still in the cave arrays
    for t in range(deck.size):
        active = cave.active
        if not active.all():
            if not active.any():
                break
            # Set finished games aside once half are done: long rounds run far past
            # the average one, and the arrays shrink with them.
            if active.sum() * 2 <= active.size:
                banked[:, rows[~active]] = cave.banked[:, ~active]
                cave.keep(active)
                rows, order = rows[active], order[active]
                family, param = family[:, active], param[:, active]
                active = cave.active
        cave.reveal(np.where(active, order[:, t], enc.null))
        if cave.active.any():
            uniform = rng.random(family.shape)
            cave.leave(_decide(cave.features(), family, param, uniform))
    banked[:, rows] = cave.banked
    return value(banked).reshape(blocks, samples)


_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(12)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()  # nodes and weights for the mean over a standard normal


def normal_chance(z):
    """The normal distribution function at ``z``: the chance that a quantity whose mean
    is ``z`` of its spreads above zero ends above zero (by the logistic curve that
    follows it closely)."""
    return 1.0 / (1.0 + np.exp(-_LOGISTIC * z))


def win_chance(totals: np.ndarray, me: int, rounds_left: int, spread: float,
               edge: float | np.ndarray = 0.0) -> np.ndarray:
    """Chance of winning the game, per column of ``totals`` (seats, games) of scores.

    With no round left it is the share of the win. Otherwise every player's takings over
    the rounds left are taken as normally spread, ``spread`` per round, and ``me`` is
    expected to take ``edge`` more than each other player per round (one number, or a
    column with one entry per other player, in seat order). Its own takings are
    one draw that every comparison shares, so the chance is the mean, over that draw, of
    the product of the chances of ending ahead of each other player (worked out at a few
    points, Gauss-Hermite). Five level players each get 1/5, as they should; treating
    the comparisons as independent, as a first version did, gave each 1/16, and a
    player ahead far too little.
    """
    if rounds_left <= 0:
        top = totals.max(axis=0)
        ties = (totals == top).sum(axis=0)
        return np.where(totals[me] == top, 1.0 / ties, 0.0)
    lead = np.delete(totals[me] - totals, me, axis=0) + edge * rounds_left
    sigma = spread * np.sqrt(rounds_left)
    z = (lead[None] + sigma * _NODES[:, None, None]) / sigma
    ahead = normal_chance(z)
    return np.tensordot(_WEIGHTS, np.prod(ahead, axis=1), axes=1)
