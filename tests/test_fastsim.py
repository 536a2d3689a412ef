"""The numpy fast path plays exactly the games the engine plays (RULES.md, all rule sets)."""

from __future__ import annotations

import numpy as np
import pytest

from diamant_tui.sim import fast
from diamant_tui.bots import make_bot
from diamant_tui.engine.features import features_from_view
from diamant_tui.bots._model import (
    CARDS, CARRY, EV, FAMILY, HAZARDS, PARAM, RISK, family_terms,
)
from diamant_tui.bots._rollout import cave_from_view
from diamant_tui.engine.encoding import encoding
from diamant_tui.engine.cards import Hazard, HazardType, Relic, Rules, Treasure
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.sim.simulate import play_game, seat_names
from diamant_tui.engine.view import Decision, Phase

LINEUP = ["ev", "risk", "cards:6", "carry:20", "ev:2"]
MORE = ["hazards:2", "risk:0.5", "cards:9"]


def _policies(specs):
    return [fast.vector_policy(spec) for spec in specs]


@pytest.mark.parametrize("rules", list(Rules))
def test_fast_path_and_engine_agree_on_the_same_decks(rules):
    """Replaying the decks the fast path drew through the engine, with the same players
    deciding from their views, gives the same scores and round lengths, game by game."""
    games = 700
    result = fast.play(rules, _policies(LINEUP), games, np.random.default_rng(7),
                          keep_decks=True)
    for g in range(games):
        bots = [make_bot(spec, exact=True) for spec in LINEUP]
        game = play_game(Game(GameConfig(seat_names(LINEUP), rules)), bots, result.decks[g])
        assert game.scores() == tuple(result.scores[g]), f"game {g}"
        assert [r.cards for r in game.round_results] == list(result.cards[g]), f"game {g}"
        assert [r.disaster is not None for r in game.round_results] == list(result.disasters[g])


def test_every_game_of_three_to_eight_players_agrees_with_the_engine():
    """Any table size from 3 to 8 plays alike on both paths."""
    rng = np.random.default_rng(3)
    for seats in range(3, 9):
        specs = (LINEUP + MORE)[:seats]
        result = fast.play("relics", _policies(specs), 60, rng, keep_decks=True)
        for g in range(60):
            game = play_game(Game(GameConfig(seat_names(specs), "relics")),
                             [make_bot(s, exact=True) for s in specs], result.decks[g])
            assert game.scores() == tuple(result.scores[g])


def test_relics_join_the_variant_deck_one_per_round_and_leave_once_revealed():
    """relic-variant: one relic is added per round, lowest first; every relic revealed
    is removed from the game, so none is ever revealed twice."""
    enc = encoding(Rules.RELIC_VARIANT)
    result = fast.play(Rules.RELIC_VARIANT, _policies(["cards:12"] * 3), 300,
                          np.random.default_rng(1), keep_decks=True)
    for g in range(300):
        seen: list[int] = []
        for rnd in range(5):
            turned = [enc.cards[i] for i in result.decks[g, rnd, :result.cards[g, rnd]]]
            relics = [c.value for c in turned if isinstance(c, Relic)]
            assert all(v <= (5, 7, 8, 10, 12)[rnd] for v in relics)
            seen += relics
        assert len(seen) == len(set(seen))


def test_a_disaster_removes_one_card_of_its_hazard_for_good():
    """After a disaster one card of that type is removed from the game."""
    enc = encoding(Rules.CLASSIC)
    result = fast.play(Rules.CLASSIC, _policies(["cards:40"] * 3), 300,
                          np.random.default_rng(5), keep_decks=True)
    for g in range(300):
        removed: list = []
        for rnd in range(5):
            # The deck of this round comes first in the order; absent cards follow.
            deck = [enc.cards[i] for i in result.decks[g, rnd, :30 - rnd]]
            for h in HazardType:
                assert deck.count(Hazard(h)) == 3 - removed.count(h)
            assert sum(isinstance(c, Treasure) for c in deck) == 15
            disaster = deck[result.cards[g, rnd] - 1]
            removed.append(disaster.type)


def test_nobody_leaving_means_every_round_ends_in_disaster():
    """'A round ends in disaster at the latest when a sixth hazard is revealed.'"""
    result = fast.play("classic", _policies(["cards:40"] * 4), 2000, np.random.default_rng(2))
    assert result.disasters.all()
    assert (result.scores == 0).all()
    assert result.cards.max() <= 15 + 6
    # NOTES.md: with nobody leaving a round ends on card 7.4 on average (round 1).
    assert abs(result.cards[:, 0].mean() - 7.4) < 0.2


def test_solo_reference_figures():
    """NOTES.md, classic deck, one player alone, first round: leaving when
    carried x 2h >= treasure left averages about 17.3 rubies; after 6 cards about 16.8."""
    rng = np.random.default_rng(11)
    risk = fast.play("classic", _policies(["risk"]), 100_000, rng, rounds=1)
    six = fast.play("classic", _policies(["cards:6"]), 100_000, rng, rounds=1)
    assert abs(risk.scores.mean() - 17.3) < 0.2
    assert abs(six.scores.mean() - 16.8) < 0.2


def test_random_players_leave_at_their_rate():
    """``random:P`` leaves with probability P after each card (its own random stream)."""
    result = fast.play("classic", _policies(["random:0.5"] * 3), 5000, np.random.default_rng(4))
    # Each player is still in after the first card with chance 1/2: all three leave by
    # card 1 with chance 1/8, so rounds of one card are about that common.
    one_card = (result.cards == 1).mean()
    assert 0.11 < one_card < 0.14


def test_only_rule_based_players_have_an_array_version():
    """The expert is not a formula: the simulator must use the engine for it."""
    assert fast.vector_policy("expert") is None
    for spec in ("cards:5", "carry:10", "hazards:3", "random:0.1", "risk:1.5", "ev"):
        assert fast.vector_policy(spec) is not None


# -- the expert's look-ahead starts from the view and plays on like the engine ----------


def _mid_round_games(rules, count, seed):
    """Engine games stopped at a random decision, with the players that got them there."""
    rng = np.random.default_rng(seed)
    for g in range(count):
        specs = list(rng.choice(LINEUP + MORE, size=int(rng.integers(3, 9))))
        game = Game(GameConfig(seat_names(specs), rules), seed=g)
        bots = [make_bot(s, exact=True) for s in specs]
        stop = int(rng.integers(1, 40))
        for _ in range(stop):
            if game.over:
                break
            if game.phase is Phase.DECISION:
                game.apply_decisions({s: bots[s].decide(game.view_for(s))
                                      for s in game.players_in_cave})
            else:
                game.reveal_random()
        if game.phase is Phase.DECISION:
            yield game, specs, bots


@pytest.mark.parametrize("rules", list(Rules))
def test_the_look_ahead_sees_what_the_view_shows(rules):
    """Built from a player's view, the array round has the numbers the player sees."""
    for game, _, _ in _mid_round_games(rules, 150, 1):
        seat = game.players_in_cave[0]
        view = game.view_for(seat)
        mine = features_from_view(view)
        theirs = cave_from_view(view, 2).features()
        for name in vars(mine):
            assert (getattr(theirs, name) == getattr(mine, name)).all(), name


@pytest.mark.parametrize("rules", list(Rules))
def test_the_look_ahead_plays_the_rest_of_a_round_like_the_engine(rules):
    """From the middle of a round, the same cards and the same players give the same banks."""
    enc = encoding(rules)
    rng = np.random.default_rng(2)
    for game, specs, bots in _mid_round_games(rules, 150, 3):
        view = game.view_for(game.players_in_cave[0])
        rest = rng.permutation(enc.deck_ids(view.deck))
        before = [game.score(s) for s in range(len(specs))]
        cave = cave_from_view(view, 1)
        policies = _policies(specs)
        # Engine: decide now, then reveal the chosen cards until the round is over.
        cards = iter(rest)
        while game.phase in (Phase.DECISION, Phase.REVEAL):
            if game.phase is Phase.DECISION:
                game.apply_decisions({s: bots[s].decide(game.view_for(s))
                                      for s in game.players_in_cave})
            else:
                game.reveal(enc.cards[next(cards)])
        banked = [game.score(s) - before[s] for s in range(len(specs))]
        # Arrays: the same, one game wide.
        cave.leave(np.stack([p(cave.features(), None) for p in policies])[:, None, 0])
        for card in rest:
            if not cave.active.any():
                break
            cave.reveal(np.array([card]))
            if cave.active.any():
                cave.leave(np.stack([p(cave.features(), None) for p in policies])[:, None, 0])
        assert cave.banked[:, 0].tolist() == banked


def test_the_experts_candidate_rules_predict_what_those_players_do():
    """The beliefs model 'cards:N', 'carry:X', 'hazards:K', 'risk:F' and 'ev:F' exactly."""
    names = {CARDS: "cards", CARRY: "carry", HAZARDS: "hazards", RISK: "risk", EV: "ev"}
    # Cautions that are sums of powers of two multiply whole numbers exactly, as the bots do.
    exact_caution = np.isin(PARAM, [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 5])
    exact = np.isin(FAMILY, [CARDS, CARRY, HAZARDS]) | (np.isin(FAMILY, [RISK, EV]) & exact_caution)
    for rules in Rules:
        for game, _, _ in _mid_round_games(rules, 60, 4):
            view = game.view_for(game.players_in_cave[0])
            a, b = family_terms(features_from_view(view))
            predicted = PARAM * a[FAMILY] >= b[FAMILY]
            for i in np.flatnonzero(exact):
                spec = f"{names[int(FAMILY[i])]}:{PARAM[i]:g}"
                assert (make_bot(spec, exact=True).decide(view) is Decision.LEAVE) == predicted[i], spec
