"""Computer players decide as their names say, from the player's view alone (RULES.md)."""

from __future__ import annotations

import copy
import dataclasses
import random

import numpy as np
import pytest

from diamant_tui.bots import BOTS, BotSpecError, make_bot, parse_spec
from diamant_tui.bots._model import CARDS, CARRY, EV, FAMILY, PARAM, RISK, Beliefs
from diamant_tui.bots.ev import EvBot
from diamant_tui.bots.expert import ExpertBot
from diamant_tui.bots.risk import RiskBot
from diamant_tui.engine.features import Features
from diamant_tui.engine.cards import Hazard, HazardType, Relic, Rules, Treasure, parse_card
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.sim.simulate import play_game
from diamant_tui.engine.view import Decision, Phase, PlayerView

C, L = Decision.CONTINUE, Decision.LEAVE
LAVA, RAMS, ROCKS = Hazard(HazardType.LAVA), Hazard(HazardType.RAMS), Hazard(HazardType.BOULDERS)


def stacked(cards: list[str], players: int = 3, rules: str = "classic",
            leave: dict[int, set[int]] | None = None) -> Game:
    """A game whose first round turns ``cards``; ``leave[step]`` are the seats that leave
    after that card (everyone else continues)."""
    game = Game(GameConfig([f"p{i}" for i in range(players)], rules), seed=0)
    for step, code in enumerate(cards, start=1):
        game.reveal(parse_card(code))
        if game.phase is not Phase.DECISION:
            break
        if step < len(cards):
            out = (leave or {}).get(step, set())
            game.apply_decisions({s: L if s in out else C for s in game.players_in_cave})
    return game


def expected_share_and_deadly(view: PlayerView) -> tuple[float, float, float]:
    """The numbers a careful person works out at the table, from the view, by hand."""
    n = len(view.in_cave)
    size = sum(count for _, count in view.deck)
    share = sum(count * (int(code[1:]) // n) for code, count in view.deck if code[0] == "T")
    rest = sum(count * (int(code[1:]) % n) for code, count in view.deck if code[0] == "T")
    showing = {f"H:{h.value}" for h in view.hazards_showing}
    deadly = sum(count for code, count in view.deck if code in showing)
    return share / size, rest / size, deadly / size


# -- names ----------------------------------------------------------------------------


def test_each_name_builds_the_player_it_names():
    assert make_bot("risk", exact=True).spec == "risk:1"
    assert make_bot("risk:2.5", exact=True).spec == "risk:2.5"
    assert make_bot("ev", exact=True).spec == "ev:1"
    assert make_bot("ev:0.5", exact=True).spec == "ev:0.5"
    assert make_bot("expert", exact=True).spec == "expert"
    assert isinstance(make_bot("risk", exact=True), RiskBot)
    assert isinstance(make_bot("ev:3", exact=True), EvBot)
    assert isinstance(make_bot("expert", seed=1), ExpertBot)
    assert {"risk", "ev", "expert"} <= set(BOTS)


@pytest.mark.parametrize("spec, words", [
    ("risky", "unknown computer player"),
    ("risk:abc", "must be a number"),
    ("risk:-1", "between 0 and 100"),
    ("ev:1000", "between 0 and 100"),
    ("expert:3", "takes no parameter"),
])
def test_bad_names_are_refused_with_a_clear_message(spec, words):
    with pytest.raises(BotSpecError, match=words):
        parse_spec(spec)


# -- risk -------------------------------------------------------------------------------


def test_risk_continues_while_no_card_can_be_a_disaster():
    """With no hazard showing the next card cannot end the round, whatever is carried."""
    game = stacked(["T17", "T15", "T14", "T13"])
    view = game.view_for(0)
    assert view.disaster_chance == 0
    assert make_bot("risk", exact=True).decide(view) is C
    assert make_bot("risk:100", exact=True).decide(view) is C


@pytest.mark.parametrize("cards", [
    ["T5", "H:snakes"],
    ["T17", "T15", "H:snakes"],
    ["T17", "T15", "H:snakes", "H:lava"],
    ["T9", "H:snakes", "T4", "H:lava", "T11", "H:rams"],
    ["T17", "T15", "T14", "H:snakes", "H:lava", "H:rams", "H:spiders"],
])
@pytest.mark.parametrize("caution", [0.5, 1.0, 2.0])
def test_risk_leaves_when_the_chance_of_disaster_outweighs_the_next_share(cards, caution):
    """risk:F leaves when F x chance of disaster x carried >= the next card's expected share."""
    view = stacked(cards).view_for(0)
    share, _, chance = expected_share_and_deadly(view)
    want = L if caution * chance * view.me.carried >= share - 1e-9 else C
    assert RiskBot(caution).decide(view) is want


def test_risk_alone_follows_the_classic_rule():
    """Alone in the cave, risk leaves when carried x 2h >= treasure still in the deck."""
    # Two players leave after the first card, so seat 0 is alone from then on.
    game = stacked(["T3", "T17", "H:snakes", "T15", "H:lava"], leave={1: {1, 2}})
    view = game.view_for(0)
    assert len(view.in_cave) == 1
    h = len(set(view.hazards_showing))
    want = L if view.me.carried * 2 * h >= view.treasure_in_deck else C
    assert make_bot("risk", exact=True).decide(view) is want
    assert want is L  # 1 + 17 + 15 = 33 carried, x 4 = 132 >= 124 - 35 = 89


# -- ev ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [
    ["T5", "H:snakes"],
    ["T17", "T13", "H:snakes"],
    ["T11", "T7", "H:snakes", "T9", "H:lava"],
    ["T15", "T14", "H:snakes", "H:lava", "T5", "H:rams"],
])
def test_ev_weighs_what_it_would_bank_against_one_more_card(cards):
    """ev leaves when chance of disaster x (carried + path rubies) >= the next card's
    expected share plus what it would leave on the path."""
    view = stacked(cards).view_for(0)
    share, rest, chance = expected_share_and_deadly(view)
    stake = view.me.carried + view.rubies_on_path
    want = L if chance * stake >= share + rest - 1e-9 else C
    assert make_bot("ev", exact=True).decide(view) is want


def test_ev_counts_the_rubies_on_the_path_and_risk_does_not():
    """Same cards carried, but rubies left on the path raise what a disaster would cost."""
    bare = stacked(["T15", "T9", "H:snakes", "H:lava"]).view_for(0)     # 5 + 3 each, none left
    rich = stacked(["T17", "T11", "H:snakes", "H:lava"]).view_for(0)    # 5 + 3 each, 2 + 2 left
    assert bare.me.carried == rich.me.carried == 8
    assert (bare.rubies_on_path, rich.rubies_on_path) == (0, 4)
    assert make_bot("ev", exact=True).decide(bare) is C     # 4/26 x 8 < (27 + 19)/26
    assert make_bot("ev", exact=True).decide(rich) is L     # 4/26 x 12 >= (27 + 15)/26
    assert make_bot("risk", exact=True).decide(bare) is make_bot("risk", exact=True).decide(rich)


def test_ev_counts_a_relic_it_would_take_alone():
    """relics: a lone leaver takes the relics on the path (worth 5 each at first)."""
    plain = stacked(["T17", "T15", "H:snakes", "H:lava", "T1"], rules="relics").view_for(0)
    relic = stacked(["T17", "T15", "H:snakes", "H:lava", "R"], rules="relics").view_for(0)
    assert plain.me.carried == relic.me.carried == 10
    assert any(isinstance(pc.card, Relic) for pc in relic.path)
    assert make_bot("ev", exact=True).decide(plain) is C
    assert make_bot("ev", exact=True).decide(relic) is L
    assert make_bot("risk", exact=True).decide(plain) is make_bot("risk", exact=True).decide(relic)


# -- expert -----------------------------------------------------------------------------


def last_round(chests: list[int]) -> PlayerView:
    """Round 5 of a 3-player classic game: seats 1 and 2 went home with 5 rubies after the
    first card; seat 0 carries 22 with one snake showing. Chests are then set as given."""
    game = Game(GameConfig(["me", "ann", "bob"], "classic"), seed=0)
    for _ in range(4):  # four quick rounds: everybody leaves after the first card
        game.reveal(Treasure(1))
        game.apply_decisions({0: L, 1: L, 2: L})
    for code, out in (("T15", {1, 2}), ("T17", set()), ("H:snakes", set())):
        game.reveal(parse_card(code))
        if code != "H:snakes":
            game.apply_decisions({s: (L if s in out else C) for s in game.players_in_cave})
    view = game.view_for(0)
    players = tuple(dataclasses.replace(p, chest=c) for p, c in zip(view.players, chests))
    return dataclasses.replace(view, players=players)


def test_expert_in_the_lead_takes_the_sure_win_in_the_last_round():
    """Leaving now wins for certain; one more card is worth it in rubies, not in wins."""
    view = last_round([0, 15, 15])
    assert view.round == 5 and view.me.carried == 22
    assert make_bot("risk", exact=True).decide(view) is C      # the rubies say go on
    assert ExpertBot(rng=random.Random(1)).decide(view) is L


def test_expert_behind_in_the_last_round_goes_on_whatever_the_danger():
    """Leaving now loses for certain, so only going on can still win."""
    view = last_round([0, 40, 40])
    assert ExpertBot(rng=random.Random(1)).decide(view) is C
    worse = dataclasses.replace(view, path=view.path + tuple(
        dataclasses.replace(view.path[-1], card=h) for h in (LAVA, RAMS, ROCKS)))
    assert make_bot("risk", exact=True).decide(worse) is L
    assert ExpertBot(rng=random.Random(1)).decide(worse) is C


def test_expert_leaves_when_the_next_card_is_surely_a_disaster():
    """All five hazard types showing and only hazards left: the next card ends the round."""
    treasures = [f"T{v}" for v in (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)]
    hazards = ["H:snakes", "H:spiders", "H:lava", "H:boulders", "H:rams"]
    view = stacked(treasures + hazards).view_for(0)
    assert view.disaster_chance == 1
    assert ExpertBot(rng=random.Random(2)).decide(view) is L


def test_expert_goes_on_at_the_start_of_a_round():
    """One card in, no hazard showing: nothing can be lost by the next card."""
    view = stacked(["T7"], players=5).view_for(0)
    assert ExpertBot(rng=random.Random(3)).decide(view) is C


def test_expert_learns_which_rule_the_others_follow():
    """Watching the others leave, it comes to believe each one's rule."""
    bots = [ExpertBot(rng=random.Random(4)), make_bot("cards:3", exact=True), make_bot("carry:8", exact=True)]
    game = play_game(Game(GameConfig(["me", "c3", "k8"], "classic"), seed=4), bots)
    assert game.over
    beliefs = bots[0]._beliefs
    best = [int(beliefs.weights(s).argmax()) for s in (1, 2)]
    assert (FAMILY[best[0]], PARAM[best[0]]) == (CARDS, 3)
    assert FAMILY[best[1]] == CARRY


def test_beliefs_hold_every_personal_parameter():
    """The players at a table each draw their own parameter (carry:20 leaves at 15 to 25
    rubies, ev and risk have cautions of 0.7 to 1.3): a player seen to go on at 16 rubies
    and leave at 17 is believed to be carry:17, not carry:16 or carry:18, and the
    cautions are a twentieth apart there."""
    beliefs = Beliefs(2)
    step = dict(n=3, deadly=4, hazards=2, shares=30, leftovers=2, path=1, relics_path=0,
                relics_gain=0, deck=20)
    beliefs.observe(1, Features(step=5, carried=16, **step), left=False)
    beliefs.observe(1, Features(step=6, carried=17, **step), left=True)
    carry = np.where(FAMILY == CARRY, beliefs.weights(1), 0.0)
    assert PARAM[carry.argmax()] == 17
    assert carry.max() > 10 * np.sort(carry)[-2]
    for family in (RISK, EV):
        cautions = np.sort(PARAM[(FAMILY == family) & (PARAM >= 0.7) & (PARAM <= 1.3)])
        assert cautions[0] == 0.7 and cautions[-1] == 1.3
        assert np.diff(cautions).max() <= 0.05 + 1e-9


def test_expert_forgets_what_it_learned_when_a_new_game_starts():
    bot = ExpertBot(rng=random.Random(5))
    others = [make_bot("cards:2", exact=True), make_bot("cards:2", exact=True)]
    play_game(Game(GameConfig(["me", "a", "b"], "classic"), seed=1), [bot, *others])
    learned = bot._beliefs.log.copy()
    game = Game(GameConfig(["me", "a", "b"], "classic"), seed=2)
    game.reveal_random()
    bot.decide(game.view_for(0))
    assert (bot._beliefs.log != learned).any()
    assert (bot._beliefs.log[1] == bot._beliefs.log[2]).all()  # back to the same prior


# -- every player, from the view alone ----------------------------------------------------


ALL = ["cards:4", "carry:12", "hazards:2", "random:0.3", "risk", "ev", "ev:2", "expert"]
SIMPLE_RULES = {
    "cards:4": lambda view: view.step >= 4,
    "carry:12": lambda view: view.me.carried >= 12,
    "hazards:2": lambda view: len(set(view.hazards_showing)) >= 2,
}
"""When each one-rule player leaves, by its name."""


class Watched:
    """A computer player whose every decision is written down with the view it saw."""

    def __init__(self, bot, seat: int, log: list) -> None:
        self.bot, self.seat, self.log = bot, seat, log

    @property
    def spec(self) -> str:
        return self.bot.spec

    def decide(self, view: PlayerView) -> Decision:
        decision = self.bot.decide(view)
        self.log.append((self.seat, view, decision))
        return decision


@pytest.mark.parametrize("rules", list(Rules))
def test_every_player_finishes_games_of_every_size_and_rule_set(rules):
    """Every player, in games of 3 and 8 seats of every rule set, plays all five rounds:
    it is asked once per turn while in the cave, from its own seat's view, answers
    continue or leave, and the one-rule players leave exactly when their rule says."""
    for seats in (3, 8):
        specs = (ALL * 2)[:seats]
        log: list = []
        # Exact rules (no personality drawn), so each follows its named threshold.
        bots = [Watched(make_bot(s, seed=i, exact=True), i, log) for i, s in enumerate(specs)]
        config = GameConfig([f"{s}#{i}" for i, s in enumerate(specs)], rules)
        game = play_game(Game(config, seed=seats), bots)
        assert game.over and len(game.round_results) == 5
        assert game.scores() == tuple(game.chest[s] + sum(game.relics[s]) for s in range(seats))
        turns: dict[tuple[int, int], list[int]] = {}
        for seat, view, decision in log:
            assert view.seat == seat and view.decision_due and view.me.in_cave
            assert decision in (C, L)
            turns.setdefault((view.round, view.step), []).append(seat)
            rule = SIMPLE_RULES.get(specs[seat])
            if rule is not None:
                assert decision is (L if rule(view) else C), (specs[seat], view.round, view.step)
        for (round_, step), asked in turns.items():
            in_cave = [p.seat for p in next(v for _, v, _ in log
                                            if (v.round, v.step) == (round_, step)).in_cave]
            assert asked == in_cave, (round_, step)
        assert {seat for seat, _, _ in log} == set(range(seats))


def test_players_decide_from_a_detached_copy_of_the_view_alike():
    """A bot gets a PlayerView and nothing else: a deep copy, cut off from the game,
    gives the same choice (the expert with the same random seed)."""
    game = Game(GameConfig([f"p{i}" for i in range(5)], "relics"), seed=9)
    for _ in range(4):
        game.reveal_random()
        if game.phase is not Phase.DECISION:
            break
        view = game.view_for(0)
        for spec in ALL:
            if spec.startswith("random"):
                continue
            a, b = make_bot(spec, seed=1), make_bot(spec, seed=1)
            assert a.decide(view) is b.decide(copy.deepcopy(view)), spec
        game.apply_decisions({s: C for s in game.players_in_cave})


def expert_decisions_beside_richer_rivals(hidden: bool) -> int:
    """Play a game with the expert in seat 0; at each of its decisions, ask a twin expert
    (same seed, same history) the same question in a copy of the game where every other
    chest holds 30 rubies more. Returns how many times the twin decided otherwise."""
    specs = ["expert", "ev", "risk", "carry:20"]
    game = Game(GameConfig(specs, "classic", chests_hidden=hidden), seed=3)
    bots = [make_bot(s, seed=3) for s in specs]
    twin = make_bot("expert", seed=3)
    differ = 0
    while not game.over:
        if game.phase is not Phase.DECISION:
            game.reveal_random()
            continue
        choices = {s: bots[s].decide(game.view_for(s)) for s in game.players_in_cave}
        if 0 in choices:
            richer = copy.deepcopy(game)
            for seat in range(1, len(specs)):
                richer.chest[seat] += 30
            differ += twin.decide(richer.view_for(0)) is not choices[0]
        game.apply_decisions(choices)
    return differ


def test_expert_does_not_use_the_chests_it_may_not_see():
    """Hidden chests: the expert judges the others' scores by what it may see, so what
    their chests really hold changes none of its decisions; shown, the same difference
    does change its play (it plays for the win)."""
    assert expert_decisions_beside_richer_rivals(hidden=True) == 0
    assert expert_decisions_beside_richer_rivals(hidden=False) > 0
