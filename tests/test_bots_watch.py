"""Computer players back in camp watch the rest of the round, as a person there does."""

from __future__ import annotations

import logging
import random

import numpy as np

from diamant_tui.bots import make_bot
from diamant_tui.bots._model import CARDS, FAMILY, PARAM
from diamant_tui.bots.expert import ExpertBot
from diamant_tui.engine.cards import parse_card
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.view import Decision, Phase
from diamant_tui.sim.simulate import play_game

C, L = Decision.CONTINUE, Decision.LEAVE


class Leaver:
    """Leaves after ``cards`` cards; writes down every view it decides on or watches."""

    def __init__(self, cards: int) -> None:
        self.cards = cards
        self.decided: list[tuple[int, int]] = []
        self.watched: list[tuple[int, int]] = []
        self.watched_in_cave = 0

    def decide(self, view):
        self.decided.append((view.round, view.step))
        return L if view.step >= self.cards else C

    def watch(self, view):
        self.watched.append((view.round, view.step))
        self.watched_in_cave += view.me.in_cave


class Broken(Leaver):
    """Its watch always raises."""

    def watch(self, view):
        super().watch(view)
        raise KeyError("x")


def test_the_simulator_shows_a_player_in_camp_every_later_step_and_none_in_the_cave():
    early, late = Leaver(2), Leaver(40)
    game = play_game(Game(GameConfig(["early", "late", "ev"], "classic"), seed=3),
                     [early, late, make_bot("ev", exact=True)])
    assert game.over
    assert early.watched and early.watched_in_cave == 0
    # The player who never leaves decides at every step there is: the early leaver
    # decided on some of them and watched all the others, each once.
    assert not set(early.decided) & set(early.watched)
    assert sorted(early.decided + early.watched) == sorted(late.decided)
    assert all(step > 2 for _, step in early.watched)
    assert late.watched == []  # never out of the cave while the round went on


def test_a_watch_that_raises_is_logged_once_by_name_and_the_game_goes_on(caplog):
    broken, other = Broken(1), Leaver(40)
    with caplog.at_level(logging.WARNING, logger="diamant_tui.sim"):
        game = play_game(Game(GameConfig(["broken", "other", "ev"], "classic"), seed=5),
                         [broken, other, make_bot("ev", exact=True)])
    assert game.over
    assert len(broken.watched) == 1  # not shown the game again once it failed
    assert len(broken.decided) == 5  # it still plays every round
    lines = [r.getMessage() for r in caplog.records if r.name == "diamant_tui.sim"]
    assert len(lines) == 1
    assert "'broken' raised KeyError" in lines[0] and "watch()" in lines[0]


def _play_round(game: Game, bots, cards: list[str]) -> None:
    """Turn ``cards`` in order, as the simulator plays a step (watching, then deciding)."""
    for code in cards:
        if game.phase is Phase.ROUND_OVER:
            return
        game.reveal(parse_card(code))
        if game.phase is not Phase.DECISION:
            return
        for s, bot in enumerate(bots):
            if s not in game.players_in_cave and hasattr(bot, "watch"):
                bot.watch(game.view_for(s))
        game.apply_decisions({s: bots[s].decide(game.view_for(s))
                              for s in game.players_in_cave})


def _belief_in_cards(watching: bool) -> tuple[np.ndarray, list[int]]:
    """The expert's belief about a ``cards:8`` player after a round in which it left first
    (three hazards showing by card 5), and what the expert banked."""
    expert = ExpertBot(rng=random.Random(1), watching=watching)
    bots = [expert, make_bot("cards:8", exact=True), make_bot("cards:1", exact=True)]
    game = Game(GameConfig(["expert", "c8", "c1"], "classic"), seed=0)
    _play_round(game, bots, ["T17", "T15", "H:snakes", "H:spiders", "H:lava", "T1", "T2",
                             "T3", "T4", "T5"])
    assert game.phase is Phase.ROUND_OVER
    game.reveal(parse_card("T5"))  # round 2: the round's end reaches the expert
    expert.decide(game.view_for(0))
    return expert._beliefs.weights(1), game.round_results[0].banked[0]


def test_the_expert_learns_from_the_exits_it_watches_from_camp():
    watched, mine = _belief_in_cards(True)
    unwatched, _ = _belief_in_cards(False)
    assert mine == 13  # it left after the fifth card (12 carried, 1 on the path)
    cards = FAMILY == CARDS
    # It saw the player go on after cards 6 and 7 and leave after the eighth: cards:6 and
    # cards:7 are ruled out, which the round's end alone does not tell.
    right = watched[cards & (PARAM == 8)].sum()
    assert right > 2 * unwatched[cards & (PARAM == 8)].sum()
    for n in (6, 7):
        assert watched[cards & (PARAM == n)].sum() < 0.2 * unwatched[cards & (PARAM == n)].sum()
