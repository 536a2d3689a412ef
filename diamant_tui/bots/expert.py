"""``expert``: plays out the rest of the round many times, against what it has learned
of the other players, and picks the choice with the better chance of winning the game.

What it weighs, in the rollouts of :mod:`._rollout`: leaving now banks what it carries
plus a share of the path (all of it, and the relics, if it leaves alone); going on may
bring more, and a later lone exit, or lose everything. Who else leaves, and when,
decides how the path is shared, so each other player is modelled as following one of
many simple rules, or as a player like itself (another expert, who makes the same choice
and so shares its exits), weighted by how well each explains what that player was seen
to do this game (:mod:`._model`), in the cave or, once it has left, watching the rest of
the round from camp (:meth:`ExpertBot.watch`). Each ending is scored by the chance of
winning the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import numpy as np

from ..engine.view import Decision, PlayerView, RoundResult
from ..engine.features import Features, features_from_view
from ._model import (
    CARDS, CARRY, EV, FAMILY, LIKE_ME, MIRROR, MIRROR_SLIP, RISK, USUAL, Beliefs,
)
from ._rollout import Plan, normal_chance, play_out, win_chance
from ._solo import solo_decision

SPREAD = 5.0
"""Spread (standard deviation) of one player's takings in one round, for the chance of
winning: with ``EDGE``, the figures that predicted best who won, at the start of each
round of 300 games in the README's line-up (classic)."""
EDGE = 3.0
"""Rubies a round the expert expects to take more than each other player, for the chance
of winning (it scores about 1.6 a round more than the simple players of the README's
line-up; 3, with a spread of 5, predicted the winners best). Over a player it believes
to be like itself it expects none, in proportion to that belief: two experts at one
table counted on it against each other."""


def plans(view: PlayerView, scores: np.ndarray) -> tuple[Plan, ...]:
    """Ways to go on after continuing now; the best of them is the value of continuing.

    The rule-based ways at several strengths (ev and risk at several cautions, "carry a
    few / many more rubies"), "one or two more cards, then leave" (which times a lone
    exit, to take the path and the relics alone), and in the last round "go on until
    carrying enough to lead". Adding the short ones and the spread of strengths won
    about six games in a hundred more than the first five plans alone.
    """
    carried = view.me.carried
    found = [Plan(EV, 1.0), Plan(RISK, 1.0), Plan(EV, 0.5), Plan(EV, 0.75), Plan(EV, 1.5),
             Plan(RISK, 0.5), Plan(RISK, 2.0),
             Plan(CARRY, carried + 3), Plan(CARRY, carried + 5), Plan(CARRY, carried + 8),
             Plan(CARRY, carried + 12), Plan(CARRY, carried + 25),
             Plan(CARDS, view.step + 1), Plan(CARDS, view.step + 2)]
    if view.round == view.rounds:
        others = np.delete(scores, view.seat)
        target = int(others.max()) - int(scores[view.seat]) + 1
        if target > carried:
            found.append(Plan(CARRY, target))
    return tuple(found)


@dataclass
class _Seen:
    """The last decision situation, to learn from what the others did in it."""

    names: tuple[str, ...]
    round: int
    step: int
    features: Features
    in_cave: tuple[int, ...]
    continued: bool
    like_me_leaves: bool | float | None
    """What a player like it would do here: its own choice, or the chance it leaves
    (None: it made no choice, having watched this step from camp)."""
    watched: bool = False
    """Seen from camp: it had left the cave before this step."""


@dataclass
class ExpertBot:
    """The strongest computer player here.

    For each choice it plays the rest of the round ``samples`` times (the unseen deck
    order at random; the others following the rules it believes they follow, learned from
    when they left so far this game) and scores every ending by the chance of winning
    the game: with rounds left, by its lead over each player measured against the usual
    spread of a round (and the edge it expects to keep over simple players, but not over
    a player like itself); in the last
    round, by who actually finishes first. So it plays
    for the win, not for rubies: safer when ahead, bolder when behind.
    """

    samples: int = 250
    most: int | None = None
    """If set, close calls are played out again, ``samples`` more at a time, up to this
    many play-outs in all (see :func:`._rollout.play_out`)."""
    clear: float = 2.0
    """A call is close while its two sides lie within this many standard errors."""
    spread: float = SPREAD
    edge: float = EDGE
    edge_mirror: bool = True
    like_me: float = LIKE_ME
    """Prior weight of "a player like me", in a family's weights."""
    mirror_slip: tuple[float, float] = MIRROR_SLIP
    """Chance that a player like me chooses otherwise than this one (see :mod:`._model`)."""
    excess: bool = True
    """Count on a player being like it only for the belief gained over the prior."""
    soft: float | None = 0.0
    """If set, a player like it leaves with the chance that leaving is the better choice,
    from this one's own play-outs (their noise, and this much more in win chance)."""
    usual: float = USUAL
    """How many times as dense its prior is on the parameters players usually have
    (:func:`._model._usual_prior`); 1, every parameter of a family alike."""
    solo: bool = True
    """Alone in the cave, play the exact choice (:mod:`._solo`)."""
    watching: bool = True
    """Learn from the steps it watches from camp (:meth:`watch`) as from those it plays."""
    rng: random.Random = field(default_factory=random.Random, repr=False)
    _beliefs: Beliefs | None = field(default=None, init=False, repr=False)
    _seen: _Seen | None = field(default=None, init=False, repr=False)

    @property
    def spec(self) -> str:
        return "expert"

    def decide(self, view: PlayerView) -> Decision:
        me = view.me
        if me is None or not me.in_cave:
            return Decision.CONTINUE
        features = features_from_view(view)
        self._learn(view)
        gen = np.random.default_rng(self.rng.getrandbits(64))
        scores = np.array([_score(view, s) for s in range(len(view.players))])[:, None]
        rounds_left = view.rounds - view.round
        mine = view.seat

        edge = self._edges(view)

        def value(banked: np.ndarray) -> np.ndarray:
            # Ties in the chance of winning go to the choice that banks more.
            chance = win_chance(scores + banked, mine, rounds_left, self.spread, edge)
            return chance + 1e-6 * banked[mine]

        exact = solo_decision(view, [int(x) for x in scores[:, 0]]) if self.solo else None
        like_me: bool | float
        if exact is not None:
            leave = like_me = exact is Decision.LEAVE
        else:
            ways = plans(view, scores[:, 0])
            outcome = play_out(view, self._beliefs, ways, value, gen, self.samples,
                               self.most, self.clear)
            leave = like_me = outcome.leave >= outcome.best_plan
            if self.soft is not None:
                like_me = _chance_ahead(outcome.leave - outcome.best_plan,
                                        np.hypot(np.sqrt(2) * outcome.spread, self.soft))
        self._seen = _Seen(
            _names(view), view.round, view.step, features,
            tuple(p.seat for p in view.in_cave), not leave, like_me,
        )
        return Decision.LEAVE if leave else Decision.CONTINUE

    def watch(self, view: PlayerView) -> None:
        """A step of the round seen from camp: it learns from who went on and who left
        as when it is in the cave, so that the end of the round has less to tell."""
        if not self.watching or view.me is None or view.me.in_cave or not view.in_cave:
            return
        self._learn(view)
        # Everyone still in the cave carries alike: the features of any of them.
        features = replace(features_from_view(view), carried=view.in_cave[0].carried)
        self._seen = _Seen(_names(view), view.round, view.step, features,
                           tuple(p.seat for p in view.in_cave), False, None, watched=True)

    def _edges(self, view: PlayerView) -> np.ndarray:
        """The edge it expects over each other player, a column (others, 1): none over a
        player it believes plays like itself."""
        others = [s for s in range(len(view.players)) if s != view.seat]
        if not self.edge_mirror:
            return np.full((len(others), 1), self.edge)
        like_me = np.array([self._beliefs.acting(s)[FAMILY == MIRROR].sum() for s in others])
        return (self.edge * (1.0 - like_me))[:, None]

    def _learn(self, view: PlayerView) -> None:
        """Update beliefs with what the others chose after the last decision."""
        seen = self._seen
        names = _names(view)
        if seen is None or seen.names != names or (view.round, view.step) < (seen.round, seen.step):
            self._beliefs = Beliefs(len(view.players), self.like_me, self.mirror_slip,
                                   self.excess, self.usual)  # a new game (or table)
            self._seen = None
            return
        if (view.round, view.step) == (seen.round, seen.step):
            return
        others = [s for s in seen.in_cave if s != view.seat]
        if view.round == seen.round and view.step == seen.step + 1:
            # The next step, in the cave or watched from camp: who left is plain.
            for s in others:
                self._beliefs.observe(s, seen.features, not view.players[s].in_cave,
                                      seen.like_me_leaves)
            return
        if view.round != seen.round + 1 or not view.round_results:
            return
        result = view.round_results[-1]
        if result.round != seen.round:
            return
        mine = result.banked[view.seat]
        last = result.cards - 1 if result.disaster else result.cards
        if seen.watched:
            self._learn_end_watched(result, seen, others, last)
            return
        for s in others:
            if result.banked[s] is None:
                continue  # hidden chests hide what others banked
            if seen.continued:
                # The round ended in disaster on the next card: who banked had left.
                if seen.features.carried + seen.features.path > 0:
                    self._beliefs.observe(s, seen.features, result.banked[s] > 0,
                                          seen.like_me_leaves)
                continue
            # It left after card seen.step: whoever banked just as much left with it;
            # the others' later choices it did not see, but the round's end tells a bit.
            if mine == 0:
                continue  # nothing tells who left with it
            went_with = result.banked[s] == mine
            self._beliefs.observe(s, seen.features, went_with, seen.like_me_leaves)
            if not went_with:
                self._bound_unseen(s, result.banked[s], result.disaster is not None, last)

    def _learn_end_watched(self, result: RoundResult, seen: _Seen, others: list[int],
                           last: int) -> None:
        """The round ended after the last step it watched from camp: who banked left then
        (the others went on into the disaster); after steps it missed, the bounds only."""
        for s in others:
            banked = result.banked[s]
            if banked is None:
                continue  # hidden chests hide what others banked
            if last == seen.step:
                # Whoever left banked what it carried at least; with nothing carried, a
                # player who banked nothing may have left too (a path shared to nothing).
                if banked > 0 or seen.features.carried > 0:
                    self._beliefs.observe(s, seen.features, banked > 0, None)
            else:
                self._bound_unseen(s, banked, result.disaster is not None, last)

    def _bound_unseen(self, seat: int, banked: int, disaster: bool, last: int) -> None:
        """What the round's end tells of choices it did not see: a player who banked
        nothing in a disaster went on to its last card, one who banked left by then."""
        if banked == 0 and disaster:
            self._beliefs.went_on_until(seat, last)
        elif banked > 0:
            self._beliefs.left_by(seat, last, banked)


def _chance_ahead(margin: float, noise: float) -> float:
    """Chance that a margin measured with this much noise is above zero."""
    if noise <= 0:
        return float(margin >= 0)
    return float(normal_chance(margin / noise))


def _names(view: PlayerView) -> tuple[str, ...]:
    return tuple(p.name for p in view.players)


def _score(view: PlayerView, seat: int) -> int:
    """Score so far. A hidden chest is taken to hold as many rubies as its own."""
    player = view.players[seat]
    chest = player.chest if player.chest is not None else view.me.chest or 0
    return chest + player.relic_points
