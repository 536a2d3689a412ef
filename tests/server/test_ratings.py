"""Ratings from a game's final ranking (server/ratings.py): "Highest score wins; tied
players share the victory (no tie-breaker)" (RULES.md), so ties share a place."""

from __future__ import annotations

import pytest

from diamant_server.ratings import Rating, places_from_scores, rate_game, rated_as


def test_tied_scores_share_a_place_and_the_next_place_is_skipped():
    assert places_from_scores([9, 9, 4]) == [1, 1, 3]
    assert places_from_scores([3, 12, 12, 12, 0]) == [4, 1, 1, 1, 5]
    assert places_from_scores([5, 5, 5]) == [1, 1, 1]


def test_who_is_rated_for_a_seat():
    assert rated_as("key:SHA256:ann", None) == "key:SHA256:ann"
    assert rated_as(None, "expert") == "bot:expert"
    assert rated_as(None, "carry:20") == rated_as(None, "carry:35") == "bot:carry"
    assert rated_as(None, None) is None  # a guest


def test_a_newcomer_is_shown_a_conservative_zero():
    assert Rating().shown == pytest.approx(Rating().mu - 3 * Rating().sigma) == pytest.approx(0)


def test_a_tie_gives_equal_changes_to_equal_players():
    new = rate_game([("a", None), ("b", None), ("c", None), ("d", None)], [1, 1, 3, 4])
    assert new["a"] == new["b"]
    strong = Rating(mu=30, sigma=4, games=10, wins=4)
    again = rate_game([("a", strong), ("b", strong), ("c", None)], [2, 2, 1])
    assert again["a"] == again["b"]


def test_a_place_behind_tied_winners_gains_less_than_they_do():
    """Places 1, 1, 3, 4 among equals: the third did worse than the two winners."""
    new = rate_game([("a", None), ("b", None), ("c", None), ("d", None)], [1, 1, 3, 4])
    assert new["a"].mu > new["c"].mu > new["d"].mu
    assert (new["a"].wins, new["c"].wins) == (1, 0)


def test_everyone_rated_counts_the_game_and_the_winners_a_win():
    before = Rating(mu=27, sigma=6, games=3, wins=2)
    new = rate_game([("a", before), ("b", None), ("c", None)], [2, 1, 3])
    assert (new["a"].games, new["a"].wins) == (4, 2)
    assert (new["b"].games, new["b"].wins) == (1, 1)
    assert new["a"].sigma < before.sigma, "each game makes the rating surer"


def test_guests_are_not_rated_but_the_others_are_rated_against_them():
    with_guest = rate_game([("a", None), (None, None), ("b", None)], [1, 2, 3])
    without = rate_game([("a", None), ("b", None)], [1, 2])
    assert set(with_guest) == {"a", "b"}
    assert with_guest["a"].mu != without["a"].mu, "beating the guest counts too"
    assert rate_game([(None, None), (None, None), (None, None)], [1, 2, 3]) == {}


def test_two_computer_players_of_one_level_count_one_game_for_it():
    new = rate_game([("p", None), ("bot:carry", None), ("bot:carry", None)], [2, 1, 3])
    assert (new["bot:carry"].games, new["bot:carry"].wins) == (1, 1)
    alone = rate_game([("p", None), ("bot:carry", None), ("x", None)], [2, 1, 3])
    assert new["bot:carry"].mu < alone["bot:carry"].mu, "its last place counts against it"
