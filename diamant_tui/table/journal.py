"""Keeping a table saved as it changes, without ever making its players wait on a disk.

The table tells its :class:`Journal` of every change; the journal hands a snapshot to
whatever keeps it (the server's database) with at most one save in flight: changes made
while a save is under way are gathered into the next one, which takes the state as it is
then. The game loop asks :meth:`Journal.saved` before it reveals a card, so what led to
a reveal is on disk before anyone sees the card.

A choice that does not end its turn changes only the turn's choices: for it the journal
saves those alone (:meth:`Journal.chose`), after the snapshot of their turn. A table of
five people made about five saves a card, four of them choices, each a snapshot of some
8 KB taken in the event loop and encoded while holding the interpreter.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

log = logging.getLogger("diamant_tui.table")

Save = Callable[[dict[str, Any]], Awaitable[None]]
"""Keeps one snapshot; resolves once it is safe (on disk)."""

SaveChoices = Callable[[dict[str, Any] | None], Awaitable[None]]
"""Keeps the turn's choices, taken after the last snapshot kept; resolves once safe."""


class Journal:
    """Saves a table's snapshots one at a time, the latest state each time."""

    def __init__(self, save: Save | None, take: Callable[[], dict[str, Any]],
                 table_name: str, *, save_choices: SaveChoices | None = None,
                 take_choices: Callable[[], dict[str, Any] | None] | None = None) -> None:
        self._save = save
        self._take = take
        self._save_choices = save_choices if take_choices is not None else None
        self._take_choices = take_choices
        self._table_name = table_name
        self._dirty = False
        self._chosen = False
        self._task: asyncio.Task[None] | None = None

    def changed(self) -> None:
        """The table has changed: save it soon (at once, or after the save under way)."""
        if self._save is None:
            return
        self._dirty = True
        self._start()

    def chose(self) -> None:
        """Only the turn's choices have changed: save them soon (the whole table if there
        is nothing to save them alone with, or if it is to be saved anyway)."""
        if self._save is None:
            return
        if self._save_choices is None:
            self.changed()
            return
        self._chosen = True
        self._start()

    def _start(self) -> None:
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
        while self._dirty or self._chosen:
            # A snapshot holds the choices made so far: one after them saves them too.
            whole, self._dirty, self._chosen = self._dirty, False, False
            try:
                if whole:
                    await self._save(self._take())
                else:
                    assert self._save_choices is not None and self._take_choices is not None
                    await self._save_choices(self._take_choices())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: could not be saved", self._table_name)
