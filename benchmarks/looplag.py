"""How late this process's event loop runs: a task that sleeps a tick at a time and notes
how much later than asked it woke up (a benchmark's own lag, or the machine's noise)."""

from __future__ import annotations

import asyncio


class LagMeter:
    """Measures how late the event loop wakes a task that sleeps ``tick`` seconds at a
    time; ``worst`` is the latest so far (set it back to 0 to measure a new phase)."""

    def __init__(self, tick: float = 0.001) -> None:
        self.tick = tick
        self.worst = 0.0
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.tick)
            self.worst = max(self.worst, loop.time() - before - self.tick)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass
