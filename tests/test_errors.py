"""Illegal actions raise the engine's own exceptions, each with a message a player can read.

A refused action changes nothing: the game goes on as if it had not been tried.
"""

from __future__ import annotations

import pytest

from diamant_tui.engine.cards import Hazard, HazardType, Relic, Treasure, parse_card
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.errors import (
    CardNotInDeck,
    GameOver,
    GameSetupError,
    IllegalAction,
    IllegalDecision,
    NoDecisionDue,
    UnknownCard,
    UnknownPlayer,
    UnknownRules,
)
from diamant_tui.engine.view import Decision, Phase

NAMES = ("ann", "bob", "cy")


def started() -> Game:
    """A classic game at its first decision: T9 showing."""
    game = Game(GameConfig(NAMES, "classic"), seed=3)
    game.reveal(Treasure(9))
    return game


def finished() -> Game:
    game = Game(GameConfig(NAMES, "classic"), seed=3)
    while not game.over:
        if game.phase is Phase.DECISION:
            game.apply_decisions({s: Decision.LEAVE for s in game.players_in_cave})
        else:
            game.reveal_random()
    return game


def snapshot(game: Game) -> tuple:
    return (game.phase, game.round, game.step, tuple(game.deck), tuple(game.path),
            tuple(game.carried), tuple(game.chest), dict(game.pending), len(game.events))


def test_a_choice_from_a_player_in_camp_is_refused():
    """Only players in the cave decide."""
    game = started()
    game.apply_decisions({"ann": "leave", "bob": "continue", "cy": "continue"})
    game.reveal(Treasure(1))
    before = snapshot(game)
    with pytest.raises(IllegalDecision, match="^ann is in camp; only players in the cave decide.$"):
        game.submit("ann", Decision.CONTINUE)
    with pytest.raises(IllegalDecision, match="ann is in camp"):
        game.apply_decisions({"bob": "leave", "ann": "leave"})
    assert snapshot(game) == before, "apply_decisions checks every choice before recording any"


@pytest.mark.parametrize("who", ["zed", 3, -1, None, True, 1.0])
def test_an_unknown_player_is_refused(who):
    """A seat or name that is not at this table."""
    game = started()
    with pytest.raises(UnknownPlayer) as caught:
        game.submit(who, Decision.LEAVE)
    assert str(caught.value) == f"unknown player {who!r}; players are ann, bob, cy."
    with pytest.raises(UnknownPlayer):
        game.view_for(who if who is not None else "zed")


@pytest.mark.parametrize("word", ["stay", "LEAVE", "", None, 1, ["leave"]])
def test_an_unknown_decision_word_is_refused(word):
    """Every player still in the cave chooses continue or leave."""
    game = started()
    with pytest.raises(IllegalDecision) as caught:
        game.submit("bob", word)
    assert str(caught.value) == f"unknown decision {word!r}; choose 'continue' or 'leave'."
    assert not game.pending


def test_a_choice_when_no_decision_is_due_is_refused():
    """There is no decision before the first card of a round, nor between rounds."""
    game = Game(GameConfig(NAMES, "classic"), seed=3)
    with pytest.raises(NoDecisionDue, match="no decision is due in round 1: the game waits for"):
        game.submit("ann", Decision.CONTINUE)
    game = started()
    game.apply_decisions({s: Decision.LEAVE for s in range(3)})
    assert game.phase is Phase.ROUND_OVER
    with pytest.raises(NoDecisionDue):
        game.apply_decisions({"ann": "leave"})


def test_revealing_while_choices_are_awaited_is_refused():
    """The decision comes between two reveals: a card cannot be turned while players choose."""
    game = started()
    with pytest.raises(NoDecisionDue, match="round 1 waits for decision"):
        game.reveal_random()
    with pytest.raises(IllegalAction):
        game.start_next_round()


def test_acting_after_the_game_ended_is_refused():
    """The game ends after round 5: nothing more can be played."""
    game = finished()
    for action in (
        lambda: game.submit("ann", Decision.CONTINUE),
        lambda: game.apply_decisions({"ann": "leave"}),
        game.reveal_random,
        lambda: game.reveal(Treasure(1)),
        game.start_next_round,
        game.reveal_outcomes,
    ):
        with pytest.raises(GameOver, match="^the game is over; start a new one to play again.$"):
            action()


@pytest.mark.parametrize("count", [0, 1, 2, 9, 12])
def test_a_game_is_for_3_to_8_players(count):
    """Players: 3 to 8."""
    with pytest.raises(GameSetupError) as caught:
        Game(GameConfig([f"p{i}" for i in range(count)]))
    assert str(caught.value) == f"{count} players: Diamant is for 3 to 8 players."


def test_player_names_must_be_distinct():
    """Players are told apart by name."""
    with pytest.raises(GameSetupError) as caught:
        Game(GameConfig(["ann", "bob", "cy", "bob"]))
    assert str(caught.value) == "duplicate player name 'bob': names must be distinct."


@pytest.mark.parametrize("name", ["Classic", "relic_variant", "", "expert"])
def test_an_unknown_rule_set_is_refused(name):
    """Rule set: classic, relics, relic-variant."""
    with pytest.raises(UnknownRules) as caught:
        Game(GameConfig(NAMES, name))
    assert str(caught.value) == (
        f"unknown rule set {name!r}; choose one of classic, relics, relic-variant."
    )


@pytest.mark.parametrize(
    ("rules", "card"),
    [
        ("classic", Relic()),
        ("relics", Relic(5)),
        ("relic-variant", Relic()),
        ("relic-variant", Relic(7)),  # added in round 2
        ("classic", Treasure(6)),
    ],
)
def test_a_card_not_in_the_deck_cannot_be_revealed(rules, card):
    """Only the cards of the rule set's deck can be revealed."""
    game = Game(GameConfig(NAMES, rules), seed=3)
    before = snapshot(game)
    with pytest.raises(CardNotInDeck, match=f"^{card.code} is not in the deck in round 1 "):
        game.reveal(card)
    assert snapshot(game) == before


def test_a_refused_card_between_rounds_does_not_start_the_next_round():
    """A refused reveal changes nothing, even when revealing would first begin a round."""
    game = Game(GameConfig(NAMES, "relic-variant"), seed=3)
    game.reveal(Hazard(HazardType.RAMS))
    game.apply_decisions({s: Decision.CONTINUE for s in range(3)})
    game.reveal(Hazard(HazardType.RAMS))
    before = snapshot(game)
    with pytest.raises(CardNotInDeck, match="^R8 is not in the deck in round 2"):
        game.reveal(Relic(8))  # R8 only comes in round 3
    assert snapshot(game) == before and game.phase is Phase.ROUND_OVER
    game.reveal(Relic(7))  # the relic this round adds is in the deck
    assert game.round == 2 and game.step == 1


@pytest.mark.parametrize(
    "code", ["T", "T0", "T09", "T²", "T" + "9" * 5000, "R-1", "H:wolves", "X", "", 9]
)
def test_an_unreadable_card_code_is_refused(code):
    """Cards are written T<v>, H:<type>, R or R<v>."""
    with pytest.raises(UnknownCard):
        parse_card(code)
