"""Soak test: rounds of people come, play and leave one long-running server; what stays.

Starts one game server in a process of its own (as the load generator does, see
:mod:`load_server`, in a data folder of its own), then, ``--rounds`` times: ``--seats``
new people (a fresh key and name each) join tables of five named for the round, play
``--games`` games at ``--pace``, and leave (their connections closed). After each round,
once ``--settle`` seconds have passed, it asks the server for a census (see
:func:`load_server.census`: one sweep of the cycle collector, then the objects by type,
the asyncio tasks and the length of every container the server, its lobby and its desks
hold) and reads the server's resident memory and the data folder's files.

It prints a line per round (memory, objects, tasks, tables, data folder) and at the end
what grew between the first round and the last: the types of objects and the containers
whose counts rose, round after round. Something that grows by about the same amount every
round is kept for ever per person or per table; ``--holders TYPE`` then prints, at the end,
what keeps the objects of that class alive (a path of referrers to a module).

Run: ``nice -n 10 python benchmarks/soak.py --rounds 5 --seats 20`` (bounded, loopback
only; ``--json`` for JSON on stdout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import diamant_server  # noqa: F401  (first: it silences asyncssh's DSA warnings)
import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from load import CLOSE_TIMEOUT, JOIN_TIMEOUT, ServerProcess, tables_for  # noqa: E402
from load_client import Person  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of people (5)")
    parser.add_argument("--seats", type=int, default=20, help="people per round (20, at most 30)")
    parser.add_argument("--games", type=int, default=1, help="games each table plays (1)")
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between cards (0.1)")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds after a round's people leave before the census (5)")
    parser.add_argument("--duration", type=float, default=300.0,
                        help="seconds a round may play at most (300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="the server's data folder (a temporary one by default)")
    parser.add_argument("--holders", action="append", default=[], metavar="TYPE",
                        help="(debugging) at the end, print a path of referrers from one "
                             "object of TYPE (a class's name) to a module; repeatable")
    parser.add_argument("--json", action="store_true", help="JSON on stdout")
    args = parser.parse_args(argv)
    if not 1 <= args.seats <= 30:
        parser.error("--seats: from 1 to 30")
    return args


def folder_sizes(folder: Path) -> dict[str, int]:
    """Every file of the data folder and its size in bytes."""
    return {str(p.relative_to(folder)): p.stat().st_size
            for p in sorted(folder.rglob("*")) if p.is_file()}


async def play_round(number: int, args: argparse.Namespace, port: int,
                     rng: random.Random) -> list[str]:
    """One round of people: join, play their games, leave. The errors met."""
    people: list[Person] = []
    for index, size in enumerate(tables_for(args.seats), start=1):
        table = f"r{number}t{index}"
        bots = max(0, 3 - size)
        command = f"play {table} --seats {size + bots} --bots {bots}"
        for _ in range(size):
            people.append(Person(
                f"s{number:02d}p{len(people) + 1:02d}", table, command,
                key=asyncssh.generate_private_key("ssh-ed25519"),
                rng=random.Random(rng.random()), think=(0.1, 0.3), games=args.games,
                light=True))
    errors: list[str] = []
    stop = asyncio.Event()

    async def one(person: Person, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await person.connect(port, JOIN_TIMEOUT)
            await person.play(stop)
        except Exception as exc:
            errors.append(f"{person.name}: {type(exc).__name__}: {exc}"[:300])
        if person.error:
            errors.append(person.error)

    tasks = [asyncio.create_task(one(p, i * 0.1)) for i, p in enumerate(people)]
    _, pending = await asyncio.wait(tasks, timeout=args.duration)
    stop.set()
    await asyncio.gather(*pending)
    await asyncio.gather(*(p.close(CLOSE_TIMEOUT) for p in people))
    errors += [f"{p.name}: played {p.finals} of {args.games}" for p in people if not p.done]
    return errors


async def soak(args: argparse.Namespace) -> dict:
    """Start the server, play the rounds, take the censuses; the results."""
    with tempfile.TemporaryDirectory(prefix="diamant-soak-") as temp:
        data_dir = args.data_dir or Path(temp)
        server = ServerProcess({"pace": args.pace, "seats": args.seats,
                                "data_dir": str(data_dir), "extra": 5})
        await server.start()
        rng = random.Random(args.seed)
        await asyncio.sleep(1.0)
        rounds = [{"round": 0, "memory": server.memory(), **await server.ask("census", 120.0),
                   "files": folder_sizes(data_dir), "errors": []}]
        _line(rounds[-1], args)
        for number in range(1, args.rounds + 1):
            began = time.monotonic()
            errors = await play_round(number, args, server.port, rng)
            await asyncio.sleep(args.settle)
            rounds.append({"round": number, "seconds": time.monotonic() - began,
                           "memory": server.memory(), **await server.ask("census", 120.0),
                           "files": folder_sizes(data_dir), "errors": errors})
            _line(rounds[-1], args)
        for type_name in args.holders:
            print(f"what holds {type_name}:", *await server.ask(f"holders:{type_name}", 300.0),
                  sep="\n  ", file=sys.stderr)
        stopped = await server.stop()
    return {"rounds": rounds, "stopped": stopped}


def _line(r: dict, args: argparse.Namespace) -> None:
    if args.json:
        return
    files = r["files"]
    print(f"round {r['round']}: RSS {r['memory'].get('VmRSS', 0) / 1024:.1f} MiB, "
          f"{r['objects']} objects, {r['blocks']} blocks, {r['tasks']} tasks, "
          f"tables {r['lengths'].get('lobby.tables')}, sessions {r['lengths'].get('server.sessions')}, "
          f"data {sum(files.values()) / 1024:.0f} KiB in {len(files)} files, "
          f"{len(r['errors'])} errors", flush=True)
    for error in r["errors"][:3]:
        print("   ", error)


def growth(rounds: list[dict]) -> dict[str, list[int]]:
    """The counts (types of objects, containers, files) that rose from each round to the
    next after the first: name -> the count at every round."""
    if len(rounds) < 3:
        return {}
    series: dict[str, list[int]] = {}
    for section in ("ours", "top", "lengths", "files"):
        names = set().union(*(r[section] for r in rounds))
        for name in names:
            values = [r[section].get(name, 0) for r in rounds]
            later = values[1:]
            if all(b > a for a, b in zip(later, later[1:])):
                series[f"{section}:{name}"] = values
    return series


def main(argv: list[str] | None = None) -> int:
    """Run the soak test and print what grew."""
    args = parse_args(argv)
    result = asyncio.run(soak(args))
    grew = growth(result["rounds"])
    if args.json:
        print(json.dumps({**result, "grew": grew}, indent=1))
        return 0
    print("grew every round (round 0 … last):")
    for name, values in sorted(grew.items()):
        print(f"  {name}: {values}")
    print("stopped:", result["stopped"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
