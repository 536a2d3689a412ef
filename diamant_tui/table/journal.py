"""Keeping a table saved as it changes, without ever making its players wait on a disk.

The table tells its :class:`Journal` of every change; the journal hands a snapshot to
whatever keeps it (the server's database) with at most one save in flight: changes made
while a save is under way are gathered into the next one, which takes the state as it is
then. The game loop asks :meth:`Journal.saved` before it reveals a card, so what led to
a reveal is on disk before anyone sees the card.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

log = logging.getLogger("diamant_tui.table")

Save = Callable[[dict[str, Any]], Awaitable[None]]
"""Keeps one snapshot; resolves once it is safe (on disk)."""


class Journal:
    """Saves a table's snapshots one at a time, the latest state each time."""

    def __init__(self, save: Save | None, take: Callable[[], dict[str, Any]],
                 table_name: str) -> None:
        self._save = save
        self._take = take
        self._table_name = table_name
        self._dirty = False
        self._task: asyncio.Task[None] | None = None

    def changed(self) -> None:
        """The table has changed: save it soon (at once, or after the save under way)."""
        if self._save is None:
            return
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"save table {self._table_name}")

    async def saved(self) -> None:
        """Wait until every change made so far has been saved (or its save has failed:
        a table whose disk fails goes on, and the failure is logged)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        assert self._save is not None
        while self._dirty:
            self._dirty = False
            try:
                await self._save(self._take())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: could not be saved", self._table_name)
