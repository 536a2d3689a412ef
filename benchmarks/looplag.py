"""How late this process's event loop runs: a task that sleeps a tick at a time and notes
how much later than asked it woke up (a benchmark's own lag, or the machine's noise)."""

from __future__ import annotations

import asyncio
import time


class LagMeter:
    """Measures how late the event loop wakes a task that sleeps ``tick`` seconds at a
    time; ``worst`` is the latest so far (set it back to 0 to measure a new phase).
    With ``by_second``, ``seconds`` also keeps, for each second of the system-wide
    monotonic clock (the same in every process of the machine), the ticks that came in it,
    their lateness in all and the worst: when a loop ran late, to set beside what other
    processes measured then."""

    def __init__(self, tick: float = 0.001, by_second: bool = False) -> None:
        self.tick = tick
        self.worst = 0.0
        self.seconds: dict[int, list[float]] | None = {} if by_second else None
        """Second -> [ticks, lateness in all, worst lateness], with ``by_second``."""
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.tick)
            late = loop.time() - before - self.tick
            self.worst = max(self.worst, late)
            if self.seconds is not None:
                second = self.seconds.setdefault(int(time.monotonic()), [0, 0.0, 0.0])
                second[0] += 1
                second[1] += late
                second[2] = max(second[2], late)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass
