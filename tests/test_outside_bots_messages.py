"""What a person writing their own computer player reads when it goes wrong: one line,
saying what was wrong and what to do, and the figures of ``diamant sim`` left intact."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from diamant_tui.bots import BotSpecError, parse_lineup
from test_outside_bots import diamant

PLAYERS = """\
from diamant_tui.engine.view import Decision


class Chatty:
    \"\"\"Prints what it sees, as one does while writing a player.\"\"\"

    def decide(self, view):
        print("I see card", view.step)
        return Decision.LEAVE if view.step > 3 else Decision.CONTINUE


class Wordy:
    def decide(self, view):
        raise ValueError("first line\\nsecond line\\n" * 50)


class Blind:
    def decide(self, view):
        return Decision.LEAVE if view.step >= 2 else Decision.CONTINUE

    def watch(self, view):
        raise LookupError("no camp here")


class Levelled:
    def __init__(self, level):
        self.level = level

    def decide(self, view):
        return Decision.LEAVE
"""


@pytest.fixture
def bot_dir(tmp_path, monkeypatch):
    (tmp_path / "mine.py").write_text(PLAYERS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_player_that_prints_leaves_the_figures_of_diamant_sim_whole(bot_dir, jobs):
    """The player's own prints go to standard error; standard output is the JSON alone."""
    done = diamant("sim", "--bots", "ev,mine.py:Chatty,risk", "--games", "4", "--json",
                   "--jobs", jobs, cwd=bot_dir)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert [b["bot"] for b in figures["bots"]] == ["ev", "mine.py:Chatty", "risk"]
    assert "I see card 1" in done.stderr


def test_a_failure_told_over_many_lines_is_one_line(bot_dir):
    done = diamant("sim", "--bots", "ev,mine.py:Wordy,risk", "--games", "2", cwd=bot_dir)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(
        "diamant sim: error: computer player 'mine.py:Wordy' raised ValueError: "
        "first line second line first line")
    assert lines[0].endswith("(round 1, card 1).") and len(lines[0]) < 300


def test_a_file_named_without_its_class_is_told_to_name_one(bot_dir):
    with pytest.raises(BotSpecError) as caught:
        parse_lineup("ev,mine.py")
    assert "name the class in it after a colon, e.g. mine.py:Chatty" in str(caught.value)


def test_a_class_that_needs_arguments_is_told_how_it_is_built(bot_dir):
    done = diamant("sim", "--bots", "ev,mine.py:Levelled,risk", "--games", "2", cwd=bot_dir)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "diamant sim: error: computer player 2 of 3: 'mine.py:Levelled' could not be built: "
        "TypeError: Levelled.__init__() missing 1 required positional argument: 'level'; "
        "its class must be built with no argument, or with rng= alone."]


def test_diamant_play_refuses_a_class_it_cannot_build_before_its_screen_opens(bot_dir):
    """Named on the command line, it is refused there, as a misspelt name is (it used to
    open the setup screen, and Enter ended the program with a traceback)."""
    done = subprocess.run([sys.executable, "-m", "diamant_tui", "play", "--bots",
                           "mine.py:Levelled,ev"], cwd=bot_dir, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "diamant play: computer player 1 of 2: 'mine.py:Levelled' could not be built: "
        "TypeError: Levelled.__init__() missing 1 required positional argument: 'level'; "
        "its class must be built with no argument, or with rng= alone."]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_watch_that_raises_is_told_once_in_a_whole_simulation(bot_dir, jobs):
    """README: "One that raises is logged once, by name, and not called again" (it was
    told again in every game, hundreds of lines for a few hundred games)."""
    done = diamant("sim", "--bots", "ev,mine.py:Blind,risk", "--games", "120", "--jobs", jobs,
                   "--engine", cwd=bot_dir)
    assert done.returncode == 0, done.stderr
    told = [line for line in done.stderr.splitlines() if "watch()" in line]
    assert len(told) == 1, done.stderr
    assert told[0].startswith("computer player 'mine.py:Blind' raised LookupError: no camp "
                              "here in watch() (round 1, card ")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_player_file_imports_the_modules_beside_it(bot_dir, jobs):
    """As ``python bot.py`` would: a player split into a file and its helpers, named from
    another folder (it used to fail with "No module named 'helper'")."""
    (bot_dir / "team").mkdir()
    (bot_dir / "team" / "helper.py").write_text("LIMIT = 12\n")
    (bot_dir / "team" / "bot.py").write_text(
        "import helper\n\n\nclass Banker:\n    def decide(self, view):\n"
        "        import helper as later  # an import made while playing finds it too\n"
        "        return 'leave' if view.me.carried >= later.LIMIT else 'continue'\n")
    done = diamant("sim", "--bots", "team/bot.py:Banker,ev,risk", "--games", "30", "--json",
                   "--jobs", jobs, cwd=bot_dir)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["bots"][0]["bot"] == "team/bot.py:Banker"


ODD = """\
class Odd(BaseException):
    \"\"\"Not an Exception (as pytest.fail raises, or an async library's cancellation).\"\"\"


class Deciding:
    def decide(self, view):
        raise Odd("not an Exception")


class Watching:
    def decide(self, view):
        return "leave"

    def watch(self, view):
        raise Odd("not an Exception")


class Building:
    def __init__(self):
        raise Odd("not an Exception")

    def decide(self, view):
        return "leave"
"""


@pytest.mark.parametrize("spec, words", [
    ("odd.py:Deciding", "computer player 'odd.py:Deciding' raised Odd: not an Exception "
                        "(round 1, card 1)."),
    ("odd.py:Building", "computer player 2 of 3: 'odd.py:Building' could not be built: "
                        "Odd: not an Exception."),
    ("loads_odd.py:Deciding", "computer player 2 of 3: '{dir}/loads_odd.py' could not be "
                              "loaded: Odd: not an Exception"),
])
def test_a_player_raising_what_is_not_an_exception_is_told_in_one_line(bot_dir, spec, words):
    (bot_dir / "odd.py").write_text(ODD)
    (bot_dir / "loads_odd.py").write_text(ODD + "\nraise Odd('not an Exception')\n")
    done = diamant("sim", "--bots", f"ev,{spec},risk", "--games", "2", cwd=bot_dir)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "diamant sim: error: " + words.format(dir=bot_dir.resolve())], done.stderr


def test_a_watch_raising_what_is_not_an_exception_is_told_and_the_game_goes_on(bot_dir):
    (bot_dir / "odd.py").write_text(ODD)
    done = diamant("sim", "--bots", "ev,odd.py:Watching,risk", "--games", "4", "--engine",
                   cwd=bot_dir)
    assert done.returncode == 0, done.stderr
    assert "raised Odd: not an Exception in watch()" in done.stderr
    assert "Traceback" not in done.stderr


SWALLOWS = """\
class Swallows:
    \"\"\"Goes on whatever happens: a bare except around its work swallows being stopped.\"\"\"

    def decide(self, view):
        while True:
            try:
                sum(range(10_000))
            except:  # noqa: E722
                pass
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_player_that_swallows_being_stopped_does_not_hang_diamant_sim(bot_dir, jobs):
    """README: "one that never ends is interrupted" (a bare except swallowed the
    interruption, and diamant sim ran for ever)."""
    (bot_dir / "swallows.py").write_text(SWALLOWS)
    done = diamant("sim", "--bots", "ev,swallows.py:Swallows,risk", "--games", "4",
                   "--time-limit", "0.2", "--jobs", jobs, cwd=bot_dir)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "diamant sim: error: computer player 'swallows.py:Swallows' thought for more than "
        "0.2 s to decide (round 1, card 1), and went on when told to stop."], done.stderr
    assert done.stdout == ""
