"""What a seat costs to open at a waiting table, and then when its game begins, headless.

For each of ``--apps`` apps in turn: a table of three seats (one computer player) with one
person, whose app opens on the waiting table (the process CPU from the app's start until
the waiting panel shows its state), then a second person sits and the game begins (the
CPU until the first choice is due on the first person's screen). A few apps first warm
the process up and are not counted.

Python's cycle collector runs whenever enough objects have been made, so part of one
phase's garbage is collected in the next, and a change that makes less garbage in one
phase can seem to make the next dearer. ``--no-collector`` turns it off while measuring:
each phase then counts only its own work, which is steadier for comparing two versions.

Run: ``python benchmarks/join_costs.py [--apps 20] [--no-collector]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.waiting import WaitingPanel

WARM_UP = 3


async def one(index: int) -> tuple[float, float]:
    """(CPU to open the waiting table, CPU for the game to begin), in seconds."""
    table = Table(TableSettings(name=f"t{index}", seats=3, bots=("ev",), pace=0.05, seed=3),
                  creator="zoe")
    member = table.sit("Zoe", "zoe")
    app = DiamantApp(lang="en", member=member)
    start = time.process_time()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause()
            panels = app.screen.query(WaitingPanel)
            if panels and panels.first().state is not None:
                break
        else:
            raise RuntimeError("the waiting table was not shown")
        await pilot.pause()
        waiting = time.process_time()
        table.sit("Max", "max")
        for _ in range(400):
            await pilot.pause()
            view = getattr(app.screen, "view", None)
            if view is not None and view.decision_due:
                break
        else:
            raise RuntimeError("the game did not begin")
        await pilot.pause()
        begun = time.process_time()
    await table.close()
    return waiting - start, begun - waiting


async def measure(apps: int) -> tuple[float, float]:
    """Mean CPU (ms) per app to open the waiting table and for the game to begin."""
    opened, begun = [], []
    for index in range(apps + WARM_UP):
        first, second = await one(index)
        if index >= WARM_UP:
            opened.append(first)
            begun.append(second)
    return 1000 * sum(opened) / apps, 1000 * sum(begun) / apps


def main() -> None:
    """Print the two figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", type=int, default=20)
    parser.add_argument("--no-collector", action="store_true",
                        help="turn Python's cycle collector off while measuring")
    args = parser.parse_args()
    if args.no_collector:
        gc.disable()
    opened, begun = asyncio.run(measure(args.apps))
    print(f"opening a waiting table {opened:.1f} ms, the game beginning {begun:.1f} ms "
          f"(CPU per app, {args.apps} apps"
          f"{', no cycle collector' if args.no_collector else ''})")


if __name__ == "__main__":
    main()
