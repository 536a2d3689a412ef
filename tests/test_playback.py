"""A record played again step by step (engine/playback.py): the steps a spectator saw, in
order, and the same game at each step whichever way one gets there."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diamant_tui.engine.cards import Relic, Rules, Treasure, parse_card
from diamant_tui.engine.events import (
    CardRevealed,
    DecisionMade,
    DecisionsRevealed,
    GameEnded,
    PlayerLeft,
    RoundEnded,
    RoundStarted,
)
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.playback import Playback
from diamant_tui.engine.record import FORMAT, game_to_record, replay_record
from diamant_tui.engine.view import Decision, Phase

NAMES = ["ann", "bob", "cy"]
WORDS = {"C": "continue", "L": "leave"}


def rnd(cards: str, *decisions: str) -> dict:
    """A round in short hand (as in test_record.py): one letter per seat and step."""
    return {"cards": cards.split(), "decisions": [
        {NAMES[s]: WORDS[c] for s, c in enumerate(step) if c != "."} for step in decisions]}


def playback(*rounds: dict, rules: str = "relics") -> Playback:
    return Playback(replay_record({"format": FORMAT, "rules": rules, "players": NAMES,
                                   "rounds": list(rounds)}))


# RECORD.md's example: T9, snakes, the relic (ann leaves alone), T4 (cy leaves), snakes.
EXAMPLE = rnd("T9 H:snakes R T4 H:snakes", "CCC", "CCC", "LCC", ".CL")


def test_each_card_and_each_turn_of_choices_is_a_step_of_its_own():
    """Step 1: the round begins. Then a card, the choices after it, the next card..."""
    steps = playback(EXAMPLE)
    assert len(steps) == 1 + 5 + 4
    kinds = []
    for number in range(1, len(steps) + 1):
        events = steps.at(number).events
        kinds.append(type(next(e for e in events if not isinstance(e, DecisionMade))).__name__)
    assert kinds == ["RoundStarted", "CardRevealed", "DecisionsRevealed", "CardRevealed",
                     "DecisionsRevealed", "CardRevealed", "DecisionsRevealed", "CardRevealed",
                     "DecisionsRevealed", "CardRevealed"]


def test_the_choices_of_a_turn_are_revealed_together_and_only_after_the_card():
    """A spectator sees the card with nobody's choice, then every choice at once."""
    steps = playback(EXAMPLE)
    relic = steps.at(6)
    assert relic.view.path[-1].card == parse_card("R") and relic.view.phase is Phase.DECISION
    assert not any(p.decided for p in relic.view.players)
    chosen = steps.at(7)
    revealed = [e for e in chosen.events if isinstance(e, DecisionsRevealed)]
    assert revealed == [DecisionsRevealed(1, 3, continuing=(1, 2), leaving=(0,))]
    left = next(e for e in chosen.events if isinstance(e, PlayerLeft))
    assert left.seat == 0 and left.banked == 3 and [v for _, v in left.relics] == [5]


def test_the_last_step_ends_the_round_in_disaster():
    last = playback(EXAMPLE).at(10)
    assert [type(e) for e in last.events][-1] is RoundEnded
    assert last.view.phase is Phase.ROUND_OVER
    assert [p.chest for p in last.view.players] == [3, 0, 5]


def test_a_round_begins_as_a_step_with_an_empty_path():
    steps = playback(EXAMPLE, rnd("T3", "LLL"), rules="relics")
    assert steps.rounds == 2 and steps.round_start(1) == 1 and steps.round_start(2) == 11
    begun = steps.at(11)
    assert begun.events == (RoundStarted(2),)
    assert begun.view.round == 2 and begun.view.path == () and begun.view.step == 0
    assert steps.round_start(3) is None and steps.round_start(0) is None


def test_an_unfinished_record_stops_where_the_players_were_choosing():
    """The last card of an unfinished record has no choices after it: no step for them."""
    steps = playback(rnd("T9 T15", "CCC"))
    assert len(steps) == 4 and not steps.finished
    last = steps.at(4)
    assert last.view.phase is Phase.DECISION and last.view.path[-1].card == Treasure(15)


def test_a_finished_game_ends_on_its_last_step():
    steps = playback(*[rnd("T3", "LLL")] * 5)
    last = steps.at(len(steps))
    assert isinstance(last.events[-1], GameEnded) and last.view.phase is Phase.OVER
    assert last.view.scores == (5, 5, 5)


def test_steps_outside_the_record_are_refused():
    steps = playback(EXAMPLE)
    for number in (0, len(steps) + 1):
        with pytest.raises(IndexError, match=f"step {number} is not between 1 and 10"):
            steps.at(number)


def test_the_relic_variant_round_begins_with_its_new_relic():
    steps = playback(rnd("T3", "LLL"), rnd("R7", "LLL"), rules="relic-variant")
    assert steps.at(steps.round_start(2)).events == (RoundStarted(2, Relic(7)),)


def random_game(rules: Rules, players: int, seed: int, cut: int | None) -> Game:
    rng = random.Random(seed)
    game = Game(GameConfig(("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")[:players], rules),
                seed=seed)
    for _ in range(10_000 if cut is None else cut):
        if game.over:
            break
        if game.phase is Phase.DECISION:
            game.apply_decisions({s: Decision.LEAVE if rng.random() < 0.2 else Decision.CONTINUE
                                  for s in game.players_in_cave})
        else:
            game.reveal_random()
    return game


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(Rules)), st.integers(3, 8), st.integers(0, 2**32),
       st.none() | st.integers(0, 150), st.randoms(use_true_random=False))
def test_any_step_is_the_same_game_whichever_way_one_gets_there(rules, players, seed, cut, rng):
    """Back is the game played again to that step: the same view, the same events, the same
    as going forward; the last step is the game of the record."""
    game = random_game(rules, players, seed, cut)
    steps = Playback(replay_record(game_to_record(game)))
    forward = [steps.at(n) for n in range(1, len(steps) + 1)]
    assert forward[-1].view == game.view_for(None)
    assert forward[-1].history == tuple(game.events)
    for number in rng.sample(range(1, len(steps) + 1), k=min(20, len(steps))):
        assert steps.at(number) == forward[number - 1]
    for before, after in zip(forward, forward[1:]):
        assert after.history == before.history + after.events
    cards = [e for step in forward for e in step.events if isinstance(e, CardRevealed)]
    assert len(cards) == sum(len(h.cards) for h in game.history)
