"""Computer players from outside (a file, a module, an installed package), the checks on
every decision, the tournament, and the expert alone in the cave against an exact answer."""

from __future__ import annotations

import asyncio
import logging
import random
import subprocess
import sys

import numpy as np
import pytest

from diamant_tui.bots import BotFailure, BotSpecError, make_bot, parse_lineup
from diamant_tui.bots.expert import ExpertBot
from diamant_tui.engine.cards import TREASURE_VALUES, Hazard, HazardType, Treasure, parse_card
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.sim.simulate import play_game, simulate
from diamant_tui.cli.sim import run
from diamant_tui.table import Table, TableSettings, TableStatus
from diamant_tui.sim.tournament import tournament
from diamant_tui.engine.view import Decision, Phase

TEN_LINES = """\
from diamant_tui.engine.view import Decision


class Cautious:
    \"\"\"Leaves with 10 rubies or once two traps show.\"\"\"

    def decide(self, view):
        if view.me.carried >= 10 or len(view.hazards_showing) >= 2:
            return Decision.LEAVE
        return Decision.CONTINUE
"""

BAD = """\
import time


class Raises:
    def decide(self, view):
        raise ZeroDivisionError("no rubies to divide")


class Invalid:
    def decide(self, view):
        return 42


class Slow:
    def decide(self, view):
        while True:
            time.sleep(0.01)


class Busy:
    def decide(self, view):
        while True:
            pass


class Exits:
    def decide(self, view):
        raise SystemExit(3)


class Late:
    def decide(self, view):
        end = time.thread_time() + 0.3
        while time.thread_time() < end:
            pass
        return "leave"
"""


@pytest.fixture
def bot_dir(tmp_path, monkeypatch):
    (tmp_path / "mybots.py").write_text(TEN_LINES)
    (tmp_path / "badbots.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def diamant(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diamant_tui", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


# -- loading ----------------------------------------------------------------------------


def test_a_ten_line_bot_in_a_file_plays_in_diamant_sim(bot_dir):
    assert len(TEN_LINES.strip().splitlines()) == 10
    done = diamant("sim", "--bots", "mybots.py:Cautious,ev,carry:20", "--games", "30", "--json",
                   cwd=bot_dir)
    assert done.returncode == 0, done.stderr
    import json

    figures = json.loads(done.stdout)
    names = [b["bot"] for b in figures["bots"]]
    assert names == ["mybots.py:Cautious", "ev", "carry:20"]
    assert figures["games"] == 30
    assert sum(b["wins"] for b in figures["bots"]) == pytest.approx(1.0, abs=1e-3)
    # It really decided by its own rule: it never carries more than 10 + the last card.
    assert figures["bots"][0]["score"] > 0


def test_a_bot_plays_from_a_module_and_from_an_installed_package(bot_dir, monkeypatch):
    monkeypatch.syspath_prepend(str(bot_dir))
    dist = bot_dir / "cavebots-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cavebots\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[diamant.bots]\ncautious = mybots:Cautious\n")
    assert parse_lineup("mybots:Cautious,cautious,ev") == ("mybots:Cautious", "cautious", "ev")
    for spec in ("mybots:Cautious", "cautious"):
        bot = make_bot(spec)
        assert type(bot).__name__ == "Cautious" and bot.spec == spec
    result = simulate("classic", ["cautious", "mybots:Cautious", "cards:3"], 5, seed=2)
    assert result.scores.shape == (5, 3)


@pytest.mark.parametrize("spec, words", [
    ("nowhere.py:Cautious", "no such file"),
    ("mybots.py:Bold", "defines no 'Bold'"),
    ("no_such_module:Cautious", "no module 'no_such_module'"),
    ("mybots.py:Decision", r"no decide\(view\) method"),
    ("wizard", "unknown computer player 'wizard'"),
    ("folder.py:Cautious", "'folder.py' is a folder; give the path to a Python file in it"),
    ("exits.py:Cautious", "could not be loaded: SystemExit: leaving already"),
])
def test_a_bot_that_cannot_be_loaded_is_named_with_the_reason(bot_dir, spec, words):
    (bot_dir / "folder.py").mkdir()
    (bot_dir / "exits.py").write_text("raise SystemExit('leaving already')\n")
    with pytest.raises(BotSpecError, match=words):
        parse_lineup(f"ev,{spec}")


@pytest.mark.parametrize("cls, words", [
    ("Raises", "raised ZeroDivisionError: no rubies to divide (round 1, card 1)"),
    ("Invalid", "answered 42 (round 1, card 1): decide() must return Decision.CONTINUE"),
    ("Busy", "thought for more than 0.2 s to decide (round 1, card 1)"),
    ("Slow", "gave no answer within 2 s (round 1, card 1)"),
    ("Exits", "raised SystemExit: 3 (round 1, card 1)"),
])
def test_a_failing_bot_stops_diamant_sim_with_a_clear_error(bot_dir, cls, words):
    done = diamant("sim", "--bots", f"ev,risk,badbots.py:{cls}", "--games", "2",
                   "--time-limit", "0.2", cwd=bot_dir)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"diamant sim: error: computer player 'badbots.py:{cls}' {words}"
        + done.stderr.strip().split(words, 1)[1]
    )
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_slow_bot_is_caught_after_the_fact_outside_the_main_thread(bot_dir):
    bot = make_bot("badbots.py:Late")
    game = Game(GameConfig(["a", "b", "c"]), seed=1)
    others = [make_bot("cards:3"), make_bot("cards:4")]

    def play():
        play_game(game, [bot, *others], limit=0.1)

    with pytest.raises(BotFailure, match=r"'a' thought for 0\.\d+ s to decide, more than 0.1 s"):
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1) as pool:
            pool.submit(play).result()


async def play_to_the_end(table: Table) -> None:
    """Start ``table`` (of computer players only) and wait, a minute at most, until its
    game is over; then close it."""
    table.start()
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while table.status is not TableStatus.FINISHED:
        assert loop.time() < end, "the game never finished"
        await asyncio.sleep(0.01)
    await table.close()
    assert table.game.over


async def test_at_a_table_a_stand_in_decides_for_a_failing_bot_and_it_is_logged(bot_dir, caplog):
    table = Table(TableSettings(name="t", seats=3, bots=("badbots.py:Raises", "badbots.py:Invalid",
                                                         "cards:3"), pace=0, seed=3))
    caplog.set_level(logging.WARNING, logger="diamant_tui.table")
    await play_to_the_end(table)
    text = caplog.text
    assert "computer player badbots.py:Raises raised ZeroDivisionError: no rubies to divide" in text
    assert "computer player badbots.py:Invalid answered 42" in text
    assert "ev decided for it" in text


async def test_at_a_table_a_bot_that_calls_sys_exit_gets_a_stand_in(bot_dir, caplog):
    """A computer player's ``sys.exit()`` is its failure: it ended the whole program."""
    table = Table(TableSettings(name="t", seats=3, bots=("badbots.py:Exits", "cards:3",
                                                         "cards:3"), pace=0, seed=3))
    caplog.set_level(logging.WARNING, logger="diamant_tui.table")
    await play_to_the_end(table)
    assert "computer player badbots.py:Exits raised SystemExit: 3" in caplog.text


NEVER_ANSWERS = """\
import asyncio
import threading

from diamant_tui.table import Table, TableSettings, TableStatus


class Stuck:
    asked = 0

    def decide(self, view):
        Stuck.asked += 1
        threading.Event().wait()


async def main():
    table = Table(TableSettings(name="t", seats=3, bots=("stuck.py:Stuck", "cards:3",
                                                         "cards:3"), pace=0, seed=3),
                  bot_time_limit=0.05)
    table.start()
    while table.status is not TableStatus.FINISHED:
        await asyncio.sleep(0.01)
    await table.close()
    print(type(table._seats[0].bot).asked)  # the class loaded from stuck.py:Stuck
"""


def test_a_bot_that_never_answers_is_asked_once_and_does_not_keep_the_program_open(bot_dir):
    """Its stand-in decides each time; the game and then the program end. Each card
    asked it again, one more thread thinking for ever, and the program, waiting for
    them at its end, never ended (not even on Ctrl+C)."""
    (bot_dir / "stuck.py").write_text(NEVER_ANSWERS)
    done = subprocess.run([sys.executable, "-c", "import asyncio, stuck; asyncio.run(stuck.main())"],
                          cwd=bot_dir, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


async def test_at_a_table_a_bot_thinking_past_the_hosts_limit_gets_a_stand_in(bot_dir, caplog):
    """The limit is the table's setting (the server's ``bot_time_limit``)."""
    table = Table(TableSettings(name="t", seats=3, bots=("badbots.py:Late", "cards:3", "cards:3"),
                                pace=0, seed=3), bot_time_limit=0.05)
    caplog.set_level(logging.WARNING, logger="diamant_tui.table")
    table.start()
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while "computer player badbots.py:Late took more than 0.05 s" not in caplog.text:
        assert loop.time() < end, caplog.text
        await asyncio.sleep(0.01)
    await table.close()


# -- tournament -------------------------------------------------------------------------


def test_a_tournament_plays_every_lineup_and_ranks_the_players(capsys):
    bots = "cards:1,cards:6,carry:20,risk"
    assert run(_args(bots=bots, games=40, tournament=True, size=3)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("tournament: 4 line-ups of 3, 40 games each, rules classic, seed 1 "
                      "(even share 33.3%)")
    rows = [line.split() for line in out[3:]]
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]
    assert sorted(r[1] for r in rows) == sorted(bots.split(","))
    assert all(r[-1] == "120" for r in rows)  # each sits in 3 of the 4 line-ups
    wins = [float(r[2].rstrip("%")) for r in rows]
    assert wins == sorted(wins, reverse=True)
    assert rows[-1][1] == "cards:1"  # leaving after one card never wins against these


def test_a_tournament_of_random_lineups_is_the_same_for_a_seed():
    a = tournament("relics", ["cards:4", "cards:6", "carry:15", "risk", "ev"], 30, size=3,
                   count=4, seed=5)
    b = tournament("relics", ["cards:4", "cards:6", "carry:15", "risk", "ev"], 30, size=3,
                   count=4, seed=5)
    assert a.lineups == b.lineups and len(a.lineups) == 4
    assert a.summary() == b.summary()
    assert sum(s.games for s in a.standings) == 4 * 30 * 3


def _args(**kw):
    import argparse

    base = dict(rules="classic", bots="ev,risk,cards:6", games=10, seed=1, jobs=1, json=False,
                engine=False, exact=False, time_limit=1.0, tournament=False, size=5, lineups=None)
    base.update(kw)
    return argparse.Namespace(**base)


# -- the expert alone in the cave, against an exact programme ------------------------------


def exact_values(base: int) -> np.ndarray:
    """V[t * 32 + h]: the most rubies expected alone in round 1 (classic), carrying
    ``base`` plus the treasures in ``t`` (a mask over the 15 treasure cards) with the
    hazard types in ``h`` showing; worked out over every state, layer by layer."""
    values = np.array(TREASURE_VALUES)
    t = np.arange(1 << 15)[:, None].repeat(32, axis=1).ravel()
    h = np.tile(np.arange(32), 1 << 15)
    tbits = (t[:, None] >> np.arange(15)) & 1
    hbits = (h[:, None] >> np.arange(5)) & 1
    stake = base + tbits @ values
    shown = hbits.sum(axis=1)
    deck = 30 - tbits.sum(axis=1) - shown
    layer = tbits.sum(axis=1) + shown
    best = np.zeros(t.size)
    for k in range(20, -1, -1):
        idx = np.flatnonzero(layer == k)
        ti, hi = t[idx], h[idx]
        more = np.zeros(idx.size)
        for i in range(15):
            free = ((ti >> i) & 1) == 0
            more += np.where(free, best[((ti | (1 << i)) * 32 + hi) * free], 0.0)
        for j in range(5):
            free = ((hi >> j) & 1) == 0
            more += np.where(free, 3 * best[(ti * 32 + (hi | (1 << j))) * free], 0.0)
        # A second card of a type showing (2 of each left) ends it with nothing.
        cont = np.where(deck[idx] > 0, more / np.maximum(deck[idx], 1), 0.0)
        best[idx] = np.maximum(stake[idx], cont)
    return best


def masks(view) -> tuple[int, int]:
    t = h = 0
    for pc in view.path:
        if isinstance(pc.card, Treasure):
            i = next(i for i, v in enumerate(TREASURE_VALUES)
                     if v == pc.card.value and not (t >> i) & 1)
            t |= 1 << i
        elif isinstance(pc.card, Hazard):
            h |= 1 << list(HazardType).index(pc.card.type)
    return t, h


@pytest.mark.parametrize("first", ["T9", "T1", "H:spiders"])
def test_alone_in_the_cave_the_expert_makes_the_exact_choice(first):
    """Two players leave after the first card; from then on, every choice the expert
    makes alone is the one an exact programme over all the cards left calls best."""
    compared = {Decision.LEAVE: 0, Decision.CONTINUE: 0}
    best = None
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(GameConfig(["x", "a", "b"], "classic"), seed=seed)
        game.reveal(parse_card(first))
        game.apply_decisions({0: Decision.CONTINUE, 1: Decision.LEAVE, 2: Decision.LEAVE})
        expert = ExpertBot(rng=random.Random(seed))
        view = game.view_for(0)
        t0, _ = masks(view)
        base = view.me.carried + view.rubies_on_path - sum(
            v for i, v in enumerate(TREASURE_VALUES) if (t0 >> i) & 1)
        if best is None or best[0] != base:
            best = (base, exact_values(base))
        while game.phase is not Phase.ROUND_OVER:
            if game.phase is Phase.REVEAL:
                deck = [parse_card(code) for code, n in game.view_for(0).deck for _ in range(n)]
                game.reveal(rng.choice(deck))
                continue
            view = game.view_for(0)
            t, h = masks(view)
            stake = view.me.carried + view.rubies_on_path
            assert stake == best[0] + sum(v for i, v in enumerate(TREASURE_VALUES) if (t >> i) & 1)
            value = best[1][t * 32 + h]
            choice = expert.decide(view)
            if value > stake + 1e-9:
                assert choice is Decision.CONTINUE, (view.path, stake, value)
                compared[choice] += 1
            elif not _continue_ties(best[1], t, h, stake):
                assert choice is Decision.LEAVE, (view.path, stake, value)
                compared[choice] += 1
            game.apply_decisions({0: choice})
    assert compared[Decision.LEAVE] >= 10 and compared[Decision.CONTINUE] >= 50


def _continue_ties(values: np.ndarray, t: int, h: int, stake: int) -> bool:
    """Whether going on is worth exactly as much as leaving (either choice is best)."""
    deck = 30 - bin(t).count("1") - bin(h).count("1")
    more = sum(values[(t | 1 << i) * 32 + h] for i in range(15) if not (t >> i) & 1)
    more += sum(3 * values[t * 32 + (h | 1 << j)] for j in range(5) if not (h >> j) & 1)
    return abs(more / deck - stake) < 1e-9


def test_alone_in_the_last_round_the_expert_plays_for_the_win():
    """Far behind and alone in round 5, it goes on into any danger; once leaving wins the
    game, it leaves."""
    game = Game(GameConfig(["x", "a", "b"], "classic"), seed=1)
    for kind in ("spiders", "snakes", "lava", "rams"):  # a and b bank, x loses everything
        game.reveal(parse_card("T17"))
        game.apply_decisions({0: Decision.CONTINUE, 1: Decision.LEAVE, 2: Decision.LEAVE})
        game.reveal(parse_card(f"H:{kind}"))
        game.apply_decisions({0: Decision.CONTINUE})
        game.reveal(parse_card(f"H:{kind}"))
        game.start_next_round()
    assert game.round == 5 and game.scores() == (0, 24, 24)
    game.reveal(parse_card("T1"))
    game.apply_decisions({0: Decision.CONTINUE, 1: Decision.LEAVE, 2: Decision.LEAVE})
    for code in ("H:snakes", "H:lava", "H:boulders", "T17"):
        game.reveal(parse_card(code))
        view = game.view_for(0)
        assert view.me.carried + view.rubies_on_path <= 24
        assert ExpertBot(rng=random.Random(1)).decide(view) is Decision.CONTINUE
        game.apply_decisions({0: Decision.CONTINUE})
    game.reveal(parse_card("T9"))  # 17 + 9 + 1 on the path: leaving now wins
    assert ExpertBot(rng=random.Random(1)).decide(game.view_for(0)) is Decision.LEAVE
