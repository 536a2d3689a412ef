"""A table's game loop: reveals at the table's pace, turns on the clock, computers deciding.

:class:`Play` runs one game to its end as an asyncio task. It reveals a card, opens the
turn (with its clock, if the table has a timer) and waits until every player still in
the cave has decided: the computer players (and the stand-ins of people who are away)
decide here, people through their members. When the clock runs out, stand-ins decide at
once for the late; a computer player that fails or is too slow gets a stand-in for that
one decision (the first time, everyone's log says so). Each decision is thought over
in a thread of its own that never holds the process open: a player that never answers
cannot keep the game (or the program) from ending, and is not asked again while it still
thinks. Computer players back in camp are shown each step that follows (their
``watch``, if they have one), as people there see it. Everything it changes is in the
table's state, sent on through the updates.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from datetime import datetime, timezone
from typing import Awaitable, Callable

from ..bots.outside import as_decision, checked_watch
from ..engine.game import Game
from ..engine.view import Phase
from .clock import TurnClock
from .info import STAND_IN_BOT, ComputerPlayerFailed, SeatKind, TableStatus, TimeRanOut
from .seats import Seats
from .state import TableState
from .updates import Updates

log = logging.getLogger("diamant_tui.table")

SHOWN_DETAIL = 60
"""Characters of a failing player's exception or answer that the log shows."""
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
        self._thinking: dict[int, tuple[object, asyncio.Future]] = {}
        """Each seat's computer player and its last decision, answered or not."""

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
        if clock.opened is None:
            # A turn not opened by a reveal here: a game played on after a restart.
            clock.start(game)
            if clock.deadline is not None:
                self._updates.publish(())
        offered = False  # the screens told that the late may be hurried (once a turn)
        while game.phase is Phase.DECISION and (game.round, game.step) == turn:
            await self._computers_decide(game, turn)
            if game.phase is not Phase.DECISION or (game.round, game.step) != turn:
                break
            left, hurry_from = clock.left(), clock.hurry_from()
            if left is None and hurry_from is not None and not offered:
                wait = max(0.0, hurry_from - asyncio.get_running_loop().time())
            else:
                wait = left
            try:
                # Not wait_for: on this Python it can swallow the table's own
                # cancellation when the wait ends at the same moment (a game that
                # never stops, a table that never closes).
                async with asyncio.timeout(wait):
                    await self._wakeup.wait()
            except TimeoutError:
                if left is not None:
                    self._time_out(game)
                else:
                    # Nothing else changes as the turn has waited long enough: told now,
                    # the screens of those done with it offer to hurry the late.
                    offered = True
                    if self._seats.late(game):
                        self._updates.publish(())
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
        # Everyone reads whose time ran out: their choices are shown with the others' at
        # the next card, as if they had made them.
        self._updates.publish((TimeRanOut(tuple(late)),) if late else ())
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
        for seat in game.players_in_cave:
            s = self._seats[seat]
            if seat in game.pending or not s.played_by_computer or s.bot is None:
                continue
            view = game.view_for(seat)
            failed = await self._decide(seat, s.bot, view)
            if isinstance(failed, ComputerPlayerFailed):
                # A stand-in plays this one decision; the player keeps its seat.
                decision = self._seats.stand_in().decide(view)
                log.warning("table %s: computer player %s %s (round %d, card %d); %s "
                            "decided for it", self._table_name, s.spec, _in_english(failed),
                            view.round, view.step, STAND_IN_BOT)
                self._tell_failure(failed)
            else:
                decision = failed
            if (game.round, game.step) != turn or game.phase is not Phase.DECISION:
                return
            if seat in game.players_in_cave and seat not in game.pending:
                if s.kind is SeatKind.PERSON:  # an away person's: they are told who chose
                    s.stand_in_chose = turn
                events = game.submit(seat, decision)
                self._updates.decided(events)

    async def _decide(self, seat: int, bot, view):
        """``bot``'s decision for ``view``, or how it failed (its stand-in's to play).

        A strong computer player may think for a while: it thinks in a thread, the loop
        stays free. (Not wait_for: on this Python it can swallow the table's own
        cancellation.) One still thinking over an earlier card is not asked again: each
        question would be one more thread spinning until the program ends.
        """
        spec = self._seats[seat].spec
        limit = self._bot_time_limit
        earlier = self._thinking.get(seat)
        if earlier is not None and earlier[0] is bot and not earlier[1].done():
            return ComputerPlayerFailed(seat, spec, "slow", f"{limit:g}", STAND_IN_BOT)
        thinking = _think(bot, view, f"table {self._table_name} seat {seat}")
        self._thinking[seat] = (bot, thinking)
        done, _ = await asyncio.wait({thinking}, timeout=limit)
        if not done:
            return ComputerPlayerFailed(seat, spec, "slow", f"{limit:g}", STAND_IN_BOT)
        answer, error = thinking.result()
        if error is not None:
            return ComputerPlayerFailed(seat, spec, "raised",
                                        _shortened(f"{type(error).__name__}: {error}"),
                                        STAND_IN_BOT)
        decision = as_decision(answer)
        if decision is None:
            return ComputerPlayerFailed(seat, spec, "answered", _shortened(repr(answer)),
                                        STAND_IN_BOT)
        return decision

    def _tell_failure(self, failed: ComputerPlayerFailed) -> None:
        """Tell everyone at the table, once for each seat in a game, that its computer
        player failed and how; the state keeps it for those who arrive later."""
        state = self._state
        if any(told.seat == failed.seat for told in state.failures_told):
            return
        state.failures_told += (failed,)
        self._updates.publish((failed,), changed=False)


def _think(bot, view, name: str) -> asyncio.Future:
    """``bot.decide(view)`` in a daemon thread; resolves to ``(answer, None)`` or
    ``(None, exception)``.

    A daemon thread, not the loop's executor: the executor's threads are waited for when
    the program ends, so a decision that never returned kept a finished local game open,
    deaf even to Ctrl+C. Whatever it raises, ``SystemExit`` too, comes back as a value:
    a computer player's ``sys.exit()`` must not end the table, nor the program.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future = loop.create_future()

    def settle(outcome) -> None:
        if not future.done():
            future.set_result(outcome)

    def run() -> None:
        try:
            outcome = (bot.decide(view), None)
        except BaseException as exc:  # noqa: BLE001 (see the docstring)
            outcome = (None, exc)
        try:
            loop.call_soon_threadsafe(settle, outcome)
        except RuntimeError:
            pass  # the loop has closed: nobody waits for this answer any more

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


def _in_english(failed: ComputerPlayerFailed) -> str:
    """How the player failed, for the host's log."""
    if failed.kind == "slow":
        return f"took more than {failed.detail} s"
    return f"{failed.kind} {failed.detail}"


def _shortened(text: str) -> str:
    """``text`` on one line, cut to :data:`SHOWN_DETAIL` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= SHOWN_DETAIL else line[:SHOWN_DETAIL - 3] + "..."
