"""Each computer player has a parameter of its own, drawn around the named one, so that
two players of the same name at a table do not play as one."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from diamant_tui.sim import fast
from diamant_tui.bots import make_bot, parse_spec
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.sim.simulate import play_game, seat_names, simulate
from diamant_tui.table import SeatKind, Table
from diamant_tui.ui.setup_choices import SetupChoices
from diamant_tui.engine.view import Decision
from playing import play_out

# The parameter each player's rule keeps it in (see the dataclass of each player).
PARAM = {"cards": "n", "carry": "x", "risk": "caution", "ev": "caution", "hazards": "k"}
RANGES = {"cards:4": (3, 5), "cards:6": (5, 7), "carry:20": (15, 25), "risk": (0.7, 1.3),
          "ev:2": (1.4, 2.6), "hazards:4": (3, 5)}


def param_of(bot) -> float:
    return getattr(bot, PARAM[bot.spec.partition(":")[0]])


@pytest.mark.parametrize("spec", list(RANGES))
def test_each_player_draws_its_own_parameter_near_the_named_one(spec):
    kind, named = parse_spec(spec)
    low, high = RANGES[spec]
    drawn = [param_of(make_bot(spec, seed=seed)) for seed in range(300)]
    assert all(low <= p <= high for p in drawn)
    assert len(set(drawn)) >= 3
    assert statistics.mean(drawn) == pytest.approx(named, rel=0.06)
    assert param_of(make_bot(spec, seed=4)) == param_of(make_bot(spec, seed=4))
    assert param_of(make_bot(spec, seed=4, exact=True)) == named
    # Its name says what it plays: the name builds exactly the same player.
    bot = make_bot(spec, seed=7)
    assert param_of(make_bot(bot.spec, exact=True)) == param_of(bot)


def test_players_with_no_parameter_or_a_coarse_one_keep_it():
    assert make_bot("hazards:2", seed=1).spec == "hazards:2"  # 1.5 to 2.5 holds only 2
    assert make_bot("random:0.3", seed=1).spec == "random:0.3"
    assert make_bot("expert", seed=1).spec == "expert"


@pytest.mark.parametrize("spec", list(RANGES))
def test_the_fast_path_draws_from_the_same_range(spec):
    drawn = fast.personal_params(spec, np.random.default_rng(1), 4000)
    engine = {param_of(make_bot(spec, seed=seed)) for seed in range(4000)}
    assert set(drawn.tolist()) == engine


@pytest.mark.parametrize("rules", ["classic", "relics", "relic-variant"])
def test_fast_path_and_engine_agree_on_players_with_their_own_parameters(rules):
    """Each game's players, rebuilt by name from the parameters the fast path drew for
    that game, play the same game on the engine."""
    specs = ["ev", "risk", "cards:6", "carry:20", "risk"]
    games = 300
    rng = np.random.default_rng(5)
    params = [fast.personal_params(spec, rng, games) for spec in specs]
    policies = [fast.vector_policy(spec, p) for spec, p in zip(specs, params)]
    result = fast.play(rules, policies, games, rng, keep_decks=True)
    for g in range(games):
        names = [f"{spec.partition(':')[0]}:{p[g]:g}" for spec, p in zip(specs, params)]
        bots = [make_bot(name, exact=True) for name in names]
        game = play_game(Game(GameConfig(seat_names(specs), rules)), bots, result.decks[g])
        assert game.scores() == tuple(result.scores[g]), f"game {g}: {names}"


@pytest.mark.parametrize("engine", [False, True])
def test_players_of_one_name_no_longer_tie_every_game_and_the_seed_still_decides(engine):
    games = 200 if not engine else 40
    result = simulate("classic", ["risk"] * 3, games, seed=2, engine=engine)
    level = (result.scores == result.scores[:, :1]).all(axis=1)
    assert level.mean() < 0.5, "three risk players, each with a caution of its own"
    again = simulate("classic", ["risk"] * 3, games, seed=2, engine=engine)
    assert (again.scores == result.scores).all()
    exact = simulate("classic", ["risk"] * 3, games, seed=2, engine=engine, exact=True)
    assert (exact.scores == exact.scores[:, :1]).all(), "the named rule, three times"


async def _solo_game(seed: int) -> list[int]:
    """A game with the setup screen's defaults, the person leaving after four cards;
    the computer players' final scores."""
    table = Table(SetupChoices(name="ann").with_(seed=seed, pace=0).settings())
    ann = table.sit("ann", "key-ann")
    await play_out(ann, lambda view: Decision.LEAVE if view.step >= 4 else Decision.CONTINUE)
    await table.close()
    scores = table.game.scores()
    return [scores[s.seat] for s in table.seats if s.kind is SeatKind.BOT]


async def test_the_default_solo_game_no_longer_ends_with_the_computer_players_level():
    """With the defaults (three computer players of one strength), every game used to end
    with the three of them on the same score, having made every choice together."""
    level = 0
    for seed in range(1, 11):
        scores = await _solo_game(seed)
        assert len(scores) == 3
        level += len(set(scores)) == 1
    assert level <= 2, f"{level} of 10 games ended with the three computer players level"
