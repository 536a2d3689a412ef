"""The load generator (``benchmarks/load.py``) runs a short game end to end and reports.

Only that it works and says what it measured: the figures themselves are for people to
read, never asserted (the machine is shared).
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

LOAD = Path(__file__).resolve().parent.parent / "benchmarks" / "load.py"
KEYS = {
    "config", "join_s", "reveal_to_screen_s", "server_cpu", "frames_per_seat_per_reveal",
    "chunks_per_seat_per_reveal", "bytes_per_seat_per_reveal", "server_rss_mib",
    "play_window_s", "reveals", "seat_reveals", "games_completed", "games_expected",
    "errors", "load_generator_cpu", "stop", "wall_s", "collector", "garbage_at_end",
    "database_per_reveal", "join_by_wave_s", "reveal_to_screen_by_time_s", "python",
}


@pytest.mark.parametrize("screen, cipher", [("pyte", None),
                                            ("light", "aes128-gcm@openssh.com")])
def test_two_people_play_one_game_and_the_results_come_as_json(screen, cipher):
    """Two SSH clients (and a computer player) play one quick game, reading their screens
    through pyte or the light screen, with asyncssh's ciphers or only one; the JSON has
    every figure, the game was completed, nothing failed and the server stopped by
    itself."""
    done = subprocess.run(
        [sys.executable, str(LOAD), "--seats", "2", "--pace", "0.01", "--think", "0-0.05",
         "--games", "1", "--duration", "20", "--screen", screen, "--json",
         *(["--cipher", cipher] if cipher else [])],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert KEYS <= results.keys()
    assert results["config"]["screen"] == screen
    assert results["config"]["cipher"] == cipher
    assert results["games_completed"] == results["games_expected"] == 1
    assert results["errors"]["count"] == 0, results["errors"]
    assert results["join_s"]["n"] == 2
    assert results["reveal_to_screen_s"]["n"] > 0
    # The two seats joined in two waves (the second started the game), and every delay
    # counted falls in one of the slots of the play window.
    waves = results["join_by_wave_s"]
    assert waves["waiting"]["n"] == waves["starting"]["n"] == 1
    slots = results["reveal_to_screen_by_time_s"]["slots"]
    assert sum(slot["n"] for slot in slots) == results["reveal_to_screen_s"]["n"]
    assert max(slot["max"] or 0 for slot in slots) == results["reveal_to_screen_s"]["max"]
    shares = results["server_cpu"]["collector_share"]
    assert 0 < shares["joins"] < 1 and 0 <= shares["play"] < 1
    assert results["server_cpu"]["per_starting_join_ms"] > 0
    assert results["stop"]["exit_code"] == 0
    young = results["collector"][0]  # a game makes garbage: the server collected some
    assert [g["generation"] for g in results["collector"]] == [0, 1, 2]
    assert young["passes"] > 0 and 0 < young["longest_s"] <= young["total_s"]
    assert 0 < young["cpu_s"] and young["other_threads"]["passes"] <= young["passes"]
    garbage = results["garbage_at_end"]  # weighed by a sweep, with the people still there
    assert garbage["blocks_before"] > 0 and garbage["blocks_after"] > 0 and garbage["sweep_s"] > 0
    database = results["database_per_reveal"]  # the table saved its game as it went
    assert database["db_values"] > 0 and database["db_bytes"] > database["db_values"]
    assert "reveal→screen" in done.stderr  # the table for people goes to stderr
    # The interpreter the server ran on (this one: the server is started with it).
    python = results["python"]
    assert python["version"] == platform.python_version()
    assert python["executable"] == sys.executable
    with open("/proc/self/maps") as maps:  # (this one's, as the load generator reads its own)
        assert python["libpython_shared"] == any("/libpython" in line for line in maps)
    (row,) = [line for line in done.stderr.splitlines() if line.startswith("server's Python")]
    assert f" {platform.python_version()} ({sys.executable}; libpython " in row or (
        f" {platform.python_version()} ({sys.executable}; the interpreter in " in row)


def test_people_can_arrive_table_after_table_while_the_first_tables_play():
    """With ``--arrival in-order`` the tables fill one after the other, each game starting
    as its table fills: the first table plays while the second's people still come. The
    joins' CPU is then not told apart from play's, and is left out rather than guessed."""
    done = subprocess.run(
        [sys.executable, str(LOAD), "--seats", "6", "--pace", "0.05", "--think", "0-0.03",
         "--games", "1", "--duration", "60", "--join-rate", "2", "--screen", "light",
         "--arrival", "in-order", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["config"]["arrival"] == "in-order"
    assert results["games_completed"] == results["games_expected"] == 2
    assert results["errors"]["count"] == 0, results["errors"]
    assert results["reveal_to_screen_s"]["missed"] == 0
    assert results["reveals_during_joins"] > 0  # the first table's game began meanwhile
    slowest = results["slowest_joins_s"]
    assert len(slowest) == 6 and slowest[0]["took_s"] == results["join_s"]["max"]
    assert [j["took_s"] for j in slowest] == sorted((j["took_s"] for j in slowest), reverse=True)
    assert min(j["began_s"] for j in slowest) == 0 and max(j["began_s"] for j in slowest) >= 2
    for join in slowest:  # its parts, one after the other, make the whole join
        parts = (join["ssh_s"], join["session_s"], join["screen_s"])
        assert all(part > 0 for part in parts)
        assert abs(sum(parts) - join["took_s"]) < 1e-6
    late = results["loop_late_by_time_s"]
    assert late["slot_s"] == 10
    for who in ("server", "load_generator"):  # from the first join to the games' end
        slots = late[who]
        assert len(slots) >= 1 and slots[0]["from_s"] == 0
        assert all(slot["ticks"] > 0 and 0 <= slot["mean"] <= slot["max"] for slot in slots)
        # Ticks every 50 ms: at most twenty a second, over seconds of the run.
        assert 20 <= sum(slot["ticks"] for slot in slots) <= 20 * results["wall_s"]
    assert "SSH / session / screen" in done.stderr and "loop late by 10 s" in done.stderr
    waves = results["join_by_wave_s"]
    assert waves["waiting"]["n"] == 4 and waves["starting"]["n"] == 2
    assert results["server_cpu"]["per_join_ms"] is None
    assert results["server_cpu"]["per_starting_join_ms"] is None
    assert results["server_rss_mib"]["after_waiting_joins"] is None
    assert "arrival in-order" in done.stderr
    assert results["stop"]["exit_code"] == 0


@pytest.mark.parametrize("app", ["floor", "floor-parts", "floor-direct"])
def test_people_play_two_games_at_plain_text_apps_for_the_floor(app):
    """With ``--app floor`` (or ``floor-parts``, ``floor-direct``) every session runs the
    plain-text app of ``floor_app``: the same people play at the same tables to the end, a
    rematch included. They press ``r`` for it as soon as the final scores show, which must
    not be before the table has finished (a vote a moment too early is refused, and the
    table waited for it for ever)."""
    done = subprocess.run(
        [sys.executable, str(LOAD), "--seats", "3", "--pace", "0.15", "--think", "0-0.03",
         "--games", "2", "--duration", "60", "--screen", "light", "--app", app, "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["config"]["app"] == app
    assert results["games_completed"] == results["games_expected"] == 2
    assert results["errors"]["count"] == 0, results["errors"]
    assert results["reveal_to_screen_s"]["n"] > 0 and results["reveal_to_screen_s"]["missed"] == 0
    assert results["frames_per_seat_per_reveal"] > 0
    assert results["stop"]["exit_code"] == 0


def test_a_card_that_ends_a_round_counts_as_seen_when_its_summary_shows():
    """The summary of a round hides the table's bar, and it comes in the same frame as the
    card that ended the round (a disaster): that card is seen when the summary is."""
    sys.path.insert(0, str(LOAD.parent))
    import random

    import asyncssh
    from load_client import Person

    person = Person("p001", "t01", "play t01", key=asyncssh.generate_private_key("ssh-ed25519"),
                    rng=random.Random(1), think=(0, 0), games=1, light=True)
    person.data_received(b"\x1b[H\x1b[2JClassic \xc2\xb7 Round 2/5 \xc2\xb7 card 3", None)
    assert (0, 2, 3) in person.seen and person.joined.is_set()
    person.data_received(b"\x1b[H\x1b[2J\r\n\r\n   Round 2 of 5 is over\r\n"
                         b"   DISASTER! The snakes again!\r\n   Cards revealed: 4\r\n", None)
    assert (0, 2, 4) in person.seen
    assert not person.in_final and person.finals == 0


@pytest.mark.parametrize("cipher", ["aes-gcm", "chacha20-poly1305@openssh.com"])
def test_a_cipher_the_server_does_not_offer_is_refused_before_anything_starts(cipher):
    """A mistyped ``--cipher``, or one the server does not offer (ChaCha20-Poly1305), is
    named at once with the ciphers the server offers, rather than failing every client's
    join."""
    done = subprocess.run([sys.executable, str(LOAD), "--seats", "2", "--cipher", cipher],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"--cipher {cipher}: not a cipher the server offers" in done.stderr
    assert "aes128-gcm@openssh.com" in done.stderr and "aes256-ctr" in done.stderr


def test_attacks_are_refused_with_the_plain_app_which_only_plays():
    """``--attack`` has clients watch tables and open the lobby, which the floor's plain
    app does not offer: said at once, rather than failing every attacker."""
    done = subprocess.run([sys.executable, str(LOAD), "--seats", "2", "--app", "floor",
                           "--attack", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--attack needs the game's app: --app floor only plays" in done.stderr
