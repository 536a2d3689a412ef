"""Frames, bytes and CPU per seat per reveal of the table screen, headless.

Plays whole games at a real table (computer players in the other seats) with one or more
Textual apps on it in this one process, each driven like a person through Textual's
Pilot (a key for every decision), and counts what each app sends to its terminal.

It prints, per seat and per reveal: frames, full repaints (``LayoutUpdate``) and bytes,
and the CPU of the whole process with and without the apps: the same games played with
the same decisions through the table alone give what the table, the computer players and
the driving loop cost, and the difference divided by the apps is the CPU of one seat.

Run: ``python benchmarks/bench_frames.py`` (one seat), ``--apps 5`` (a full table; more
than five apps watch), ``--profile out.prof`` to write a cProfile of the measured part.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from ui_helpers import FrameCounter  # noqa: E402

from diamant_tui.engine.events import CardRevealed  # noqa: E402
from diamant_tui.table import Member, Table, TableSettings, TableStatus  # noqa: E402
from diamant_tui.ui import DiamantApp  # noqa: E402
from diamant_tui.engine.view import Decision  # noqa: E402

SEATS = 5
POLL = 0.02
"""How often the driver looks whether a person has a choice to make (seconds)."""
GAME_TIMEOUT = 120.0
"""Seconds a game may take before the benchmark gives up (something is stuck)."""


def choice(view) -> Decision:
    """The person's plan: go on for five cards, then leave (the same with or without apps)."""
    return Decision.CONTINUE if view.step < 5 else Decision.LEAVE


def make_table(people: int, args) -> Table:
    bots = (args.bot,) * (SEATS - people)
    return Table(TableSettings(name="bench", seats=SEATS, bots=bots, pace=args.pace,
                               seed=args.seed))


def reveals(table: Table) -> int:
    return sum(isinstance(e, CardRevealed) for e in table.game.events)


async def play_games(table: Table, games: int, step) -> int:
    """Let ``games`` games run to their end (rematches start at once); returns reveals."""
    count = 0
    loop = asyncio.get_running_loop()
    for game in range(games):
        end = loop.time() + GAME_TIMEOUT
        while table.status is not TableStatus.FINISHED:
            if loop.time() > end:
                raise RuntimeError(f"game {game + 1} did not end within {GAME_TIMEOUT:g} s")
            await step()
            await asyncio.sleep(POLL)
        count += reveals(table)
        if game + 1 < games:
            table.rematch()
    return count


async def table_alone(args) -> tuple[float, int]:
    """CPU and reveals of the same games with people deciding straight through the table."""
    people = min(args.apps, SEATS)
    table = make_table(people, args)
    members = [table.sit(f"p{i}", f"p{i}") for i in range(people)]
    for i in range(args.apps - people):
        table.watch(f"w{i}", f"w{i}")
    for member in members:
        member.subscribe(lambda update: None)

    async def step() -> None:
        for member in members:
            view = table.game.view_for(member.seat)
            if view.decision_due and view.my_decision is None:
                member.decide(choice(view))

    await asyncio.sleep(0.3)
    start = time.process_time()
    n = await play_games(table, args.games, step)
    cpu = time.process_time() - start
    await table.close()
    return cpu, n


async def with_apps(args) -> dict:
    """Play the games with ``args.apps`` apps at the table; measure frames and CPU."""
    people = min(args.apps, SEATS)
    table = make_table(people, args)
    members: list[Member] = [table.sit(f"p{i}", f"p{i}") for i in range(people)]
    members += [table.watch(f"w{i}", f"w{i}") for i in range(args.apps - people)]
    async with AsyncExitStack() as stack:
        pilots = []
        for member in members:
            app = DiamantApp(lang="en", member=member)
            pilots.append(await stack.enter_async_context(app.run_test(size=args.size)))
        await asyncio.sleep(0.3)
        counters = [FrameCounter(pilot.app) for pilot in pilots]

        async def step() -> None:
            for pilot, member in zip(pilots, members):
                if not pilot.app.is_running:
                    raise RuntimeError(f"the app of {member.name} stopped (see its error above)")
                view = getattr(pilot.app.screen, "view", None)
                if (member.seat is not None and view is not None and view.decision_due
                        and view.my_decision is None):
                    key = "c" if choice(view) is Decision.CONTINUE else "l"
                    await pilot.press(key)

        profile = cProfile.Profile() if args.profile else None
        start = time.process_time()
        if profile:
            profile.enable()
        n = await play_games(table, args.games, step)
        if profile:
            profile.disable()
            profile.dump_stats(args.profile)
        cpu = time.process_time() - start
    await table.close()
    return dict(
        reveals=n,
        cpu=cpu,
        frames=sum(c.frames for c in counters),
        full=sum(c.full for c in counters),
        bytes=sum(c.bytes for c in counters),
    )


def size(text: str) -> tuple[int, int]:
    width, height = text.lower().split("x")
    return int(width), int(height)


def main() -> None:
    """Print frames, full repaints, bytes and CPU per seat per reveal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=1, help="apps at the table (beyond 5 watch)")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--size", type=size, default=(80, 24), help="terminal size, WxH")
    parser.add_argument("--pace", type=float, default=0.05, help="seconds between reveals")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bot", default="cards:6", help="the computer players")
    parser.add_argument("--profile", help="write a cProfile of the measured part here")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()

    base_cpu, base_n = asyncio.run(table_alone(args))
    got = asyncio.run(with_apps(args))
    n, apps = got["reveals"], args.apps
    per_seat = (got["cpu"] / n - base_cpu / base_n) / apps
    figures = {
        "apps": apps,
        "games": args.games,
        "reveals": n,
        "frames_per_seat_reveal": got["frames"] / n / apps,
        "full_per_seat_game": got["full"] / apps / args.games,
        "bytes_per_seat_reveal": got["bytes"] / n / apps,
        "cpu_ms_per_reveal_all": 1000 * got["cpu"] / n,
        "cpu_ms_per_reveal_table_alone": 1000 * base_cpu / base_n,
        "cpu_ms_per_seat_reveal": 1000 * per_seat,
    }
    print(f"apps {apps}  games {args.games}  reveals {n}  size {args.size[0]}x{args.size[1]}")
    print(f"per seat per reveal: frames {figures['frames_per_seat_reveal']:.2f}  "
          f"bytes {figures['bytes_per_seat_reveal']:.0f}  "
          f"cpu {figures['cpu_ms_per_seat_reveal']:.1f} ms")
    print(f"full repaints per seat per game: {figures['full_per_seat_game']:.1f}")
    print(f"cpu per reveal: {figures['cpu_ms_per_reveal_all']:.1f} ms with the apps, "
          f"{figures['cpu_ms_per_reveal_table_alone']:.1f} ms for the table, computer players "
          f"and driver alone")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
