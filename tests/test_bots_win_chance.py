"""The expert's chance of winning the game, from the scores at the end of a round."""

import numpy as np
import pytest

from diamant_tui.bots._rollout import win_chance


@pytest.mark.parametrize("players", [3, 5, 8])
@pytest.mark.parametrize("rounds_left", [1, 4])
def test_level_players_each_get_an_even_share(players, rounds_left):
    totals = np.full((players, 1), 12.0)
    chance = win_chance(totals, 0, rounds_left, 9.0)
    assert chance[0] == pytest.approx(1 / players, abs=0.01)


def test_the_chances_of_all_players_add_up_to_one():
    totals = np.array([[30.0], [22.0], [15.0], [9.0], [0.0]])
    chances = [win_chance(totals, seat, 2, 9.0)[0] for seat in range(5)]
    assert sum(chances) == pytest.approx(1.0, abs=0.02)
    assert chances == sorted(chances, reverse=True)


def test_an_edge_per_round_counts_for_each_round_left():
    level = np.zeros((5, 1))
    assert win_chance(level, 0, 1, 5.0, 3.0)[0] < win_chance(level, 0, 4, 5.0, 3.0)[0]
    # Three rubies a round for four rounds is a lead of twelve with no edge.
    ahead = np.array([[12.0], [0.0], [0.0], [0.0], [0.0]])
    assert win_chance(level, 0, 4, 5.0, 3.0)[0] == pytest.approx(win_chance(ahead, 0, 4, 5.0)[0])


def test_the_last_round_shares_the_win_among_the_leaders():
    totals = np.array([[20, 20, 5], [20, 10, 9], [3, 10, 9]], dtype=float)
    assert list(win_chance(totals, 0, 0, 9.0)) == [0.5, 1.0, 0.0]


def test_an_edge_can_differ_from_one_player_to_another():
    """An edge over one player only counts as a lead over that player only."""
    level = np.zeros((3, 1))
    edge = np.array([[3.0], [0.0]])  # over seat 1, none over seat 2
    ahead = np.array([[12.0], [0.0], [12.0]])
    assert win_chance(level, 0, 4, 5.0, edge)[0] == pytest.approx(win_chance(ahead, 0, 4, 5.0)[0])
