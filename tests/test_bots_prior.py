"""The expert's prior: denser on the parameters players usually have."""

from __future__ import annotations

import random

import numpy as np
import pytest

from diamant_tui.bots._model import (
    CARDS, CARRY, EV, FAMILY, HAZARDS, MIRROR, PARAM, RANDOM, RISK, Beliefs,
)
from diamant_tui.bots.expert import ExpertBot
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.sim.simulate import play_game


def _weight(beliefs: Beliefs, family: int, param: float | None = None) -> float:
    w = beliefs.weights(0)
    chosen = FAMILY == family
    if param is not None:
        chosen &= np.isclose(PARAM, param)
    return float(w[chosen].sum())


def test_a_flat_prior_weighs_every_parameter_of_a_family_alike():
    flat = Beliefs(2)
    assert _weight(flat, CARRY, 20) == pytest.approx(_weight(flat, CARRY, 40))
    assert _weight(flat, HAZARDS) == pytest.approx(_weight(flat, CARDS))


@pytest.mark.parametrize("family, usual, rare", [
    (CARDS, 6, 15), (CARRY, 20, 40), (RISK, 1.0, 2.0), (EV, 1.2, 0.45)])
def test_a_usual_prior_is_that_many_times_as_dense_on_usual_parameters(family, usual, rare):
    beliefs = Beliefs(2, usual=4.0)
    assert _weight(beliefs, family, usual) == pytest.approx(4 * _weight(beliefs, family, rare))


def test_a_usual_prior_keeps_the_families_alike_but_the_rare_ones():
    beliefs = Beliefs(2, usual=4.0)
    each = [_weight(beliefs, f) for f in (CARDS, CARRY, RISK, EV)]
    assert each == pytest.approx([each[0]] * 4)
    assert _weight(beliefs, HAZARDS) == pytest.approx(each[0] / 4)
    assert _weight(beliefs, RANDOM) == pytest.approx(each[0] / 10)
    flat = Beliefs(2)
    # "A player like me" keeps its share of a family's weight.
    assert (_weight(beliefs, MIRROR) / each[0]
            == pytest.approx(_weight(flat, MIRROR) / _weight(flat, CARDS)))


def test_the_expert_starts_each_game_from_its_prior():
    bot = ExpertBot(rng=random.Random(1), usual=4.0)
    from diamant_tui.bots import make_bot
    game = Game(GameConfig(["me", "a", "b"], "classic"), seed=2)
    play_game(game, [bot, make_bot("ev", exact=True), make_bot("carry:20", exact=True)])
    assert game.over
    fresh = Beliefs(3, usual=4.0)
    bot._learn(Game(GameConfig(["me", "x", "y"], "classic"), seed=3).view_for(0))
    assert np.allclose(bot._beliefs.weights(1), fresh.weights(1))
