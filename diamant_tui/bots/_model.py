"""What the expert believes about the other players: which simple rule each one follows.

A belief is a weight per candidate rule (leave after N cards, at X rubies, at K hazards,
the risk and ev formulas at many cautions, leave at random, or "a player like me": one who
makes the same choice as the one who believes, as another expert does). Each time a player is
seen to continue or leave, rules that predicted otherwise lose weight (Bayes' rule with
a small chance of a slip, so a person who follows no rule exactly is still modelled).
"""

from __future__ import annotations

import numpy as np

from ..engine.features import Features

CARDS, CARRY, HAZARDS, RISK, EV, RANDOM, MIRROR = range(7)
SLIP = 0.03
"""Chance that a player does not do what its rule says (keeps beliefs from dying out)."""
LIKE_ME = 2.0
"""Prior weight of "a player like me", in a family's weights. With the likelihood of
such a player's choices taken from the expert's own play-outs (``ExpertBot.soft``) and
only the belief gained over this prior counted on (``ExpertBot.excess``), two experts
against two ``ev`` players take 60.6 / 54.4 / 55.4 % of the wins where a tenth of a
family's weight gave 56.8 / 46.2 / 54.2 %; one expert in the README's line-up, watching
from camp, loses nothing measurable by it (-0.1, -0.3 and -0.6 points, about ±1 each,
1,000 games per rule set). Before it watched from camp, the same belief cost that line-up
about two points in classic, and a tenth was played (README)."""
USUAL = 4.0
"""How many times as dense the expert's prior is on the parameters players are usually
given (:func:`_usual_prior`): in 1,000-game trials on two seeds, 1.2 to 1.6 games in a
hundred more in each rule set than a prior alike over every parameter (README); ten
times as dense helped less."""
MIRROR_SLIP = (SLIP, SLIP)
"""Chance that a player like me does not make the choice the one who believes made: when
that one goes on, and when it leaves."""


CAUTIONS = (0.25, 0.35, 0.45, 0.5, 0.55, 0.6, 0.65) + tuple(
    round(0.7 + 0.05 * k, 2) for k in range(13)) + (1.4, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0)
"""Cautions of the ``risk`` and ``ev`` candidates: every twentieth over 0.7 to 1.3, where
the personalities of the players named ``risk`` and ``ev`` lie, coarser outside."""


def _candidates() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(family, parameter, log prior) of every candidate rule.

    The grid is fine where players' own parameters fall (``cards:6`` leaves after 5 to 7
    cards, ``carry:20`` at 15 to 25 rubies, ``risk`` and ``ev`` have cautions of 0.7 to
    1.3). With every whole number of rubies up to 30 and cautions a twentieth apart the
    expert won about three games in a hundred more in the relic rule sets than with the
    first, coarser grid (which had no ``carry:17`` and only 0.75, 1 and 1.25 in that range)
    in 1,000-game trials, and 0.5 to 1 more over 2,000 games per rule set (README).
    """
    rules: list[tuple[int, float]] = []
    rules += [(CARDS, n) for n in range(1, 21)]
    rules += [(CARRY, x) for x in (*range(2, 31), 32, 35, 40, 45, 50, 60, 80)]
    rules += [(HAZARDS, k) for k in (1, 2, 3, 4)]
    rules += [(RISK, f) for f in CAUTIONS]
    rules += [(EV, f) for f in CAUTIONS]
    rules += [(RANDOM, p) for p in (0.05, 0.1, 0.2, 0.3, 0.5)]
    # A player like the one who believes (another expert): it leaves when that one leaves
    # and then follows the same plan, so every exit is shared with it.
    rules += [(MIRROR, 0.0)]
    family = np.array([r[0] for r in rules])
    param = np.array([r[1] for r in rules], dtype=np.float64)
    return family, param, _prior(family)


def _prior(family: np.ndarray) -> np.ndarray:
    """Log prior weights: each family alike, shared evenly among its parameters.

    The expert plays with a prior denser on the usual parameters (:func:`_usual_prior`):
    an early one that favoured "typical" players only (a few cards deep, cautions near 1)
    won fewer games, as expecting early leavers makes the expert quicker to take the path
    alone, which pays; one that keeps every parameter, only less likely, won more.
    """
    sizes = np.bincount(family)
    return np.log(1.0 / (sizes.size * sizes[family]))


def _like_me_prior(like_me: float, usual: float = 1.0) -> np.ndarray:
    """The prior with "a player like me" given ``like_me`` times a family's weight, and,
    with ``usual`` above 1, each family's weight that many times as dense on the usual
    parameters (see :func:`_usual_prior`)."""
    prior = PRIOR if usual == 1.0 else _usual_prior(usual)
    return prior + np.where(FAMILY == MIRROR, np.log(like_me), 0.0)


def _usual_prior(usual: float) -> np.ndarray:
    """Log prior weights with each family's weight ``usual`` times as dense on the
    parameters players are usually given (``cards`` 3 to 8, ``carry`` 12 to 28, cautions
    0.6 to 1.5) as elsewhere; ``hazards`` a quarter and ``random`` a tenth of a family's
    weight, as players seldom follow them."""
    common = (((FAMILY == CARDS) & (PARAM >= 3) & (PARAM <= 8))
              | ((FAMILY == CARRY) & (PARAM >= 12) & (PARAM <= 28))
              | (np.isin(FAMILY, (RISK, EV)) & (PARAM >= 0.6) & (PARAM <= 1.5)))
    weight = np.where(common, usual, 1.0)
    family_weight = np.select([FAMILY == HAZARDS, FAMILY == RANDOM], [0.25, 0.1], 1.0)
    totals = np.bincount(FAMILY, weights=weight)
    return np.log(family_weight * weight / (totals.size * totals[FAMILY]))


FAMILY, PARAM, PRIOR = _candidates()


def family_terms(f: Features) -> tuple[np.ndarray, np.ndarray]:
    """(A, B) per family, so that a rule of that family with parameter p leaves when p*A >= B.

    Each is an array (families, ...) over the shape of the features' fields. The
    ``random`` and ``mirror`` rows are placeholders: callers compare with their own
    uniforms, and a mirror copies a choice that no formula gives.
    """
    stake = f.carried + f.path + f.relics_path
    one = np.ones_like(np.asarray(f.step), dtype=np.float64)
    a = np.stack(np.broadcast_arrays(
        -one, -one, -one, f.deadly * f.carried, f.deadly * stake, one, one
    )).astype(np.float64)
    b = np.stack(np.broadcast_arrays(
        -np.asarray(f.step), -np.asarray(f.carried), -np.asarray(f.hazards),
        f.shares, f.shares + f.leftovers + f.relics_gain, 0 * one, 0 * one,
    )).astype(np.float64)
    return a, b


class Beliefs:
    """Log-weights over the candidate rules, one row per seat."""

    def __init__(self, seats: int, like_me: float = LIKE_ME,
                 mirror_slip: tuple[float, float] = MIRROR_SLIP, excess: bool = False,
                 usual: float = 1.0) -> None:
        self.log = np.tile(_like_me_prior(like_me, usual), (seats, 1))
        self.mirror_slip = mirror_slip
        prior = np.exp(self.log[0] - self.log[0].max())
        self.mirror_prior = float(prior[FAMILY == MIRROR].sum() / prior.sum()) if excess else 0.0
        """Weight of "a player like me" that play does not count on: its prior, if
        ``excess``, so that only evidence beyond the prior makes it expect shared exits."""

    def observe(self, seat: int, f: Features, left: bool,
                mine: bool | float | None = None) -> None:
        """``seat`` was seen to leave (or continue) in the situation ``f`` (plain numbers),
        where the one who believes chose to leave (``mine`` True) or not (False); or, as a
        number, the chance that a player like it would leave there.

        ``mine`` None: the one who believes made no choice there (it watched from camp).
        "A player like me" is then taken to choose as the other rules, weighed by the
        belief, predict on the whole, so that what is watched moves no weight to or from it.
        """
        a, b = family_terms(f)
        leaves = PARAM * a[FAMILY] >= b[FAMILY]
        chance = np.where(leaves == left, 1 - SLIP, SLIP)
        random = FAMILY == RANDOM
        chance[random] = PARAM[random] if left else 1 - PARAM[random]
        mirror = FAMILY == MIRROR
        if mine is None:
            w = np.exp(self.log[seat] - self.log[seat].max())
            w[mirror] = 0.0
            chance[mirror] = float((w * chance).sum() / w.sum())
        elif not isinstance(mine, bool):
            leave = min(max(float(mine), SLIP), 1 - SLIP)
            chance[mirror] = leave if left else 1 - leave
        else:
            slip = self.mirror_slip[bool(mine)]
            chance[mirror] = 1 - slip if left == mine else slip
        self.log[seat] += np.log(chance)
        self.log[seat] -= self.log[seat].max()

    def rule_out(self, seat: int, unlikely: np.ndarray) -> None:
        """Candidates marked in ``unlikely`` could not have done what ``seat`` was seen to do."""
        self.log[seat] += np.where(unlikely, np.log(SLIP), 0.0)
        self.log[seat] -= self.log[seat].max()

    def went_on_until(self, seat: int, step: int) -> None:
        """``seat`` was still going on after card ``step`` (seen only afterwards)."""
        self.rule_out(seat, (FAMILY == CARDS) & (PARAM <= step))

    def left_by(self, seat: int, step: int, banked: int) -> None:
        """``seat`` left by card ``step`` at the latest, banking ``banked``."""
        self.rule_out(seat, ((FAMILY == CARDS) & (PARAM > step))
                      | ((FAMILY == CARRY) & (PARAM > banked)))

    def weights(self, seat: int) -> np.ndarray:
        """Normalised belief about ``seat``."""
        w = np.exp(self.log[seat] - self.log[seat].max())
        return w / w.sum()

    def acting(self, seat: int) -> np.ndarray:
        """The belief about ``seat`` that play counts on: "a player like me" only for the
        weight it has gained over its prior (all of it unless ``excess``)."""
        w = self.weights(seat)
        if self.mirror_prior <= 0:
            return w
        mirror = FAMILY == MIRROR
        kept = max(0.0, float(w[mirror].sum()) - self.mirror_prior) / (1 - self.mirror_prior)
        rest = w[~mirror].sum()
        out = np.where(mirror, 0.0, w * (1 - kept) / rest if rest > 0 else 0.0)
        out[mirror] = kept / mirror.sum()
        return out

    def sample(self, seat: int, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` candidate indices drawn from the belief about ``seat`` play counts on."""
        return rng.choice(FAMILY.size, size=size, p=self.acting(seat))
