"""Two versions of the server measured at once, side by side.

This machine's speed drifts by a tenth within minutes and by more within an hour, so runs
made one after the other cannot tell two versions apart below about ten percent. Two runs at once, one per
version, go through the same moments of the machine (README, *Comparing two versions*).

Run: ``python benchmarks/side_by_side.py OLD NEW --pairs 2 -- --seats 100 --pace 0.7
--think 0.3-1.5 --games 2 --seed 1 --screen light``. OLD and NEW are checkouts of this
project; what follows ``--`` goes to ``benchmarks/load.py`` (this one, the same for
both), which each pair runs twice at once, with OLD's code and with NEW's. It prints, for
every pair and on average, each side's CPU per seat per reveal and per join, frames and
bytes per seat per reveal, games completed and errors, and NEW's CPU against OLD's
(``--json`` for JSON). ``--old-python`` and ``--new-python`` run a side (its load
generator and its server) on another interpreter, whose environment has this project's
dependencies: the same checkout on two Pythons compares the interpreters (README, *Which
Python*). Latencies are left out: two runs at once make a busier machine,
so measure those alone.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from statistics import mean

LOAD = Path(__file__).resolve().parent / "load.py"
SIDES = ("old", "new")


def checkout(path: str) -> Path:
    """The project checkout at ``path``; exits with a message if it is not one."""
    folder = Path(path).resolve()
    if not (folder / "diamant_tui").is_dir() or not (folder / "server").is_dir():
        sys.exit(f"side_by_side: {path} is not a checkout of this project "
                 f"(no diamant_tui/ and server/ in it)")
    return folder


def interpreter(path: str, side: str) -> str:
    """The Python at ``path`` for ``side``; exits with a message if it cannot run."""
    try:
        subprocess.run([path, "-c", "import asyncssh, textual"], check=True,
                       capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        sys.exit(f"side_by_side: --{side}-python {path} is not a Python with this "
                 f"project's dependencies (asyncssh, textual) installed")
    return path


def environment(folder: Path, links: Path) -> dict[str, str]:
    """The environment that runs ``folder``'s code: its packages first on the path, its
    ``server/`` as ``diamant_server`` (a link in ``links``, as the package installs it)."""
    (links / "diamant_server").symlink_to(folder / "server", target_is_directory=True)
    env = dict(os.environ)
    paths = [str(links), str(folder)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def run_pair(folders: dict[str, Path], envs: dict[str, dict[str, str]],
             pythons: dict[str, str], load_args: list[str], logs: Path,
             pair: int) -> dict[str, dict]:
    """Run ``load.py`` for both sides at once; each side's results (its JSON)."""
    running = {}
    with ExitStack() as files:
        for side in SIDES:
            out = files.enter_context(open(logs / f"{side}_{pair}.json", "w"))
            err = files.enter_context(open(logs / f"{side}_{pair}.err", "w"))
            running[side] = subprocess.Popen(
                [pythons[side], str(LOAD), *load_args, "--json"], cwd=folders[side],
                env=envs[side], stdout=out, stderr=err)
        for process in running.values():
            process.wait()
    results = {}
    for side, process in running.items():
        text = (logs / f"{side}_{pair}.json").read_text()
        try:
            results[side] = json.loads(text)
        except ValueError:
            tail = (logs / f"{side}_{pair}.err").read_text().strip().splitlines()[-5:]
            sys.exit(f"side_by_side: the {side} run of pair {pair} gave no results "
                     f"(exit {process.returncode}):\n" + "\n".join(tail))
    return results


def figures(result: dict) -> dict:
    """What is compared of one run."""
    cpu = result["server_cpu"]
    return {
        "cpu_per_seat_per_reveal_ms": cpu["per_seat_per_reveal_ms"],
        "cpu_per_join_ms": cpu["per_join_ms"],
        "frames_per_seat_per_reveal": result["frames_per_seat_per_reveal"],
        "bytes_per_seat_per_reveal": result["bytes_per_seat_per_reveal"],
        "games": f"{result['games_completed']}/{result['games_expected']}",
        "errors": result["errors"]["count"],
    }


def change(old: float | None, new: float | None) -> float | None:
    """NEW against OLD, in percent (None if either is missing)."""
    if not old or new is None:
        return None
    return 100 * (new - old) / old


def main() -> None:
    """Run the pairs and print what they measured."""
    argv = sys.argv[1:]
    load_args: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, load_args = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="a checkout of the version to compare against")
    parser.add_argument("new", help="a checkout of the version compared")
    parser.add_argument("--pairs", type=int, default=2, help="runs of both at once")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    for side in SIDES:
        parser.add_argument(f"--{side}-python", metavar="PATH", default=sys.executable,
                            help=f"the interpreter that runs {side.upper()}'s side "
                                 f"(default: this one)")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    if "--json" in load_args:
        load_args.remove("--json")
    folders = {"old": checkout(args.old), "new": checkout(args.new)}
    pythons = {side: interpreter(getattr(args, f"{side}_python"), side) for side in SIDES}
    rows = []
    with tempfile.TemporaryDirectory(prefix="side-by-side-") as temporary:
        base = Path(temporary)
        envs = {}
        for side in SIDES:
            (base / side).mkdir()
            envs[side] = environment(folders[side], base / side)
        for pair in range(1, args.pairs + 1):
            results = run_pair(folders, envs, pythons, load_args, base, pair)
            row = {side: figures(results[side]) for side in SIDES}
            row["cpu_change_percent"] = change(row["old"]["cpu_per_seat_per_reveal_ms"],
                                               row["new"]["cpu_per_seat_per_reveal_ms"])
            rows.append(row)
            if not args.json:
                show(pair, row)
    changes = [row["cpu_change_percent"] for row in rows
               if row["cpu_change_percent"] is not None]
    summary = {"old": str(folders["old"]), "new": str(folders["new"]),
               "pythons": pythons,
               "load_args": load_args, "pairs": rows,
               "cpu_change_percent_mean": mean(changes) if changes else None}
    if args.json:
        print(json.dumps(summary, indent=2))
    elif changes:
        print(f"new against old, CPU per seat per reveal: {summary['cpu_change_percent_mean']:+.1f} %"
              f" on average ({', '.join(f'{c:+.1f}' for c in changes)} %)")


def show(pair: int, row: dict) -> None:
    """One pair's figures as lines of text."""
    for side in SIDES:
        f = row[side]
        print(f"pair {pair} {side}: CPU per seat per reveal "
              f"{_shown(f['cpu_per_seat_per_reveal_ms'], '.2f', ' ms')}, per join "
              f"{_shown(f['cpu_per_join_ms'], '.1f', ' ms')}, frames "
              f"{_shown(f['frames_per_seat_per_reveal'], '.2f')}, bytes "
              f"{_shown(f['bytes_per_seat_per_reveal'], '.0f')}, games {f['games']}, "
              f"errors {f['errors']}")
    print(f"pair {pair}: new against old, CPU per seat per reveal "
          f"{_shown(row['cpu_change_percent'], '+.1f', ' %')}")


def _shown(value: float | None, spec: str, unit: str = "") -> str:
    return "—" if value is None else f"{value:{spec}}{unit}"


if __name__ == "__main__":
    main()
