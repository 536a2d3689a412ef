"""The expert plays a close call out again, and a clear one only once."""

from __future__ import annotations

import random

import numpy as np

from diamant_tui.bots._model import Beliefs
from diamant_tui.bots._rollout import play_out
from diamant_tui.bots.expert import ExpertBot, plans
from diamant_tui.engine.cards import parse_card
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.view import Decision, Phase


def _view(cards: tuple[str, ...]):
    """Three players in the cave after ``cards``."""
    game = Game(GameConfig(["me", "other", "third"], "classic"), seed=0)
    for i, code in enumerate(cards):
        game.reveal(parse_card(code))
        if i + 1 < len(cards):
            game.apply_decisions({s: Decision.CONTINUE for s in game.players_in_cave})
    assert game.phase is Phase.DECISION
    return game.view_for(0)


class _Counted:
    """Rubies banked by seat 0, counting the play-outs it is asked to score."""

    def __init__(self) -> None:
        self.scored = 0

    def __call__(self, banked: np.ndarray) -> np.ndarray:
        self.scored += banked.shape[1]
        return banked[0].astype(float)


def _played(view, most, clear, samples=100) -> tuple[int, object]:
    value = _Counted()
    ways = plans(view, np.zeros(3))
    out = play_out(view, Beliefs(3), ways, value, np.random.default_rng(1), samples,
                   most, clear)
    return value.scored // (1 + len(ways)), out


def test_a_close_call_draws_more_play_outs_up_to_the_most_allowed():
    view = _view(("T5", "T7"))
    drawn, out = _played(view, most=400, clear=float("inf"))
    assert drawn == 400
    assert out.spread > 0


def test_a_clear_call_is_played_out_once():
    # Nothing at stake and no trap showing: going on is clearly better than leaving.
    view = _view(("T5",))
    drawn, out = _played(view, most=400, clear=2.0)
    assert out.best_plan - out.leave > 2.0 * out.spread
    assert drawn == 100


def test_without_a_most_the_play_outs_are_drawn_once():
    drawn, _ = _played(_view(("T5", "T7")), most=None, clear=float("inf"))
    assert drawn == 100


def test_more_play_outs_narrow_the_standard_error():
    view = _view(("T5", "H:lava", "T7"))
    _, once = _played(view, most=None, clear=float("inf"))
    _, more = _played(view, most=900, clear=float("inf"))
    assert more.spread < 0.6 * once.spread


def test_the_expert_plays_close_calls_out_again_only_with_a_ceiling(monkeypatch):
    """The expert passes its ceiling and its measure of a close call to the play-outs."""
    import diamant_tui.bots.expert as expert

    drawn: list[int] = []
    real = expert.play_out

    def watched(view, beliefs, ways, value, gen, samples, most, clear):
        def counted(banked):
            drawn.append(banked.shape[1] // (1 + len(ways)))
            return value(banked)
        return real(view, beliefs, ways, counted, gen, samples, most, clear)

    monkeypatch.setattr(expert, "play_out", watched)
    view = _view(("T5", "H:lava", "T7"))
    ExpertBot(rng=random.Random(3), samples=50).decide(view)
    assert drawn == [50]
    drawn.clear()
    ExpertBot(rng=random.Random(3), samples=50, most=200, clear=float("inf")).decide(view)
    assert drawn == [50, 50, 50, 50]
