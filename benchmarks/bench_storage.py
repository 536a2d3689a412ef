"""How long the server's database takes to make a write durable, alone and in a burst.

Prints the time from a write being asked for until it is on disk (its awaitable resolved):
for one table save at a time, and for a burst of 100 table saves asked for at once (as
when 100 tables reveal a card in the same moment), as p50 and p99 over all the writes of
all the bursts, and the time until the last of a burst is durable. Meanwhile a task
measures the event loop's lag (how late a 1 ms sleep wakes up): the loop must never be
held longer than 5 ms, since every screen of the server is drawn on it. The worst lag of
an idle loop over as long a time is printed beside it: on a busy machine the processor
itself is the lag. So is the processor time the event loop's thread spent on a burst (to
ask for the writes and hear they are done), which a busy machine does not change.

The times depend on the disk (a sync to disk is most of them): run it in the data folder's
file system. Run: ``python benchmarks/bench_storage.py [--folder DIR]``.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from diamant_server.storage import Storage
from looplag import LagMeter

BLOCKED = 0.005
"""Loop lag above which the loop counts as blocked (a frame is ~16 ms)."""


def snapshot(step: int) -> dict:
    """A table's state of about the size a real one has (deck order, seats, the record)."""
    return {
        "step": step,
        "deck": [f"T{v}" for v in (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)] * 2,
        "seats": [{"name": f"player{i}", "identity": f"key:SHA256:{'x' * 43}", "carried": i}
                  for i in range(6)],
        "record": {"rounds": [{"cards": ["T5", "H:snakes", "T9", "R"] * 3,
                               "decisions": [{f"player{i}": "continue" for i in range(6)}] * 11}
                              for _ in range(3)]},
    }


async def timed(write) -> float:
    start = time.perf_counter()
    await write
    return time.perf_counter() - start


def p(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values``, in milliseconds."""
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1] * 1000


async def idle_lag(seconds: float) -> float:
    """The worst loop lag with nothing else going on: the machine's own noise."""
    meter = LagMeter()
    meter.start()
    await asyncio.sleep(seconds)
    await meter.stop()
    return meter.worst


async def measure(folder: Path, singles: int, bursts: int, size: int) -> None:
    storage = Storage.open(folder)
    meter = LagMeter()
    meter.start()
    started = time.perf_counter()
    try:
        one = [await timed(storage.save_table("t0", "cave", {}, snapshot(n)))
               for n in range(singles)]
        each: list[float] = []
        whole: list[float] = []
        work: list[float] = []
        transactions = storage.transactions
        for b in range(bursts):
            snapshots = [snapshot(b) for _ in range(size)]  # the tables' part, not timed
            start, start_cpu = time.perf_counter(), time.thread_time()
            # Each write is queued when it is asked for, as the tables would ask.
            each += await asyncio.gather(*(timed(storage.save_table(f"t{n}", "cave", {},
                                                                   snapshots[n]))
                                          for n in range(size)))
            whole.append(time.perf_counter() - start)
            work.append(time.thread_time() - start_cpu)
        transactions = storage.transactions - transactions
    finally:
        await meter.stop()
        storage.close()
    noise = await idle_lag(time.perf_counter() - started)
    print(f"one write until durable:      p50 {p(one, .5):6.2f} ms   p99 {p(one, .99):6.2f} ms"
          f"   ({singles} writes)")
    print(f"a burst of {size}, each write:   p50 {p(each, .5):6.2f} ms   p99 {p(each, .99):6.2f} ms"
          f"   ({bursts} bursts)")
    print(f"a burst of {size}, the last one: p50 {p(whole, .5):6.2f} ms   "
          f"p99 {p(whole, .99):6.2f} ms   ({transactions / bursts:.1f} transactions a burst)")
    print(f"the event loop's own work for a burst (processor time): p50 {p(work, .5):.2f} ms"
          f"   p99 {p(work, .99):.2f} ms")
    blocked = "yes" if meter.worst > BLOCKED else "no"
    print(f"event loop blocked over {BLOCKED * 1000:g} ms: {blocked} "
          f"(worst lag {meter.worst * 1000:.2f} ms; with no writes, as long again on this "
          f"machine: {noise * 1000:.2f} ms)")


def main() -> None:
    """Run the measures in a fresh database (in ``--folder``, or a temporary folder)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, help="where to make the database (removed after)")
    parser.add_argument("--singles", type=int, default=200)
    parser.add_argument("--bursts", type=int, default=30)
    parser.add_argument("--size", type=int, default=100)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-storage-", dir=args.folder))
    try:
        asyncio.run(measure(folder, args.singles, args.bursts, args.size))
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
