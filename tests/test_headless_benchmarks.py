"""The headless benchmarks (``benchmarks/phase_costs.py``, ``bench_frames.py``,
``join_costs.py``, ``frame_costs.py``) run a short measure to the end and print what
they measured.

They reach into the table and Textual to count what they count, so a change of an
internal signature breaks them while the game plays on; only that they run and report
is checked here, never a figure (the machine is shared).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / args[0]), *args[1:]],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_costs_by_kind_of_update_are_reported_for_a_game():
    """Every kind of update the table sent is counted, with frames for the apps."""
    results = json.loads(_run("phase_costs.py", "--games", "1", "--json"))
    assert results["by_kind"], results
    assert sum(row["updates"] for row in results["by_kind"].values()) > 0
    assert results["frames_per_seat_per_reveal"] > 0


def test_the_frames_of_one_app_are_reported_for_a_game():
    """One app plays a game against computers; its frames and bytes are counted."""
    lines = _run("bench_frames.py", "--games", "1", "--json").splitlines()
    results = json.loads(lines[-1])
    assert results["reveals"] > 0 and results["frames_per_seat_reveal"] > 0
    assert results["bytes_per_seat_reveal"] > 0


def test_the_cost_of_joining_is_reported():
    """Two apps open a table and begin a game; both costs are printed."""
    out = _run("join_costs.py", "--apps", "2")
    assert "opening a waiting table" in out and "the game beginning" in out


def test_the_cost_of_each_kind_of_frame_is_reported():
    """Every kind of change is made and measured, the chat box's and the toast's too."""
    lines = _run("frame_costs.py", "--repeat", "4", "--json").splitlines()
    results = json.loads(lines[-1])
    assert {"whole view", "chat box opened + closed", "toast shown + gone",
            "final scores shown + rematch"} <= set(results), results
    assert results["whole view"]["frames"] > 0
