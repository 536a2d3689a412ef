"""Keeping a table saved as it changes, without ever making its players wait on a disk.

The table tells its :class:`Journal` of every change; the journal hands a save to
whatever keeps it (the server's database) with at most one save in flight: changes made
while a save is under way are gathered into the next one, which takes the state as it is
then. The game loop asks :meth:`Journal.saved` before it reveals a card, so what led to
a reveal is on disk before anyone sees the card.

A save is a snapshot of the whole table, or, when only the game has gone on since the
last snapshot kept, that progress alone (the cards and choices since then: see
:mod:`.snapshot`). A table of five people made about five saves a card, the card and
four choices; each was a snapshot of some 9 KB taken in the event loop and encoded while
holding the interpreter, or, for a choice, the turn's choices alone. Now a snapshot is
taken when a seat, the table's status or the game changes, and every
:data:`~.snapshot.PROGRESS_STEPS` steps.

The choices are gathered for up to :data:`GATHER` seconds (:meth:`Journal.progressed`),
and what the game loop asks before a card (:meth:`Journal.saved`) saves them at once; a
card needs no save of its own (a restart draws it again), the next save carries it. So a
turn's choices and the card before them go to the disk in one save, not five. A save
cost a seat about 0.12 ms of the server's CPU per reveal at a table of five, most of it
the hand-over to the database's thread and its transaction, whatever its size.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Generic, TypeVar

log = logging.getLogger("diamant_tui.table")

Save = Callable[[dict[str, Any]], Awaitable[None]]
"""Keeps one snapshot; resolves once it is safe (on disk)."""

SaveChoices = Callable[[dict[str, Any] | None], Awaitable[None]]
"""Keeps the progress made since the last snapshot kept, in place of the progress kept
before it; resolves once safe."""

GATHER = 1.0
"""Seconds the game's progress may wait to be saved (see the module docstring). Only
choices are at stake: a card is never turned before the choices that led to it are on
disk, and a card not saved is drawn again after a restart (the generator is saved). A
server stopped in between saves it first; one that crashes loses the choices made in the
second before, which their people make again, having seen nothing new."""

FAILURES_TOLD_EVERY = 60.0
"""Seconds between two log lines about a table's saves failing one after the other (a
full disk fails every save: the first is logged whole, the others counted)."""

B = TypeVar("B")
"""What the table says a snapshot was taken of, for the progress after it."""


class Journal(Generic[B]):
    """Saves a table's snapshots and progress one at a time, the latest state each time."""

    def __init__(self, save: Save | None, take: Callable[[], tuple[dict[str, Any], B]],
                 table_name: str, *, save_progress: SaveChoices | None = None,
                 take_progress: Callable[[B], dict[str, Any] | None] | None = None) -> None:
        """``take`` makes a snapshot, with its base; ``take_progress(base)`` the progress
        since the snapshot of that base, or None when a snapshot must be taken instead.
        Without ``save_progress``, every save is a snapshot."""
        self._save = save
        self._take = take
        self._save_progress = save_progress if take_progress is not None else None
        self._take_progress = take_progress
        self._table_name = table_name
        self._base: B | None = None
        """The base of the last snapshot kept (None: none kept, or its save failed)."""
        self._dirty = False
        self._failures = 0
        """Saves failed since the last one that succeeded."""
        self._failures_told = 0.0
        """When the last line about those failures was logged (the loop's clock)."""
        self._whole = False
        """The next save must be a snapshot (:meth:`changed_outside`)."""
        self._task: asyncio.Task[None] | None = None
        self._later: asyncio.TimerHandle | None = None
        """The save put off for progress gathered (:meth:`progressed`)."""

    def changed(self) -> None:
        """The table has changed: save it now (or after the save under way)."""
        if self._save is None:
            return
        self._dirty = True
        self._start()

    def changed_outside(self) -> None:
        """What the keeper adds to each snapshot has changed (the server's part of a
        table, such as a guest's new resume code), not the table: save a whole snapshot
        now, which takes that part again, where the game's progress alone would not."""
        if self._save is None:
            return
        self._whole = True
        self.changed()

    def progressed(self) -> None:
        """The game has gone on (a choice): save it within :data:`GATHER` seconds, or
        as soon as :meth:`saved` is asked."""
        if self._save is None:
            return
        self._dirty = True
        if self._later is None and (self._task is None or self._task.done()):
            self._later = asyncio.get_running_loop().call_later(GATHER, self._start)

    def _start(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"save table {self._table_name}")

    async def saved(self) -> None:
        """Save what is waiting at once, and wait until every change made so far has
        been saved (or its save has failed: a table whose disk fails goes on, and the
        failure is logged)."""
        if self._later is not None:
            self._start()
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        assert self._save is not None
        while self._dirty:
            self._dirty = False
            try:
                progress = None
                if (self._base is not None and self._save_progress is not None
                        and not self._whole):
                    assert self._take_progress is not None
                    progress = self._take_progress(self._base)
                if progress is not None:
                    assert self._save_progress is not None
                    await self._save_progress(progress)
                else:
                    self._whole = False
                    snapshot, base = self._take()
                    self._base = None  # progress after it only once it is kept
                    await self._save(snapshot)
                    self._base = base
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed(exc)
            else:
                if self._failures:
                    log.warning("table %s: saved again, after %d failed save(s)",
                                self._table_name, self._failures)
                    self._failures = 0

    def _failed(self, exc: Exception) -> None:
        """Log a failed save: the first of a run whole, with its traceback; the next
        ones (a full disk fails every save, at every change of every table) at most
        once every :data:`FAILURES_TOLD_EVERY` seconds, counted, on one line."""
        self._failures += 1
        now = asyncio.get_running_loop().time()
        if self._failures == 1:
            log.error("table %s: could not be saved", self._table_name, exc_info=exc)
        elif now - self._failures_told >= FAILURES_TOLD_EVERY:
            log.error("table %s: could not be saved, %d times in a row now: %s",
                      self._table_name, self._failures, exc)
        else:
            return
        self._failures_told = now
