"""``diamant play`` and ``diamant sim`` name computer players alike (README)."""

from __future__ import annotations

import json

import pytest

import diamant_tui.ui
from diamant_tui.cli import main
from diamant_tui.ui.app import DiamantApp
from diamant_tui.ui.setup_choices import CUSTOM

KNOWN = "known: cards, carry, hazards, random, risk, ev, expert"


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def started(monkeypatch):
    """The setup choices ``diamant play`` would open the app with (the app is not run)."""
    seen = []
    monkeypatch.setattr(DiamantApp, "run", lambda app, *a, **k: seen.append(app.choices))
    return seen


@pytest.mark.parametrize("command", ["play", "sim"])
@pytest.mark.parametrize("lineup", ["foo,ev,risk", "ev,foo,risk", "ev,risk,foo", "ev,risk,foo:3"])
def test_an_unknown_player_is_named_wherever_it_stands(command, lineup, capsys, started):
    status, out, err = run(capsys, command, "--bots", lineup, *(["--games", "5"] * (command == "sim")))
    assert status == 2
    assert f"unknown computer player 'foo'; {KNOWN}" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not started


@pytest.mark.parametrize("command", ["play", "sim"])
def test_an_empty_name_in_the_list_is_refused(command, capsys, started):
    status, _, err = run(capsys, command, "--bots", "ev,,risk")
    assert status == 2
    assert "computer player 2 of 3 is empty" in err


def test_play_takes_the_comma_separated_list_of_the_readme(capsys, started):
    status, _, err = run(capsys, "play", "--bots", "carry:20, cards:6", "--players", "5")
    assert status == 0, err
    assert started[0].level == CUSTOM
    assert started[0].custom_bots == ("carry:20", "cards:6")
    assert started[0].bot_specs() == ("carry:20", "cards:6", "carry:20", "cards:6")


def test_play_help_lists_the_computer_players(capsys):
    status, out, _ = run(capsys, "play", "--help")
    assert status == 0
    for words in ("--bots LIST", "comma-separated", "cards:N", "carry:X", "hazards:K",
                  "random:P", "risk:F", "ev:F", "expert", "15 to 25 rubies"):
        assert words in out, words


def test_sim_plays_personalities_unless_told_to_play_the_exact_rules(capsys):
    args = ("sim", "--bots", "risk,risk,risk", "--games", "50", "--json")
    status, out, _ = run(capsys, *args)
    assert status == 0 and json.loads(out)["exact"] is False
    assert len({b["wins"] for b in json.loads(out)["bots"]}) > 1
    status, out, _ = run(capsys, *args, "--exact")
    assert status == 0 and json.loads(out)["exact"] is True
    assert {b["wins"] for b in json.loads(out)["bots"]} == {0.3333}
    status, out, _ = run(capsys, "sim", "--help")
    assert "--exact" in out and "15 to 25 rubies" in out


@pytest.mark.parametrize("command, option, value", [
    ("play", "--timer", "nan"), ("play", "--timer", "inf"), ("play", "--pace", "nan"),
    ("play", "--pace", "inf"), ("sim", "--time-limit", "nan"), ("sim", "--time-limit", "inf"),
])
def test_seconds_that_are_not_a_finite_number_are_refused(command, option, value, capsys,
                                                          started):
    """A timer of nan passed the check for a positive number and crashed the screen's
    countdown; a time limit of nan limited nothing. Both are refused, saying what to give."""
    status, out, err = run(capsys, command, option, value, "--bots", "ev,ev,ev", "--games", "1"
                           ) if command == "sim" else run(capsys, command, option, value)
    assert status == 2 and out == ""
    assert f"argument {option}: {value!r} is not a finite number; give seconds" in err
    assert "Traceback" not in err
    assert not started


class _BrokenApp(DiamantApp):
    """An app whose screen cannot be drawn, run headless.

    A class of its own rather than DiamantApp's handler patched: the app remembers, for
    the process, which handlers each class has, and would call the broken one in every
    test that follows."""

    def on_mount(self) -> None:
        raise RuntimeError("the screen could not be drawn")

    def run(self, **options):  # type: ignore[override]
        return super().run(headless=True)


def test_a_game_that_stops_on_an_error_exits_with_status_1(capsys, monkeypatch):
    """Whatever a script runs `diamant play` from learns it did not end well."""
    monkeypatch.setattr(diamant_tui.ui, "DiamantApp", _BrokenApp)
    status, _, _ = run(capsys, "play")
    assert status == 1


@pytest.mark.parametrize("options, words", [
    (("--players", "3", "--bots", "ev,ev,ev,ev"),
     "--bots names 4 computer players, but a game of 3 players has 2 besides you: name at "
     "most 2, or give --players 5."),
    (("--bots", "ev,risk,expert,cards:6"),  # the default of 4 players
     "--bots names 4 computer players, but a game of 4 players has 3 besides you: name at "
     "most 3, or give --players 5."),
    (("--players", "8", "--bots", ",".join(["ev"] * 8)),
     "--bots names 8 computer players, but a game of 8 players has 7 besides you: name at "
     "most 7 (a game has at most 8 players)."),
])
def test_more_computer_players_than_seats_are_refused(options, words, capsys, started):
    """The names beyond the seats were dropped without a word: the game is refused, as
    diamant sim refuses a line-up that does not fit, saying how many fit and what to do."""
    status, out, err = run(capsys, "play", *options)
    assert status == 2 and out == ""
    assert err == f"diamant play: {words}\n"
    assert not started


def test_as_many_computer_players_as_seats_are_taken(capsys, started):
    status, _, err = run(capsys, "play", "--players", "3", "--bots", "ev,risk")
    assert status == 0, err
    assert started[0].bot_specs() == ("ev", "risk")


@pytest.mark.parametrize("option, value, words", [
    ("--timer", "1e9", "--timer 1e+09: give more than 0 and at most 600 seconds to decide, "
                       "e.g. 30, or leave --timer out for no timer."),
    ("--timer", "600.5", "--timer 600.5: give more than 0 and at most 600 seconds to "
                         "decide, e.g. 30, or leave --timer out for no timer."),
    ("--timer", "0", "--timer 0: give more than 0 and at most 600 seconds to decide, e.g. "
                     "30, or leave --timer out for no timer."),
    ("--pace", "1e9", "--pace 1e+09: give 0 to 10 seconds from one card to the next, e.g. "
                      "0.7 (0: as soon as everyone has chosen)."),
    ("--pace", "-1", "--pace -1: give 0 to 10 seconds from one card to the next, e.g. 0.7 "
                     "(0: as soon as everyone has chosen)."),
])
def test_a_timer_or_pace_out_of_bounds_is_refused(option, value, words, capsys, started):
    """--timer 1e9 opened a game whose countdown showed ten digits, cut in its corner (and
    the setup screen '1e+09 s'); --pace 1e9 turned the next card in 31 years. Each is
    refused within the bounds a table keeps, saying what to give."""
    status, out, err = run(capsys, "play", option, value)
    assert status == 2 and out == ""
    assert err == f"diamant play: {words}\n"
    assert not started


def test_the_bounds_of_timer_and_pace_are_taken_and_told_in_help(capsys, started):
    status, _, err = run(capsys, "play", "--timer", "600", "--pace", "10")
    assert status == 0, err
    assert (started[0].timer, started[0].pace) == (600, 10)
    status, _, err = run(capsys, "play", "--timer", "0.5", "--pace", "0")
    assert status == 0, err
    status, out, _ = run(capsys, "play", "--help")
    help_text = " ".join(out.split())
    assert "more than 0 and at most 600 (default: no timer)" in help_text
    assert "the least seconds from one card to the next, 0 to 10 (default: 0.7)" in help_text


@pytest.mark.parametrize("command", [
    ["replay", "{record}", "--summary"],
    ["replay", "{record}", "--json"],
    ["sim", "--bots", "ev,risk,carry:20", "--games", "20", "--json"],
])
def test_output_read_by_a_program_that_stopped_reading_ends_quietly(tmp_path, command):
    """``diamant replay game.json --summary | head -3``: once the reader has gone, there
    is nobody left to tell anything; no traceback on the terminal."""
    import os
    import subprocess
    import sys

    from diamant_tui.engine.record import FORMAT

    names = ["ann", "bob", "cy"]
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": FORMAT, "rules": "classic", "players": names,
                                  "rounds": [{"cards": ["T3"], "decisions": [
                                      {n: "leave" for n in names}]}] * 5}))
    read, write = os.pipe()
    os.close(read)  # the reader has already gone
    try:
        done = subprocess.run(
            [sys.executable, "-m", "diamant_tui", *(a.format(record=record) for a in command)],
            stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and done.stderr == "", done.stderr
    assert done.returncode == 141
