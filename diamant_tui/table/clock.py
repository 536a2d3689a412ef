"""The turn clock: when the people deciding this turn run out of time.

A small thing of its own because two parts read it: the game loop
(:mod:`~diamant_tui.table.play`) starts it and waits on it, and every update
(:mod:`~diamant_tui.table.updates`) tells the seats that must decide when their time ends.
"""

from __future__ import annotations

import asyncio

from ..engine.game import Game
from ..engine.view import Phase


class TurnClock:
    """The current turn's deadline, in event-loop time; None when nobody is timed."""

    def __init__(self, timer: float | None) -> None:
        self.timer = timer
        """Seconds a person has to decide; None for a table without a timer."""
        self.deadline: float | None = None

    def start(self, game: Game) -> None:
        """Set the deadline (if the table has a timer) as a turn of decisions begins."""
        due = game.phase is Phase.DECISION and self.timer
        self.deadline = asyncio.get_running_loop().time() + self.timer if due else None

    def stop(self) -> None:
        """Nobody is timed any more (the turn is over, or its time ran out)."""
        self.deadline = None

    def left(self) -> float | None:
        """Seconds until the deadline (never below 0); None if there is none."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - asyncio.get_running_loop().time())
