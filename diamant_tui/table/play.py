"""A table's game loop: reveals at the table's pace, turns on the clock, computers deciding.

:class:`Play` runs one game to its end as an asyncio task. It reveals a card, opens the
turn (with its clock, if the table has a timer) and waits until every player still in
the cave has decided: the computer players (and the stand-ins of people who are away)
decide here, people through their members. When the clock runs out, stand-ins decide at
once for the late; a computer player that fails or is too slow gets a stand-in for that
one decision. Computer players back in camp are shown each step that follows (their
``watch``, if they have one), as people there see it. Everything it changes is in the
table's state, sent on through the updates.
"""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import datetime, timezone
from typing import Awaitable, Callable

from ..bots.outside import as_decision, checked_watch
from ..engine.game import Game
from ..engine.view import Phase
from .clock import TurnClock
from .info import STAND_IN_BOT, SeatKind, TableStatus
from .seats import Seats
from .state import TableState
from .updates import Updates

log = logging.getLogger("diamant_tui.table")

BOT_TIME_LIMIT = 5.0
"""Seconds a computer player may think at a table before a stand-in decides for it."""
ROUND_PAUSE = 6
"""The pause after a round ends, in multiples of the pace, so its summary can be read."""


class Play:
    """Plays the table's current game, one task at a time."""

    def __init__(self, state: TableState, seats: Seats, updates: Updates, clock: TurnClock,
                 *, pace: float, table_name: str, on_over: Callable[[], None],
                 saved: Callable[[], Awaitable[None]] | None = None,
                 bot_time_limit: float = BOT_TIME_LIMIT) -> None:
        self._state = state
        self._bot_time_limit = bot_time_limit
        self._saved = saved
        """Resolves once the table's changes so far are saved (see Journal.saved)."""
        self._seats = seats
        self._updates = updates
        self._clock = clock
        self._pace = pace
        self._table_name = table_name
        self._on_over = on_over
        """Called once a game has ended and everyone was told."""
        self._wakeup = asyncio.Event()
        """Set when a turn may have moved on without the loop (a decision, a seat away)."""
        self._task: asyncio.Task[None] | None = None
        self._deaf: list[object] = []
        """Computer players whose ``watch`` failed: not shown the game any more."""

    def begin(self) -> None:
        """Play the state's game, from where it is, in a task of its own."""
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"table {self._table_name}")

    def wake(self) -> None:
        """Look at the turn again: someone decided, or a computer now plays for someone."""
        self._wakeup.set()

    async def stop(self) -> None:
        """Stop the game's task, if it runs."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def _run(self) -> None:
        state = self._state
        game = state.game
        assert game is not None
        pace = self._pace
        try:
            loop = asyncio.get_running_loop()
            card_at = -math.inf
            while not game.over:
                if game.phase is Phase.ROUND_OVER:
                    await asyncio.sleep(pace * ROUND_PAUSE)
                    # The round's first card follows at once: both go out together.
                    self._updates.publish_with_next(game.start_next_round())
                if game.phase is Phase.REVEAL:
                    if self._saved is not None:
                        # What led to this card (the turn's choices) is safe before
                        # anyone sees the card; the card itself is saved next, and a
                        # restart before that draws the same card again (same generator).
                        await self._saved()
                    events = game.reveal_random()
                    card_at = loop.time()
                    self._updates.card_due = card_at + pace
                    # The card and the turn it opens (with its timer) in one update. It
                    # needs no save of its own: until the next one, which carries it, a
                    # restart draws it again.
                    self._clock.start(game)
                    self._updates.publish(events, changed=False)
                if game.phase is Phase.DECISION:
                    self._computers_watch(game)
                    await self._decision_turn(game)
                # The pace is the least time from one card to the next: after a turn
                # that took longer, the next card (with the turn's choices) comes at once.
                await asyncio.sleep(max(0.0, card_at + pace - loop.time()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the game stopped on an error", self._table_name)
            return
        state.status = TableStatus.FINISHED
        state.ended = datetime.now(timezone.utc)
        self._updates.publish(())
        self._on_over()

    async def _decision_turn(self, game: Game) -> None:
        turn = (game.round, game.step)
        clock = self._clock
        self._wakeup.clear()
        if clock.deadline is None and clock.timer:
            clock.start(game)  # a turn not opened by a reveal here (none today)
            self._updates.publish(())
        while game.phase is Phase.DECISION and (game.round, game.step) == turn:
            await self._computers_decide(game, turn)
            if game.phase is not Phase.DECISION or (game.round, game.step) != turn:
                break
            try:
                await asyncio.wait_for(self._wakeup.wait(), clock.left())
            except TimeoutError:
                self._time_out(game)
            self._wakeup.clear()
        clock.stop()

    def _time_out(self, game: Game) -> None:
        """The timer ran out: stand-in computer players decide at once for late people.

        Deciding here, not on the next pass of the loop, means a key pressed just after
        the deadline cannot leave the turn waiting on a seat that is no longer timed.
        """
        self._clock.stop()
        seats = self._seats
        late = [
            seat
            for seat in game.players_in_cave
            if seat not in game.pending and seats[seat].kind is SeatKind.PERSON
        ]
        for seat in late:
            seats.set_away(seat)
        self._updates.publish(())
        for seat in late:
            if game.phase is not Phase.DECISION or seat not in game.players_in_cave:
                break
            bot = seats[seat].bot
            assert bot is not None
            seats[seat].stand_in_chose = (game.round, game.step)
            events = game.submit(seat, bot.decide(game.view_for(seat)))
            self._updates.decided(events)

    def _computers_watch(self, game: Game) -> None:
        """Computer players back in camp see the step, as people there see the screen.

        Done here, not in a thread: watching is bookkeeping (``watch`` must be quick), and
        it is seen before the turn's choices, in order. One that fails is logged once and
        not shown the game again.
        """
        in_cave = game.players_in_cave
        for seat in range(len(game.names)):
            s = self._seats[seat]
            bot = s.bot
            if (seat in in_cave or not s.played_by_computer or bot is None
                    or any(bot is d for d in self._deaf)
                    or getattr(bot, "watch", None) is None):
                continue
            problem = checked_watch(bot, game.view_for(seat), s.spec)
            if problem is not None:
                self._deaf.append(bot)
                log.warning("table %s: %s", self._table_name, problem)

    async def _computers_decide(self, game: Game, turn: tuple[int, int]) -> None:
        loop = asyncio.get_running_loop()
        for seat in game.players_in_cave:
            s = self._seats[seat]
            if seat in game.pending or not s.played_by_computer or s.bot is None:
                continue
            view = game.view_for(seat)
            # A strong computer player may think for a while: keep the loop free. (Not
            # wait_for: on this Python it can swallow the table's own cancellation.)
            thinking = loop.run_in_executor(None, s.bot.decide, view)
            limit = self._bot_time_limit
            done, _ = await asyncio.wait({thinking}, timeout=limit)
            decision, problem = None, f"took more than {limit:g} s"
            if done:
                try:
                    answer = thinking.result()
                    decision = as_decision(answer)
                    problem = None if decision is not None else f"answered {answer!r}"
                except Exception as exc:
                    problem = f"raised {type(exc).__name__}: {exc}"
            if problem is not None:
                # A stand-in plays this one decision; the player keeps its seat.
                decision = self._seats.stand_in().decide(view)
                log.warning("table %s: computer player %s %s (round %d, card %d); %s "
                            "decided for it", self._table_name, s.spec, problem, view.round,
                            view.step, STAND_IN_BOT)
            if (game.round, game.step) != turn or game.phase is not Phase.DECISION:
                return
            if seat in game.players_in_cave and seat not in game.pending:
                if s.kind is SeatKind.PERSON:  # an away person's: they are told who chose
                    s.stand_in_chose = turn
                events = game.submit(seat, decision)
                self._updates.decided(events)
