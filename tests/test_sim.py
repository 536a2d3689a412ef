"""``diamant sim``: many games between computer players, and the figures that compare them."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import numpy as np
import pytest

from diamant_tui.cli import main
from diamant_tui.sim import seat_names, seating, simulate, win_shares


def test_tied_leaders_share_the_win():
    """'Highest score wins; tied players share the victory.'"""
    shares = win_shares(np.array([[5, 9, 9], [1, 2, 3], [4, 4, 4]]))
    assert shares.tolist() == [[0, 0.5, 0.5], [0, 0, 1], [1 / 3, 1 / 3, 1 / 3]]


def test_identical_players_tie_every_game():
    """Three players following the same rule carry and bank the same: a three-way tie."""
    for engine in (False, True):
        result = simulate("classic", ["cards:5"] * 3, 30, seed=2, engine=engine, exact=True)
        assert np.allclose(result.wins, 1 / 3)
        assert result.wins.sum(axis=1).tolist() == [1.0] * 30


@pytest.mark.parametrize("engine", [False, True])
def test_figures_per_player_and_per_game(engine):
    specs = ["ev", "risk", "cards:6", "carry:20", "hazards:2"]
    result = simulate("relics", specs, 60, seed=3, engine=engine)
    assert result.fast is not engine
    assert result.scores.shape == (60, 5)
    assert np.allclose(result.wins.sum(axis=1), 1)
    summary = result.summary()
    assert [b["bot"] for b in summary["bots"]] == specs
    for bot in summary["bots"]:
        low, high = bot["wins_interval"]
        assert 0 <= low <= bot["wins"] <= high <= 1
        assert bot["score_interval"][0] <= bot["score"] <= bot["score_interval"][1]
    assert 1 <= summary["cards_per_round"] <= 25
    assert 0 <= summary["disaster_share"] <= 1


def test_the_expert_plays_on_the_engine():
    result = simulate("classic", ["expert", "ev", "cards:6"], 4, seed=1)
    assert not result.fast
    assert result.games == 4


def test_the_same_seed_gives_the_same_figures_whatever_the_jobs():
    """Games come in fixed chunks with their own seeds, so processes change nothing."""
    fast = dict(rules="classic", specs=["ev", "risk", "cards:6"], games=20_500, seed=5)
    assert (simulate(**fast).scores == simulate(**fast, jobs=2).scores).all()
    slow = dict(rules="relic-variant", specs=["ev", "carry:10", "random:0.3"], games=60,
                seed=6, engine=True)
    one, two = simulate(**slow), simulate(**slow, jobs=2)
    assert (one.scores == two.scores).all() and (one.cards == two.cards).all()
    assert not (simulate(**{**fast, "seed": 9}).scores == simulate(**fast).scores).all()


def test_seats_turn_so_each_player_sits_everywhere():
    for seats in range(3, 9):
        for first in (0, 7):
            table = [seating(first + g, seats) for g in range(seats)]
            for seat in range(seats):
                assert sorted(row[seat] for row in table) == list(range(seats))


def test_a_players_figures_do_not_depend_on_where_it_is_listed():
    """The rules have no seat order: listing the same players in another order plays the
    same games, and each player's scores come back under its own name."""
    specs = ["random:0.3", "cards:4", "carry:9", "ev"]
    a = simulate("classic", specs, 40, seed=4, engine=True)
    b = simulate("classic", specs[1:] + specs[:1], 40, seed=4, engine=True)
    assert (a.scores[:, 0] == b.scores[:, 3]).all()
    assert (a.scores[:, 1:] == b.scores[:, :3]).all()
    assert len({tuple(col) for col in a.scores.T}) == 4  # the players did play differently


def test_duplicate_players_get_distinct_names():
    assert seat_names(["ev", "ev", "risk", "ev"]) == ["ev", "ev#2", "risk", "ev#3"]


# -- the command --------------------------------------------------------------------------


def test_sim_prints_a_table(capsys):
    assert main(["sim", "--bots", "ev,risk,cards:6,carry:20", "--games", "300"]) == 0
    out = capsys.readouterr().out
    for name in ("ev", "risk", "cards:6", "carry:20", "wins", "95% interval", "mean score",
                 "cards per round", "end in disaster"):
        assert name in out
    assert "300 games" in out and "classic" in out


def test_sim_json_is_one_object(capsys):
    assert main(["sim", "--bots", "ev,risk,cards:6", "--games", "50", "--json",
                 "--rules", "relic-variant", "--seed", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "relic-variant" and data["games"] == 50 and data["seed"] == 3
    assert [b["bot"] for b in data["bots"]] == ["ev", "risk", "cards:6"]
    assert abs(sum(b["wins"] for b in data["bots"]) - 1) < 1e-3
    assert set(data) >= {"cards_per_round", "disaster_share", "path"}


@pytest.mark.parametrize("args, words", [
    (["--bots", "ev,nobody,risk"], "unknown computer player 'nobody'"),
    (["--bots", "ev,risk"], "2 computer players"),
    (["--bots", ",".join(["ev"] * 9)], "9 computer players"),
    (["--games", "0"], "at least one game"),
    (["--games", "many"], "invalid int value"),
    (["--rules", "modern"], "unknown rule set 'modern'"),
    (["--bots", "ev,risk,carry:much"], "must be a whole number"),
    (["--jobs", "0"], "at least one process"),
])
def test_bad_arguments_give_one_line_and_a_failing_status(args, words, capsys):
    try:
        status = main(["sim", *args])
    except SystemExit as exit:
        status = exit.code
    err = capsys.readouterr().err
    assert status == 2
    assert words in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_help_explains_the_players(capsys):
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = capsys.readouterr().out
    for words in ("--bots", "--games", "--jobs", "--json", "expert", "risk:F", "ev:F"):
        assert words in out


def test_progress_bar_only_on_a_terminal():
    """The bar goes to standard error when it is a terminal, and never to standard output."""
    cmd = [sys.executable, "-m", "diamant_tui", "sim", "--bots", "ev,risk,cards:6",
           "--games", "30", "--engine"]
    plain = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and "games" in plain.stdout
    assert plain.stderr == ""
    leader, follower = pty.openpty()
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=follower, text=True) as proc:
        os.close(follower)
        out, _ = proc.communicate(timeout=300)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    os.close(leader)
    assert proc.returncode == 0
    assert b"[" in seen and b"30/30 games" in seen
    assert "30/30" not in out
