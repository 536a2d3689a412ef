"""The expert's belief "a player like me": another player who chooses as it does."""

from __future__ import annotations

import random

import numpy as np

from diamant_tui.bots._model import CARDS, FAMILY, MIRROR, PARAM, Beliefs
from diamant_tui.bots._rollout import play_out
from diamant_tui.bots.expert import ExpertBot, plans
from diamant_tui.engine.features import Features
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.cards import parse_card
from diamant_tui.engine.view import Decision, Phase
from diamant_tui.sim.simulate import play_game

STEP = dict(n=3, deadly=4, hazards=2, shares=30, leftovers=2, path=1, relics_path=0,
            relics_gain=0, deck=20)


def _like_me(beliefs: Beliefs, seat: int) -> float:
    return float(beliefs.weights(seat)[FAMILY == MIRROR].sum())


def test_a_player_who_chooses_as_it_does_is_believed_to_be_like_it():
    beliefs = Beliefs(3)
    # Seat 1 leaves whenever "I" leave and goes on when I go on, at no fixed number of
    # cards, rubies or odds; seat 2 goes on when I leave and leaves when I go on.
    for step, carried, mine in ((2, 4, True), (3, 6, False), (5, 3, True), (4, 9, False),
                                (6, 5, True), (3, 12, False)):
        f = Features(step=step, carried=carried, **STEP)
        beliefs.observe(1, f, left=mine, mine=mine)
        beliefs.observe(2, f, left=not mine, mine=mine)
    assert _like_me(beliefs, 1) > 0.9
    assert _like_me(beliefs, 2) < 1e-6


def test_what_it_did_itself_unknown_tells_nothing_about_likeness():
    beliefs = Beliefs(2)
    before = _like_me(beliefs, 1)
    beliefs.observe(1, Features(step=3, carried=5, **STEP), left=True)
    beliefs.observe(1, Features(step=4, carried=0, **STEP), left=False)
    assert 0 < _like_me(beliefs, 1) and abs(_like_me(beliefs, 1) - before) < 0.5


def _three_in_the_cave():
    """Three players in the cave after T5 and T7: each carries 3, the path holds 3."""
    game = Game(GameConfig(["me", "other", "third"], "classic"), seed=0)
    game.reveal(parse_card("T5"))
    game.apply_decisions({s: Decision.CONTINUE for s in game.players_in_cave})
    game.reveal(parse_card("T7"))
    assert game.phase is Phase.DECISION
    view = game.view_for(0)
    assert (view.me.carried, view.rubies_on_path) == (3, 3)
    return view


def _certain(rule: np.ndarray) -> np.ndarray:
    return np.where(rule, 0.0, -1e9)


def test_a_player_like_it_shares_the_path_when_it_leaves():
    """Leaving now takes the whole path when the others go on, and half of it when one
    of them is like itself, and so leaves with it."""
    view = _three_in_the_cave()
    never = np.arange(FAMILY.size) == np.flatnonzero(FAMILY == CARDS)[-1]  # cards:20
    worth = {}
    for like in (False, True):
        beliefs = Beliefs(3)
        beliefs.log[1] = _certain(FAMILY == MIRROR if like else never)
        beliefs.log[2] = _certain(never)
        out = play_out(view, beliefs, plans(view, np.zeros(3)),
                       lambda banked: banked[0].astype(float), np.random.default_rng(1), 64)
        worth[like] = out.leave
    assert worth == {False: 3 + 3, True: 3 + 1}


def test_two_experts_come_to_believe_each_other_alike():
    """Over a game, an expert finds another expert more like itself than its prior did,
    and a simple player far less (on average over five games: in one game two experts
    may part at close calls often enough to doubt it)."""
    from diamant_tui.bots import make_bot

    found = np.zeros((2, 2))
    seeds = (3, 4, 5, 6, 7)
    for seed in seeds:
        bots = [ExpertBot(rng=random.Random(1)), ExpertBot(rng=random.Random(2)),
                make_bot("cards:5", exact=True)]
        game = play_game(Game(GameConfig(["a", "b", "c"], "classic"), seed=seed), bots)
        assert game.over
        for me, other in ((0, 1), (1, 0)):
            found[me] += (_like_me(bots[me]._beliefs, other), _like_me(bots[me]._beliefs, 2))
    found /= len(seeds)
    prior = _like_me(Beliefs(3, like_me=ExpertBot().like_me), 1)
    for me in (0, 1):
        assert found[me, 0] > prior > 0.1 > 0.01 > found[me, 1]


def test_it_expects_no_edge_over_a_player_like_itself():
    view = _three_in_the_cave()
    bot = ExpertBot(rng=random.Random(1))
    bot._beliefs = Beliefs(3)
    bot._beliefs.log[1] = _certain(FAMILY == MIRROR)
    bot._beliefs.log[2] = _certain(FAMILY != MIRROR)
    assert bot._edges(view)[:, 0].tolist() == [0.0, bot.edge]


def test_a_choice_against_a_close_call_of_its_own_tells_less_than_against_a_clear_one():
    """Given as a chance, what it would do itself: another player who chooses otherwise
    where the expert's own call was close loses less of the belief that it is like it
    than one who does so where the call was clear."""
    f = Features(step=3, carried=5, **STEP)
    close, clear = Beliefs(2, like_me=1.0), Beliefs(2, like_me=1.0)
    close.observe(1, f, left=False, mine=0.55)
    clear.observe(1, f, left=False, mine=0.99)
    assert _like_me(close, 1) > 3 * _like_me(clear, 1)


def test_the_play_outs_say_how_sure_the_choice_is():
    """The standard error of leaving against the best plan comes with the play-outs, and
    a call well past it is taken as certain, one at zero as even."""
    from diamant_tui.bots.expert import _chance_ahead

    view = _three_in_the_cave()
    beliefs = Beliefs(3)
    out = play_out(view, beliefs, plans(view, np.zeros(3)),
                   lambda banked: banked[0].astype(float), np.random.default_rng(1), 200)
    assert out.spread > 0
    assert _chance_ahead(0.0, out.spread) == 0.5
    assert _chance_ahead(10 * out.spread, out.spread) > 0.99
    assert _chance_ahead(-10 * out.spread, out.spread) < 0.01


def test_two_experts_who_weigh_their_calls_believe_each_other_alike():
    """With the likeness weighed by how sure each call was, an expert still finds another
    expert more like itself than a simple player."""
    bots = [ExpertBot(rng=random.Random(1), soft=0.0), ExpertBot(rng=random.Random(2), soft=0.0)]
    from diamant_tui.bots import make_bot
    bots.append(make_bot("cards:5", exact=True))
    game = play_game(Game(GameConfig(["a", "b", "c"], "classic"), seed=3), bots)
    assert game.over
    for me, other in ((0, 1), (1, 0)):
        assert _like_me(bots[me]._beliefs, other) > _like_me(bots[me]._beliefs, 2)
    assert _like_me(bots[0]._beliefs, 2) < _like_me(Beliefs(3), 2)  # below its prior


def test_play_can_count_only_on_likeness_gained_over_the_prior():
    """With ``excess``, a player no more like it than the prior says is played against as
    the simple rules it might follow, and one with more of that belief, for the excess."""
    plain, excess = Beliefs(2, like_me=1.0), Beliefs(2, like_me=1.0, excess=True)
    mirror = FAMILY == MIRROR
    assert plain.acting(1)[mirror].sum() > 0.1
    assert excess.acting(1)[mirror].sum() == 0.0
    assert abs(excess.acting(1).sum() - 1) < 1e-9
    for beliefs in (plain, excess):
        beliefs.log[1][mirror] += 3.0
    gained = excess.weights(1)[mirror].sum()
    prior = excess.mirror_prior
    assert abs(excess.acting(1)[mirror].sum() - (gained - prior) / (1 - prior)) < 1e-9
    assert plain.acting(1)[mirror].sum() == plain.weights(1)[mirror].sum()
