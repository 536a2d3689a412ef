"""The rules of RULES.md, one test per rule, played on stacked decks.

Turn-by-turn cases are tables with one row per step: the card revealed, the choices of
the seats in order (C continue, L leave, . in camp, empty when the card ends the round),
then what each seat carries, what each has in the chest and the rubies left on the path.
"""

from __future__ import annotations

from collections import Counter

import pytest

from diamant_tui.engine.cards import (
    TREASURE_VALUES,
    Hazard,
    HazardType,
    Relic,
    Rules,
    Treasure,
    base_deck,
)
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.events import Disaster, PlayerLeft, RoundEnded
from diamant_tui.engine.view import Decision, Phase

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
ANN, BOB, CY = 0, 1, 2
SNAKES = Hazard(HazardType.SNAKES)
SPIDERS = Hazard(HazardType.SPIDERS)
LAVA = Hazard(HazardType.LAVA)
RELIC = Relic()
CHOICE = {"C": Decision.CONTINUE, "L": Decision.LEAVE}


def T(value: int) -> Treasure:
    """A treasure card."""
    return Treasure(value)


def new_game(players: int = 3, rules: str = "classic", **options) -> Game:
    return Game(GameConfig(NAMES[:players], rules, **options), seed=7)


def choose(game: Game, choices: str) -> list:
    """Every seat in the cave chooses at once; ``choices`` has one letter per seat."""
    by_seat = {s: CHOICE[c] for s, c in enumerate(choices) if c != "."}
    return game.apply_decisions(by_seat)


def on_path(game: Game) -> int:
    return sum(pc.rubies for pc in game.path)


def play_steps(game: Game, rows: list[tuple]) -> None:
    """Play one row per step and check carried, chests and the rubies on the path."""
    for step, (card, choices, carried, chests, left) in enumerate(rows, 1):
        game.reveal(card)
        if choices:
            choose(game, choices)
        seen = (tuple(game.carried), tuple(game.chest), on_path(game))
        assert seen == (carried, chests, left), f"step {step}: {card.code} {choices}"


def end_round_by_leaving(game: Game) -> None:
    """Reveal a harmless treasure if needed, then everyone in the cave leaves."""
    if game.phase is not Phase.DECISION:
        game.reveal(next(c for c, _ in game.reveal_outcomes() if isinstance(c, Treasure)))
    game.apply_decisions({s: Decision.LEAVE for s in game.players_in_cave})


# -- components -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "size"), [("classic", 30), ("relics", 35), ("relic-variant", 31)]
)
def test_deck_at_round_one(rules, size):
    """Deck at round 1: 30 cards (classic), 35 (relics), 31 (relic-variant)."""
    assert sum(n for _, n in new_game(rules=rules).view_for(ANN).deck) == size


def test_treasures_and_hazards_of_every_rule_set():
    """15 treasures summing to 124; 15 hazards, 3 each of 5 types."""
    for rules in Rules:
        deck = base_deck(rules)
        treasures = [c.value for c in deck if isinstance(c, Treasure)]
        assert sorted(treasures) == sorted(TREASURE_VALUES) and sum(treasures) == 124
        hazards = Counter(c.type for c in deck if isinstance(c, Hazard))
        assert hazards == {h: 3 for h in HazardType}


# -- the worked examples ------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "value", "each", "stay"),
    [(5, 9, 1, 4), (5, 11, 2, 1), (3, 17, 5, 2)],
)
def test_worked_examples_of_treasure_sharing(players, value, each, stay):
    """5 players, treasure 9: each gets 1, 4 stay. 5 players, 11: 2 each, 1 stays.
    3 players, 17: 5 each, 2 stay on the card."""
    game = new_game(players)
    game.reveal(T(value))
    assert game.carried == [each] * players
    assert game.path[-1].rubies == stay


@pytest.mark.parametrize(
    ("treasures", "choices", "each", "stay"),
    [
        # 5 players, treasure 9 then 11: 4 + 1 = 5 rubies stay on the path. All five
        # leave: they share the 5 as one total, 1 each; card by card, 4 // 5 + 1 // 5 = 0.
        ((9, 11), "LLLLL", 1, 0),
        # 3 players, treasures 7, 1 and 4 leave 1 ruby on each card: 3 on the path. Two
        # leave: 3 // 2 = 1 each and 1 stays; card by card, 1 // 2 = 0 on every card.
        ((7, 1, 4), "LLC", 1, 1),
        # 3 players, treasures 7 and 5 leave 1 + 2 = 3. All three leave: 1 each, none
        # stays; card by card, 1 // 3 + 2 // 3 = 0.
        ((7, 5), "LLL", 1, 0),
    ],
)
def test_worked_examples_of_leavers_sharing_the_whole_path(treasures, choices, each, stay):
    """Leaving: k leavers split the rubies left on the whole path as one total (the sum
    over all treasure cards, not card by card): each gets total // k, the rest stays."""
    game = new_game(len(choices))
    for value in treasures[:-1]:
        game.reveal(T(value))
        choose(game, "C" * len(choices))
    game.reveal(T(treasures[-1]))
    carried = list(game.carried)
    events = choose(game, choices)
    shares = {e.seat: e.picked_up for e in events if isinstance(e, PlayerLeft)}
    leavers = [s for s, c in enumerate(choices) if c == "L"]
    assert shares == {s: each for s in leavers}
    assert [game.chest[s] for s in leavers] == [carried[s] + each for s in leavers]
    assert on_path(game) == stay


def test_first_snake_is_harmless_and_a_second_is_a_disaster():
    """First snake: nothing happens. A later second snake in the same round: disaster."""
    game = new_game()
    play_steps(
        game,
        [
            (SNAKES, "CCC", (0, 0, 0), (0, 0, 0), 0),
            (T(7), "CCC", (2, 2, 2), (0, 0, 0), 1),
            (SNAKES, "", (0, 0, 0), (0, 0, 0), 0),
        ],
    )
    assert game.phase is Phase.ROUND_OVER and game.round_results[-1].disaster is HazardType.SNAKES


# -- leaving ---------------------------------------------------------------------------


def test_leavers_share_the_leftovers_of_the_whole_path():
    """They split the rubies left on the whole path (the sum over all treasure cards,
    not card by card): each gets total // k; the remainder stays in the cave."""
    game = new_game()
    play_steps(
        game,
        [  # card   choices  carried    chests     on path
            (T(7), "CCC", (2, 2, 2), (0, 0, 0), 1),
            (T(4), "LLC", (0, 0, 3), (4, 4, 0), 0),  # 1 + 1 on the path: card by card, 0 each
        ],
    )


def test_remainder_of_the_split_stays_in_the_cave():
    """Each leaver gets total // k; the remainder stays, for a later leaver to take."""
    game = new_game()
    play_steps(
        game,
        [  # card   choices  carried    chests     on path
            (T(5), "CCC", (1, 1, 1), (0, 0, 0), 2),
            (T(7), "CLL", (3, 0, 0), (0, 4, 4), 1),  # 3 on the path: 1 each, 1 stays
            (T(2), "L..", (0, 0, 0), (6, 4, 4), 0),  # ann alone takes the 1 left behind
        ],
    )
    assert game.phase is Phase.ROUND_OVER


def test_a_leaver_takes_no_further_part_in_the_round():
    """A leaver takes no further part in the round: later treasures are shared by the
    players still in the cave only."""
    game = new_game()
    play_steps(
        game,
        [  # card   choices  carried    chests     on path
            (T(3), "LCC", (0, 1, 1), (1, 0, 0), 0),
            (T(9), ".CC", (0, 5, 5), (1, 0, 0), 1),  # 9 between two: 4 each, 1 stays
        ],
    )
    game.reveal(T(1))
    assert game.players_in_cave == (BOB, CY) and not game.view_for(ANN).decision_due


def test_disaster_takes_what_is_carried_but_not_what_is_banked():
    """Every player still in the cave loses everything carried this round; a leaver's
    chest is safe for the rest of the game."""
    game = new_game()
    play_steps(
        game,
        [
            (T(14), "LCC", (0, 4, 4), (6, 0, 0), 0),
            (LAVA, ".CC", (0, 4, 4), (6, 0, 0), 0),
            (LAVA, "", (0, 0, 0), (6, 0, 0), 0),
        ],
    )
    disaster = next(e for e in game.events if isinstance(e, Disaster))
    assert disaster.losses == ((BOB, 4), (CY, 4))


def test_the_round_ends_when_nobody_is_left_in_the_cave():
    """If nobody is left in the cave, the round ends. Otherwise go to 2."""
    game = new_game()
    game.reveal(T(1))
    choose(game, "CLC")
    assert game.phase is Phase.REVEAL
    game.reveal(T(2))
    choose(game, "L.L")
    assert game.phase is Phase.ROUND_OVER and game.round == 1


def test_no_decision_before_the_first_card_of_a_round():
    """There is no decision before the first card of a round."""
    game = new_game()
    assert not game.view_for(ANN).decision_due
    end_round_by_leaving(game)
    game.start_next_round()
    assert game.phase is Phase.REVEAL and not game.view_for(BOB).decision_due


def test_a_decision_can_change_until_the_last_one_is_in():
    """Every player still in the cave secretly chooses; the choices are revealed at the
    same time, so a choice may change until the last one is in."""
    game = new_game()
    game.reveal(T(9))
    game.submit("ann", "leave")
    game.submit("ann", "continue")
    game.submit("bob", "leave")
    assert game.in_cave == [True, True, True], "nothing is revealed before the last choice"
    game.submit("cy", "continue")
    assert game.in_cave == [True, False, True]
    assert game.chest == [0, 3, 0]


# -- relics -------------------------------------------------------------------------------


def test_a_lone_leaver_takes_all_relics_on_the_path():
    """Only when k = 1 does that player take all relics on the path."""
    game = new_game(rules="relics")
    for card in (RELIC, T(4), RELIC):
        game.reveal(card)
        choose(game, "CCC")
    game.reveal(T(1))
    events = choose(game, "CLC")
    assert game.relics == [[], [5, 5], []]
    left = next(e for e in events if isinstance(e, PlayerLeft))
    assert [value for _, value in left.relics] == [5, 5]
    assert all(pc.taken for pc in game.path if isinstance(pc.card, Relic))


def test_two_leavers_take_no_relic_and_it_stays_on_the_path():
    """With k >= 2 nobody takes them and they stay on the path."""
    game = new_game(rules="relics")
    game.reveal(RELIC)
    choose(game, "LLC")
    assert game.relics == [[], [], []]
    assert game.view_for(CY).relics_on_path == 1
    game.reveal(T(2))
    choose(game, "..L")
    assert game.relics == [[], [], [5]], "a later lone leaver takes the relic left behind"


def test_relic_values_in_relics_are_5_5_5_10_10():
    """The 1st, 2nd and 3rd relics taken are worth 5 each; the 4th and 5th, 10 each.
    Several taken at once count one after the other (2 before + 2 now = 5 and 10)."""
    game = new_game(rules="relics")
    rows = [  # round: relics revealed, who leaves alone, values taken
        ((RELIC, RELIC), ANN, [5, 5]),
        ((RELIC, RELIC), BOB, [5, 10]),
        ((RELIC,), CY, [10]),
    ]
    for number, (relics, leaver, values) in enumerate(rows, 1):
        for card in relics:
            game.reveal(card)
            choose(game, "CCC")
        game.reveal(T(1))
        choose(game, "".join("L" if s == leaver else "C" for s in range(3)))
        assert game.relics[leaver] == values, f"round {number}"
        end_round_by_leaving(game)
    assert game.relics_taken == 5 and "R" not in game.view_for(ANN).deck_counts


def test_relics_removed_without_being_taken_do_not_count():
    """Relics removed from the game without being taken do not count."""
    game = new_game(rules="relics")
    game.reveal(RELIC)
    choose(game, "CCC")
    game.reveal(SNAKES)
    choose(game, "CCC")
    events = game.reveal(SNAKES)
    assert next(e for e in events if isinstance(e, RoundEnded)).relics_removed == 1
    game.reveal(RELIC)
    choose(game, "LCC")
    assert game.relics[ANN] == [5], "the first relic taken, though the second revealed"


def test_relics_revealed_leave_the_game_at_round_end():
    """Every relic revealed this round (taken by a player, or removed) leaves the game;
    all other revealed cards go back into the deck."""
    game = new_game(rules="relics")
    game.reveal(RELIC)
    choose(game, "LCC")  # ann takes this one
    game.reveal(RELIC)
    choose(game, ".LL")  # two leavers: this one is removed
    deck = game.view_for(ANN).deck_counts
    assert deck["R"] == 3 and sum(deck.values()) == 33


def test_relic_variant_relics_are_worth_their_printed_value_and_come_one_per_round():
    """One relic is added per round, lowest first (5, 7, 8, 10, 12); a relic is worth its
    printed value; relics never revealed stay in the deck and accumulate."""
    game = new_game(rules="relic-variant")
    rows = [  # round: relics in the deck at its start, relic revealed and taken by ann
        ({"R5": 1}, Relic(5)),
        ({"R7": 1}, None),
        ({"R7": 1, "R8": 1}, Relic(8)),
        ({"R7": 1, "R10": 1}, Relic(7)),
        ({"R10": 1, "R12": 1}, Relic(12)),
    ]
    for number, (relics, taken) in enumerate(rows, 1):
        if number > 1:
            game.start_next_round()
        deck = game.view_for(ANN).deck_counts
        assert {c: n for c, n in deck.items() if c.startswith("R")} == relics, f"round {number}"
        if taken:
            game.reveal(taken)
            choose(game, "LCC")
        end_round_by_leaving(game)
    assert game.relics[ANN] == [5, 8, 7, 12] and game.over


# -- hazards and the deck -------------------------------------------------------------------


def test_a_disaster_removes_one_card_of_its_type_for_good():
    """One card of that type is removed from the game for good (the other goes back)."""
    game = new_game()
    game.reveal(SNAKES)
    choose(game, "CCC")
    game.reveal(SNAKES)
    game.start_next_round()
    view = game.view_for(ANN)
    assert view.deck_counts["H:snakes"] == 2 and view.deck_size == 29
    assert view.hazards_removed == (HazardType.SNAKES,)


def test_a_hazard_type_down_to_one_card_can_no_longer_cause_a_disaster():
    """A hazard type down to one card can no longer cause a disaster."""
    game = new_game()
    for _ in range(2):
        game.reveal(SPIDERS)
        choose(game, "CCC")
        game.reveal(SPIDERS)
        game.start_next_round()
    assert game.view_for(ANN).deck_counts["H:spiders"] == 1
    game.reveal(SPIDERS)
    choose(game, "CCC")
    assert SPIDERS not in [c for c, _ in game.reveal_outcomes()]


def test_round_end_returns_rubies_to_the_reserve_and_cards_to_the_deck():
    """Rubies still on the path go back to the reserve. All revealed cards go back into
    the deck, except the hazard card removed after a disaster."""
    game = new_game()
    play_steps(
        game,
        [  # card   choices  carried    chests     on path
            (T(13), "CCC", (4, 4, 4), (0, 0, 0), 1),
            (T(2), "LLC", (0, 0, 4), (5, 5, 0), 1),  # 3 on the path: 1 each, 1 stays
            (T(4), "..C", (0, 0, 8), (5, 5, 0), 1),
            (LAVA, "..C", (0, 0, 8), (5, 5, 0), 1),
            (LAVA, "", (0, 0, 0), (5, 5, 0), 0),
        ],
    )
    ended = next(e for e in game.events if isinstance(e, RoundEnded))
    assert ended.rubies_returned == 1 and game.rubies_lost == 8
    assert game.view_for(ANN).deck_size == 29


# -- the end of the game ----------------------------------------------------------------------


def test_the_game_ends_after_round_five_and_tied_players_share_the_victory():
    """After round 5, score = rubies in chest + value of relics taken. Highest score
    wins; tied players share the victory (no tie-breaker)."""
    game = new_game(rules="relics")
    rounds = [  # one row per round: (card, choices) for each step
        [(T(15), "LLC"), (RELIC, "..C"), (SNAKES, "..C"), (SNAKES, "")],  # relic removed
        [(T(3), "LLC"), (RELIC, "..L")],  # cy: 1 rubies and the first relic taken, 5
        [(T(3), "LLL")],
        [(T(3), "LLL")],
        [(T(3), "LLC"), (SPIDERS, "..C"), (SPIDERS, "")],
    ]
    for number, steps in enumerate(rounds, 1):
        if number > 1:
            game.start_next_round()
        for card, choices in steps:
            game.reveal(card)
            if choices:
                choose(game, choices)
    assert game.over and game.phase is Phase.OVER
    assert game.chest == [9, 9, 3] and game.relics == [[], [], [5]]
    assert game.scores() == (9, 9, 8)
    assert game.winners() == (ANN, BOB)
    assert game.view_for(CY).winners == (ANN, BOB)


# -- what each player sees ------------------------------------------------------------------------


def test_hidden_chests_are_shown_only_to_their_owner_until_the_game_ends():
    """When hidden, others see no chest totals until game end."""
    game = new_game(chests_hidden=True)
    game.reveal(T(9))
    choose(game, "LCC")
    game.reveal(LAVA)
    choose(game, ".LL")
    mine, bobs, spectator = game.view_for(ANN), game.view_for(BOB), game.view_for(None)
    assert [p.chest for p in mine.players] == [3, None, None]
    assert [p.chest for p in bobs.players] == [None, 3, None]
    assert [p.chest for p in spectator.players] == [None, None, None]
    # What others banked round by round would add up to their chests: it is hidden too.
    assert [r.banked for r in bobs.round_results] == [(None, 3, None)]
    for _ in range(4):
        game.start_next_round()
        end_round_by_leaving(game)
    assert [p.chest for p in game.view_for(BOB).players] == list(game.chest)
    assert None not in game.view_for(BOB).round_results[0].banked


def test_shown_chests_are_seen_by_everyone():
    """The printed rules show chests to everyone by default."""
    game = new_game()
    game.reveal(T(9))
    choose(game, "LCC")
    assert [p.chest for p in game.view_for(CY).players] == [3, 0, 0]


def pending(choices: dict[int, Decision], players: int = 4, **options) -> Game:
    """Mid-round (the third card, bob already in camp) with ``choices`` made, not revealed."""
    game = new_game(players, **options)
    game.reveal(T(9))
    choose(game, "CCCC"[:players])
    game.reveal(T(5))
    choose(game, "CLCC"[:players])
    game.reveal(T(7))
    for seat, decision in choices.items():
        game.submit(seat, decision)
    return game


@pytest.mark.parametrize("hidden", [False, True])
def test_the_view_never_shows_another_players_pending_choice(hidden):
    """Nobody sees another's choice before revealing: only that they have chosen. Every
    other seat and a spectator get exactly the same view after a pending Exit as after a
    pending Continue, whoever chose, and whatever else has been chosen."""
    for chooser in (ANN, CY):
        for others in ({}, {3: Decision.LEAVE}, {3: Decision.CONTINUE}):
            after = {
                choice: pending({**others, chooser: choice}, chests_hidden=hidden)
                for choice in Decision
            }
            assert after[Decision.LEAVE].pending != after[Decision.CONTINUE].pending
            for viewer in (ANN, BOB, CY, 3, None):
                leave = after[Decision.LEAVE].view_for(viewer)
                stay = after[Decision.CONTINUE].view_for(viewer)
                if viewer == chooser:
                    assert leave.my_decision is Decision.LEAVE
                    assert stay.my_decision is Decision.CONTINUE
                    continue
                assert leave.players[chooser].decided and not leave.players[BOB].decided
                assert leave == stay, (chooser, others, viewer)


def test_the_view_never_shows_the_order_of_the_deck():
    """The deck is shuffled: a view holds how many of each card are left, never which
    comes next. Two games whose next cards differ look the same."""
    games = {}
    for seed in range(50):
        game = Game(GameConfig(NAMES[:3], "classic"), seed=seed)
        view = game.view_for(ANN)
        games.setdefault(game.reveal_random()[-1].card, view)
    assert len(games) > 1, "the draws differ"
    views = list(games.values())
    assert all(view == views[0] for view in views)
    assert views[0].deck_counts == {**{f"T{v}": 1 for v in TREASURE_VALUES}, "T5": 2, "T7": 2,
                                    "T11": 2, **{f"H:{h.value}": 3 for h in HazardType}}
