"""``benchmarks/side_by_side.py`` runs two checkouts' servers at once, each its own code,
and reports both. The figures are for people to read, never asserted (the machine is
shared)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIDE_BY_SIDE = ROOT / "benchmarks" / "side_by_side.py"
QUICK = ["--seats", "2", "--pace", "0.01", "--think", "0-0.05", "--games", "1",
         "--duration", "20", "--screen", "light"]


def test_two_checkouts_play_at_once_each_with_its_own_code(tmp_path):
    """A copy of this checkout that marks where its code was imported from stands for
    the new version: both sides complete their game without error, the new side's
    server ran the copy's code (its mark is in the copy, none in this checkout), and the JSON
    has both sides' figures and the change between them."""
    new = tmp_path / "new"
    for package in ("diamant_tui", "server"):
        shutil.copytree(ROOT / package, new / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    with (new / "diamant_tui" / "__init__.py").open("a") as init:
        init.write("\nimport os as _os\n"
                   f"open({str(new)!r} + '/imported-%d' % _os.getpid(), 'w').close()\n")
    done = subprocess.run(
        [sys.executable, str(SIDE_BY_SIDE), str(ROOT), str(new), "--pairs", "1", "--json",
         "--", *QUICK],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["old"] == str(ROOT) and results["new"] == str(new)
    (pair,) = results["pairs"]
    for side in ("old", "new"):
        assert pair[side]["games"] == "1/1"
        assert pair[side]["errors"] == 0
        assert pair[side]["cpu_per_seat_per_reveal_ms"] > 0
    assert isinstance(pair["cpu_change_percent"], float)
    assert results["cpu_change_percent_mean"] == pair["cpu_change_percent"]
    # The server the new side's load generator started (a process of its own) ran it.
    assert list(new.glob("imported-*"))
    assert not list(ROOT.glob("imported-*"))


def test_a_folder_that_is_not_a_checkout_is_refused_with_a_reason(tmp_path):
    """Nothing runs: one line says which folder and why."""
    done = subprocess.run(
        [sys.executable, str(SIDE_BY_SIDE), str(ROOT), str(tmp_path), "--", *QUICK],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0
    assert done.stdout == ""
    assert done.stderr.strip() == (f"side_by_side: {tmp_path} is not a checkout of this "
                                   f"project (no diamant_tui/ and server/ in it)")


def test_a_side_runs_on_the_interpreter_given_for_it(tmp_path):
    """``--new-python``: the new side's load generator is started with the interpreter
    given (a wrapper that logs its arguments, then runs this Python), the old side's with
    this one; both play their game, and the JSON names the interpreter of each."""
    log = tmp_path / "ran.log"
    wrapper = tmp_path / "python"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    done = subprocess.run(
        [sys.executable, str(SIDE_BY_SIDE), str(ROOT), str(ROOT), "--pairs", "1", "--json",
         "--new-python", str(wrapper), "--", *QUICK],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["pythons"] == {"old": sys.executable, "new": str(wrapper)}
    (pair,) = results["pairs"]
    assert pair["old"]["games"] == pair["new"]["games"] == "1/1"
    runs = [line for line in log.read_text().splitlines() if "load.py" in line]
    assert len(runs) == 1 and "--json" in runs[0]


def test_an_interpreter_without_the_dependencies_is_refused_with_a_reason(tmp_path):
    """Nothing runs: one line names the option, the path and what is missing."""
    missing = tmp_path / "no-python"
    done = subprocess.run(
        [sys.executable, str(SIDE_BY_SIDE), str(ROOT), str(ROOT), "--old-python",
         str(missing), "--", *QUICK],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0
    assert done.stdout == ""
    assert done.stderr.strip() == (f"side_by_side: --old-python {missing} is not a Python "
                                   f"with this project's dependencies (asyncssh, textual) "
                                   f"installed")
