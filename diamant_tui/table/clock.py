"""The turn clock: when the people deciding this turn run out of time.

A small thing of its own because two parts read it: the game loop
(:mod:`~diamant_tui.table.play`) starts it and waits on it, and every update
(:mod:`~diamant_tui.table.updates`) tells the seats that must decide when their time ends.

A table without a timer gives nobody a deadline, and someone who walks away from their
keyboard without leaving would hold the turn for ever: once a turn has waited
:data:`HURRY_AFTER` seconds, those done with it may hurry the others, who then have
:data:`HURRY_TIME` seconds, as if the table had a timer for that turn
(:meth:`TurnClock.hurry`).
"""

from __future__ import annotations

import asyncio

from ..engine.game import Game
from ..engine.view import Phase

HURRY_AFTER = 20.0
"""Seconds a turn waits on people before those done with it may hurry them: a hard
choice deserves its time, a long wait is someone gone."""
HURRY_TIME = 30.0
"""Seconds the people hurried have to decide, after which a stand-in decides for each."""


class TurnClock:
    """The current turn's deadline, in event-loop time; None when nobody is timed."""

    def __init__(self, timer: float | None) -> None:
        self.timer = timer
        """Seconds a person has to decide; None for a table without a timer."""
        self.deadline: float | None = None
        self.opened: float | None = None
        """Event-loop time at which the turn under way began; None between turns."""

    def start(self, game: Game) -> None:
        """Set the deadline (if the table has a timer) as a turn of decisions begins."""
        now = asyncio.get_running_loop().time()
        turn = game.phase is Phase.DECISION
        self.opened = now if turn else None
        self.deadline = now + self.timer if turn and self.timer else None

    def open_votes(self) -> None:
        """Time the rematch votes, as a turn (the first vote came now): those who have
        not answered may be hurried once they have been waited on long enough."""
        if self.opened is None:
            self.opened = asyncio.get_running_loop().time()
            self.deadline = None

    def stop(self) -> None:
        """Nobody is timed any more (the turn is over, or its time ran out)."""
        self.deadline = None
        self.opened = None

    def hurry_from(self) -> float | None:
        """Event-loop time from which the people late this turn may be hurried; None if
        they may not be (no turn, or a deadline runs already)."""
        if self.opened is None or self.deadline is not None:
            return None
        return self.opened + HURRY_AFTER

    def may_hurry(self) -> bool:
        """Whether the turn has waited long enough, untimed, for its late to be hurried."""
        start = self.hurry_from()
        return start is not None and asyncio.get_running_loop().time() >= start

    def hurry(self) -> float:
        """Give the people still deciding :data:`HURRY_TIME` seconds (:meth:`may_hurry`);
        returns those seconds."""
        self.deadline = asyncio.get_running_loop().time() + HURRY_TIME
        return HURRY_TIME

    def left(self) -> float | None:
        """Seconds until the deadline (never below 0); None if there is none."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - asyncio.get_running_loop().time())
