"""``diamant sim``: many games between computer players, and the figures that compare them."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import numpy as np
import pytest

from diamant_tui.sim import simulate as sim
from diamant_tui.bots.expert import ExpertBot
from diamant_tui.cli import main
from diamant_tui.sim.simulate import seat_names, seating, simulate, win_shares


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


@pytest.fixture
def played(monkeypatch) -> list[tuple]:
    """Every game the engine path plays, with the players seated at it (in this process)."""
    games: list[tuple] = []
    play_game = sim.play_game

    def play_and_keep(game, bots, decks=None, **options):
        games.append((game, list(bots)))
        return play_game(game, bots, decks, **options)

    monkeypatch.setattr(sim, "play_game", play_and_keep)
    return games


def turns_of(game, seat: int) -> int:
    """How many times ``seat`` chose, over the whole game."""
    return sum(1 for history in game.history for entry in history.decisions if seat in entry)


def figures_by_hand(values: np.ndarray) -> tuple[float, float]:
    """Mean and its 95 % interval's half-width (normal approximation), worked out here."""
    return values.mean(), 1.959964 * values.std(ddof=1) / np.sqrt(len(values))


@pytest.mark.parametrize("engine", [False, True])
def test_figures_per_player_and_per_game(engine, played):
    """Each game's scores, win shares, cards per round and disasters, and each player's
    mean and interval, are the figures of the games played, under the player's name."""
    specs = ["ev", "risk", "cards:6", "carry:20", "hazards:2"]
    result = simulate("relics", specs, 60, seed=3, engine=engine)
    assert result.fast is not engine
    assert result.scores.shape == (60, 5)
    assert (result.wins == win_shares(result.scores)).all()
    assert np.allclose(result.wins.sum(axis=1), 1)
    assert (result.cards >= 1).all()
    assert np.allclose(result.disasters * 5, (result.disasters * 5).round())  # of 5 rounds
    if engine:
        assert len(played) == 60
        for g, (game, _) in enumerate(played):
            assert game.over
            assert result.scores[g].tolist() == [game.score(game.names.index(name))
                                                 for name in seat_names(specs)]
            assert result.cards[g] == np.mean([r.cards for r in game.round_results])
            assert result.disasters[g] == np.mean([r.disaster is not None
                                                   for r in game.round_results])
    summary = result.summary()
    assert [b["bot"] for b in summary["bots"]] == specs
    for i, bot in enumerate(summary["bots"]):
        win, win_half = figures_by_hand(result.wins[:, i])
        score, score_half = figures_by_hand(result.scores[:, i])
        assert bot["wins"] == pytest.approx(win, abs=1e-4)
        assert bot["wins_interval"] == pytest.approx(
            [max(0, win - win_half), min(1, win + win_half)], abs=1e-4)
        assert bot["score"] == pytest.approx(score, abs=0.01)
        assert bot["score_interval"] == pytest.approx([score - score_half, score + score_half],
                                                      abs=0.01)
    assert summary["cards_per_round"] == pytest.approx(result.cards.mean(), abs=1e-3)
    assert summary["disaster_share"] == pytest.approx(result.disasters.mean(), abs=1e-4)
    assert 1 <= summary["cards_per_round"] <= 25


def test_the_expert_plays_on_the_engine(played, monkeypatch):
    """The expert has no fast version: its games are played on the engine, where it
    makes every one of its choices itself, and its column holds its own scores."""
    asked: list[int] = []
    decide = ExpertBot.decide
    monkeypatch.setattr(ExpertBot, "decide",
                        lambda bot, view: asked.append(view.seat) or decide(bot, view))
    result = simulate("classic", ["expert", "ev", "cards:6"], 4, seed=1)
    assert not result.fast and result.games == 4 and len(played) == 4
    turns = 0
    for g, (game, bots) in enumerate(played):
        seat = next(s for s, bot in enumerate(bots) if isinstance(bot, ExpertBot))
        assert game.over and game.names[seat] == "expert"
        assert result.scores[g, 0] == game.score(seat)
        assert turns_of(game, seat) >= 5  # a choice in every round, after its first card
        turns += turns_of(game, seat)
    assert len(asked) == turns


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
