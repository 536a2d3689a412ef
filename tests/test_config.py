"""A game's settings are a value apart from its state (open_spiel's Game/State split).

A :class:`GameConfig` is checked once when it is made, never changes, and goes to JSON and
back unchanged; a :class:`Game` is the state built from it, and draws a card only when
asked through :meth:`Game.reveal_random`.
"""

from __future__ import annotations

import dataclasses
import random
import re
import textwrap
from pathlib import Path

import pytest

from diamant_tui.engine.cards import Hazard, HazardType, Rules, Treasure
from diamant_tui.engine.config import ROUNDS, GameConfig, max_rounds
from diamant_tui.engine.errors import GameOver, GameSetupError, RecordError, UnknownRules
from diamant_tui.engine.events import GameEnded, RoundEnded
from diamant_tui.engine.game import Game
from diamant_tui.engine.record import game_to_record, replay_record
from diamant_tui.engine.view import Decision, Phase

NAMES = ("ann", "bob", "cy")


class NoDraws(random.Random):
    """A random source that fails the test if the game draws anything from it."""

    def random(self) -> float:
        raise AssertionError("the game drew from its RNG without being asked")

    def getrandbits(self, k: int) -> int:
        raise AssertionError("the game drew from its RNG without being asked")


def everyone_leaves_after_one_card(game: Game) -> list:
    """Reveal a named treasure, then every player in the cave leaves: the round ends."""
    events = game.reveal(next(c for c, _ in game.reveal_outcomes() if isinstance(c, Treasure)))
    return events + game.apply_decisions({s: Decision.LEAVE for s in game.players_in_cave})


# -- the settings are checked when they are made -----------------------------------


@pytest.mark.parametrize("count", [0, 2, 9])
def test_a_config_is_for_3_to_8_players(count):
    """Players: 3 to 8 (the message is the one the game always gave)."""
    with pytest.raises(GameSetupError) as caught:
        GameConfig(tuple(f"p{i}" for i in range(count)))
    assert str(caught.value) == f"{count} players: Diamant is for 3 to 8 players."


def test_a_config_needs_distinct_names():
    with pytest.raises(GameSetupError) as caught:
        GameConfig(("ann", "bob", "ann"))
    assert str(caught.value) == "duplicate player name 'ann': names must be distinct."


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("annbobcy", "players 'annbobcy': give a list of names, one per player."),
        (7, "players 7: give a list of names, one per player."),
        (("ann", "", "cy"), "a player's name must be some text, not ''."),
        (("ann", 2, "cy"), "a player's name must be some text, not 2."),
    ],
)
def test_a_config_needs_a_list_of_names(players, message):
    with pytest.raises(GameSetupError) as caught:
        GameConfig(players)
    assert str(caught.value) == message


def test_a_config_refuses_an_unknown_rule_set():
    with pytest.raises(UnknownRules) as caught:
        GameConfig(NAMES, "expert")
    assert str(caught.value) == (
        "unknown rule set 'expert'; choose one of classic, relics, relic-variant."
    )


@pytest.mark.parametrize(
    ("rules", "rounds", "message"),
    [
        ("classic", 0, "0 rounds: a game has at least 1 round."),
        ("classic", -3, "-3 rounds: a game has at least 1 round."),
        ("classic", 2.5, "rounds must be a whole number from 1 to 10, not 2.5."),
        ("classic", "5", "rounds must be a whole number from 1 to 10, not '5'."),
        ("relics", True, "rounds must be a whole number from 1 to 10, not True."),
        (
            "classic",
            11,
            "11 rounds: classic is played over at most 10 rounds (in a longer game every "
            "hazard could be down to one card, and the deck could run out).",
        ),
        (
            "relic-variant",
            6,
            "6 rounds: relic-variant is played over at most 5 rounds (one of its relics "
            "joins the deck in each round).",
        ),
    ],
)
def test_a_config_refuses_a_number_of_rounds_it_cannot_play(rules, rounds, message):
    with pytest.raises(GameSetupError) as caught:
        GameConfig(NAMES, rules, rounds=rounds)
    assert str(caught.value) == message


def test_chests_hidden_is_true_or_false():
    with pytest.raises(GameSetupError) as caught:
        GameConfig(NAMES, chests_hidden="yes")
    assert str(caught.value) == "chests_hidden must be true or false, not 'yes'."


def test_the_printed_rules_are_the_default():
    """RULES.md: a game is 5 rounds; chests are shown unless the players agree otherwise."""
    config = GameConfig(NAMES)
    assert (config.rules, config.chests_hidden, config.rounds) == (Rules.CLASSIC, False, 5)
    assert ROUNDS == 5


# -- a config is a value --------------------------------------------------------------


def test_a_config_cannot_change():
    config = GameConfig(["ann", "bob", "cy"], "relics")
    for field, value in (("players", ("x", "y", "z")), ("rounds", 3), ("rules", Rules.CLASSIC)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(config, field, value)
    assert config == GameConfig(NAMES, Rules.RELICS)


def test_a_config_keeps_its_own_copy_of_the_names():
    names = ["ann", "bob", "cy"]
    config = GameConfig(names)
    names.append("dee")
    assert config.players == ("ann", "bob", "cy")


def test_a_config_is_hashable_comparable_and_printable():
    a = GameConfig(["ann", "bob", "cy"], "relics", chests_hidden=True, rounds=3)
    b = GameConfig(("ann", "bob", "cy"), Rules.RELICS, True, 3)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != dataclasses.replace(a, rounds=4)
    assert a != GameConfig(("bob", "ann", "cy"), "relics", chests_hidden=True, rounds=3)
    assert repr(a) == (
        "GameConfig(players=('ann', 'bob', 'cy'), rules=<Rules.RELICS: 'relics'>, "
        "chests_hidden=True, rounds=3)"
    )


def test_replace_checks_the_new_settings_too():
    with pytest.raises(GameSetupError, match="^0 rounds: a game has at least 1 round.$"):
        dataclasses.replace(GameConfig(NAMES), rounds=0)


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(NAMES),
        GameConfig(("Ана", "Дмитро", "Élise", "名前"), "relic-variant", chests_hidden=True, rounds=2),
        GameConfig(tuple(f"p{i}" for i in range(8)), "relics", rounds=10),
    ],
)
def test_a_config_goes_to_json_and_back_unchanged(config):
    text = config.to_json()
    again = GameConfig.from_json(text)
    assert again == config and hash(again) == hash(config)
    assert again.to_json() == text
    assert GameConfig.from_dict(config.to_dict()) == config


def test_the_json_of_a_config_names_every_setting():
    config = GameConfig(("Ана", "bob", "cy"), "relic-variant", chests_hidden=True, rounds=4)
    assert config.to_json() == (
        '{"players": ["Ана", "bob", "cy"], "rules": "relic-variant", '
        '"chests_hidden": true, "rounds": 4}'
    )


def test_json_without_the_optional_settings_reads_as_the_printed_rules():
    config = GameConfig.from_json('{"players": ["ann", "bob", "cy"], "rules": "relics"}')
    assert config == GameConfig(NAMES, "relics", chests_hidden=False, rounds=5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "a game config must be an object with keys players, rules, chests_hidden, rounds."),
        ('{"players": ["a", "b", "c"]}', "a game config has no 'rules'."),
        ('{"rules": "classic"}', "a game config has no 'players'."),
        (
            '{"players": ["a", "b", "c"], "rules": "classic", "seed": 4}',
            "unknown key 'seed' in a game config; allowed: players, rules, chests_hidden, rounds.",
        ),
        ('{"players": "abc", "rules": "classic"}', "players must be a list of player names."),
        (
            '{"players": ["a", "b", "c"], "rules": 1}',
            "unknown rule set 1; choose one of classic, relics, relic-variant.",
        ),
        (
            '{"players": ["a", "b", "c"], "rules": "classic", "rounds": null}',
            "rounds must be a whole number from 1 to 10, not None.",
        ),
        (
            '{"players": ["a", "b", "c"], "rules": "classic", "chests_hidden": 1}',
            "chests_hidden must be true or false, not 1.",
        ),
        ('{"players": ["a", "b"], "rules": "classic"}', "2 players: Diamant is for 3 to 8 players."),
    ],
)
def test_a_bad_stored_config_is_refused_with_what_was_wrong(text, message):
    with pytest.raises(GameSetupError) as caught:
        GameConfig.from_json(text)
    assert str(caught.value) == message


def test_text_that_is_not_json_is_refused():
    with pytest.raises(GameSetupError, match="^a game config must be JSON text: Expecting value"):
        GameConfig.from_json("players: ann")


# -- the state is built from a config --------------------------------------------------


def test_a_game_is_built_from_its_config_and_reads_it():
    config = GameConfig(NAMES, "relics", chests_hidden=True, rounds=3)
    game = Game(config, seed=1)
    assert game.config is config
    assert (game.names, game.rules, game.chests_hidden) == (NAMES, Rules.RELICS, True)
    view = game.view_for(0)
    assert (view.rules, view.chests_hidden, view.rounds) == (Rules.RELICS, True, 3)


def test_a_game_needs_a_config():
    with pytest.raises(TypeError) as caught:
        Game(["ann", "bob", "cy"], seed=1)
    assert str(caught.value) == (
        "Game takes a GameConfig, not list: Game(GameConfig(players, rules), seed=...)."
    )


@pytest.mark.parametrize(("rules", "rounds"), [("classic", 1), ("relics", 3), ("relic-variant", 4)])
def test_the_game_ends_after_the_rounds_of_its_config(rules, rounds):
    """Game end: after the config's last round (5 in the printed rules)."""
    game = Game(GameConfig(NAMES, rules, rounds=rounds), seed=2)
    events: list = []
    for played in range(rounds):
        assert len(game.round_results) == played and not game.over
        events = everyone_leaves_after_one_card(game)
    assert game.over and game.phase is Phase.OVER
    assert [type(e) for e in events[-2:]] == [RoundEnded, GameEnded]
    assert len(game.round_results) == rounds
    assert game.view_for(None).rounds == rounds
    with pytest.raises(GameOver):
        game.reveal_random()


def test_a_longer_game_plays_on_past_round_5():
    game = Game(GameConfig(NAMES, "classic", rounds=7), seed=2)
    for _ in range(5):
        everyone_leaves_after_one_card(game)
    assert game.phase is Phase.ROUND_OVER and not game.over
    everyone_leaves_after_one_card(game)
    assert game.round == 6 and not game.over
    everyone_leaves_after_one_card(game)
    assert game.over and len(game.round_results) == 7


@pytest.mark.parametrize("seed", range(20))
def test_the_longest_game_never_runs_out_of_cards(seed):
    """RULES.md: the deck cannot run out while a player is in the cave. Over the longest
    game allowed, players who never leave still meet a disaster every round."""
    rounds = max_rounds(Rules.CLASSIC)
    game = Game(GameConfig(NAMES, "classic", rounds=rounds), seed=seed)
    while not game.over:
        if game.phase is Phase.DECISION:
            game.apply_decisions({s: Decision.CONTINUE for s in game.players_in_cave})
        else:
            game.reveal_random()
    assert len(game.round_results) == rounds
    assert all(r.disaster is not None for r in game.round_results)


def test_the_game_draws_no_card_unless_asked():
    """Every card of a game played with named cards comes from the caller, never the RNG."""
    game = Game(GameConfig(NAMES, "relic-variant"), rng=NoDraws())
    snakes = Hazard(HazardType.SNAKES)
    while not game.over:
        if len(game.round_results) % 2 == 0:  # rounds 1, 3 and 5
            everyone_leaves_after_one_card(game)
        else:
            game.reveal(snakes)
            game.apply_decisions({s: Decision.CONTINUE for s in game.players_in_cave})
            game.reveal(snakes)  # a disaster ends the round
    assert len(game.round_results) == 5
    with pytest.raises(AssertionError, match="without being asked"):
        Game(GameConfig(NAMES), rng=NoDraws()).reveal_random()


def test_reveal_random_draws_with_the_seed():
    """The same seed draws the same cards."""
    def cards(seed: int) -> list[str]:
        game = Game(GameConfig(NAMES), seed=seed)
        drawn = []
        while not game.over and len(drawn) < 12:
            if game.phase is Phase.DECISION:
                game.apply_decisions({s: Decision.CONTINUE for s in game.players_in_cave})
            else:
                drawn.append(game.reveal_random()[-1])
        return [repr(e) for e in drawn]

    assert cards(5) == cards(5)
    assert cards(5) != cards(6)


# -- records hold games of the printed five rounds ----------------------------------


def test_a_record_holds_only_a_game_of_five_rounds():
    """A diamant-record/1 record states no number of rounds, so it reads as five."""
    game = Game(GameConfig(NAMES, rounds=3), seed=1)
    for _ in range(3):
        everyone_leaves_after_one_card(game)
    with pytest.raises(RecordError) as caught:
        game_to_record(game)
    assert str(caught.value) == (
        "a diamant-record/1 record holds a game of 5 rounds; this game has 3, "
        "so it cannot be written as one."
    )


def test_a_replayed_record_is_a_game_of_the_printed_rules():
    game = Game(GameConfig(NAMES, "relics"), seed=1)
    everyone_leaves_after_one_card(game)
    replay = replay_record(game_to_record(game))
    assert replay.game.config == GameConfig(NAMES, "relics", rounds=ROUNDS)
    assert not replay.finished


def test_the_readme_example_of_the_engine_runs():
    """README, "How the code is laid out": the engine example is correct as written."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    example = next(b for b in blocks if "GameConfig(" in b)
    exec(compile(textwrap.dedent(example), "README.md", "exec"), {})
