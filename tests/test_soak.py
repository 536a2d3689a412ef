"""The soak test (``benchmarks/soak.py``) plays rounds of people at one server and takes a
census after each: only that it works and says what it measured (the figures are for
people to read; the machine is shared)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SOAK = Path(__file__).resolve().parent.parent / "benchmarks" / "soak.py"


def test_two_rounds_of_two_people_are_counted_and_what_holds_a_type_is_told(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SOAK), "--rounds", "2", "--seats", "2", "--pace", "0.01",
         "--settle", "0.5", "--data-dir", str(tmp_path), "--holders", "GameConfig",
         "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    rounds = results["rounds"]
    assert [r["round"] for r in rounds] == [0, 1, 2]
    assert all(r["errors"] == [] for r in rounds), [r["errors"] for r in rounds]
    for r in rounds:
        assert r["memory"]["VmRSS"] > 0 and r["objects"] > 0 and r["tasks"] > 0
        assert "lobby.tables" in r["lengths"] and "diamant.sqlite3" in r["files"]
    assert rounds[0]["ours"].get("diamant_tui.table.table.Table", 0) == 0
    assert "what holds GameConfig:" in done.stderr
    assert results["stopped"]["exit_code"] == 0
