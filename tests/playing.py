"""Playing one person's seat at a real table to the end of the game, for tests."""

from __future__ import annotations

import asyncio
from typing import Callable

from diamant_tui.table import Member, TableStatus
from diamant_tui.engine.view import Decision, PlayerView


async def play_out(member: Member, choose: Callable[[PlayerView], Decision],
                   timeout: float = 60.0) -> None:
    """Decide with ``choose`` each time ``member``'s choice is due, until the game ends."""
    table = member.table
    finished = asyncio.Event()

    def on_update(update) -> None:
        view = update.view
        if table.status is TableStatus.FINISHED:
            finished.set()
        elif view is not None and view.decision_due and view.my_decision is None:
            # Not from inside the table's own publish: on the next turn of the loop.
            asyncio.get_running_loop().call_soon(member.decide, choose(view))

    member.subscribe(on_update)
    await asyncio.wait_for(finished.wait(), timeout)


async def until(predicate: Callable[[], object], timeout: float = 20.0) -> None:
    """Wait until ``predicate()`` holds (a generous bound, not a timing assertion)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.005)
