"""The table: an asyncio coordinator that runs one game for its seats.

A :class:`Table` owns an engine :class:`~diamant_tui.engine.game.Game`. Its seats are people
(an interface in a terminal, local or over SSH) or computer players. It collects every
decision of a turn, runs the optional decision timer, paces the reveals so people can
follow them, and publishes to everyone at the table (players and spectators) their own
:class:`~diamant_tui.engine.view.PlayerView` and the new events, as a :class:`TableUpdate`.

People reach a table only through the :class:`Member` it gives them when they sit down
(:meth:`Table.sit`) or come to watch (:meth:`Table.watch`). Every intent (decide, chat,
vote for a rematch, start early, leave) goes through that member, and the table checks
who asks before it acts: a spectator cannot decide, only the table's creator starts it
early, a member whose seat was taken over by a newer connection can do nothing more.
No Textual imports here.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from ..bots import Bot, make_bot
from ..bots.outside import as_decision
from ..engine.game import Game, GameConfig
from ..engine.errors import IllegalAction
from ..engine.events import DecisionMade, Event
from ..names import NAME_MAX_CHARS, clean_name, clean_text, distinct_name
from .chat import ChatAllowances
from .info import (
    STAND_IN_BOT,
    ChatLimits,
    ChatLine,
    ChatRejected,
    NotAllowed,
    SeatInfo,
    SeatKind,
    TableError,
    TableFull,
    TableSettings,
    TableStatus,
    TableUpdate,
)
from ..engine.view import Decision, Phase

log = logging.getLogger(__name__)
BOT_TIME_LIMIT = 5.0
"""Seconds a computer player may think at a table before a stand-in decides for it."""

BOT_NAMES = ("Ana", "Bruno", "Chiara", "Dmytro", "Elena", "Farid", "Greta", "Hugo")
"""Names given to computer seats, in seat order of filling."""
CHAT_MAX_CHARS = 200
CHAT_BURST = ChatLimits.person
CHAT_WINDOW = ChatLimits.window
CHAT_KEPT = 50
CHAT_GATHER_PEOPLE = 10
"""Past this many people at a table, chat updates are gathered for proportionally longer."""
ROUND_PAUSE = 6
"""The pause after a round ends, in multiples of the pace, so its summary can be read."""
MARKS_DELAY = 0.5
"""Seconds the others may wait to see that a player has decided. Marks made meanwhile go
out together: every update is a frame for every screen at the table, and one per
decision was most of what a table cost a server. Whoever decides sees it at once."""


@dataclass
class _Seat:
    name: str = ""
    kind: SeatKind = SeatKind.EMPTY
    spec: str | None = None
    bot: Bot | None = None
    identity: str | None = None
    away: bool = False
    connected: bool = False

    def info(self, seat: int) -> SeatInfo:
        return SeatInfo(seat, self.name, self.kind, self.spec, self.away, self.connected)

    @property
    def played_by_computer(self) -> bool:
        return self.kind is SeatKind.BOT or self.away


class Member:
    """Someone at a table: the person in a seat, or a spectator (``seat`` None).

    Made by the table only (:meth:`Table.sit`, :meth:`Table.watch`); each method is one
    intent, which the table checks and refuses with a :class:`TableError` that says why.
    """

    def __init__(self, table: "Table", seat: int | None, identity: str, name: str) -> None:
        self.table = table
        self.seat = seat
        self.identity = identity
        self.name = name
        """The name this member chats under (their seat's name, or their watching name)."""
        self._callback: Callable[[TableUpdate], None] | None = None

    @property
    def watching(self) -> bool:
        """A spectator, not a seat."""
        return self.seat is None

    @property
    def active(self) -> bool:
        """Still at the table (not left, not replaced by a newer connection)."""
        return self in self.table._members

    def subscribe(self, callback: Callable[[TableUpdate], None]) -> Callable[[], None]:
        """Send ``callback`` an update now and after every change; returns the unsubscriber."""
        return self.table._subscribe(self, callback)

    def decide(self, decision: Decision) -> None:
        """Continue or leave, for this turn; it may change until the last choice is in."""
        self.table._decide(self, decision)

    def say(self, text: str) -> ChatLine:
        """Add a line to the table's chat, under this member's name."""
        return self.table._say(self, text)

    def may_chat(self) -> None:
        """Raise :class:`ChatRejected` (saying when to try again) if a line from this
        member would be refused now for its allowance: asked before the chat box opens."""
        self.table._may_chat(self)

    def vote_rematch(self) -> None:
        """Ask for a rematch of the finished game; it starts once every person agrees."""
        self.table._vote_rematch(self)

    def start_now(self) -> None:
        """The table's creator starts the game early; computer players take free seats."""
        self.table._start_now(self)

    def wake(self) -> None:
        """This person is at the keyboard again: a computer no longer plays for them."""
        self.table._wake(self)

    def leave(self) -> None:
        """Leave the table: a waiting seat is freed, a seat in a game is played for them."""
        self.table._leave(self)


class Table:
    """Runs one game (and its rematches) for people and computer players."""

    def __init__(
        self,
        settings: TableSettings,
        *,
        creator: str | None = None,
        on_game_over: Callable[["Table"], None] | None = None,
        marks_delay: float = MARKS_DELAY,
        chat: ChatLimits = ChatLimits(),
    ) -> None:
        self.settings = settings.checked()
        self.chat_limits = chat
        self.creator = creator
        """The identity of the person who opened the table (who may start it early)."""
        self.on_game_over = on_game_over
        self.status = TableStatus.WAITING
        self.game: Game | None = None
        self.games_played = 0
        self.started: datetime | None = None
        self.ended: datetime | None = None
        self._rng = random.Random(self.settings.seed)
        self._seats = [_Seat() for _ in range(self.settings.seats)]
        first_bot = self.settings.seats - len(self.settings.bots)
        for seat, spec in enumerate(self.settings.bots, start=first_bot):
            self._seat_bot(seat, spec)
        self._members: dict[Member, Callable[[TableUpdate], None] | None] = {}
        self._votes: set[int] = set()
        self._chat: deque[ChatLine] = deque(maxlen=CHAT_KEPT)
        self._allowances = ChatAllowances(chat, self.settings.name)
        self._chat_sent = -math.inf
        self._chat_waiting = False
        """Chat lines said since the last update, waiting for the next one."""
        self._wakeup = asyncio.Event()
        self._deadline: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._marks_delay = marks_delay
        self._held: list[tuple[Member | None, Event]] = []
        """Decision marks not yet sent to everyone, each with who was sent it already."""
        self._later: asyncio.TimerHandle | None = None
        """The one update put off (held marks, gathered chat), whatever put it off."""

    # -- seats -----------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.settings.name

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(s.info(i) for i, s in enumerate(self._seats))

    @property
    def free_seats(self) -> int:
        return sum(1 for s in self._seats if s.kind is SeatKind.EMPTY)

    @property
    def people_connected(self) -> int:
        return sum(1 for s in self._seats if s.kind is SeatKind.PERSON and s.connected)

    @property
    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators, in the order they came."""
        return tuple(m.name for m in self._members if m.watching)

    @property
    def watcher_identities(self) -> tuple[str, ...]:
        """Who the spectators are (their identities), in the order they came."""
        return tuple(m.identity for m in self._members if m.watching)

    @property
    def creator_seat(self) -> int | None:
        """The seat of the person who opened the table, if they sit at it."""
        return None if self.creator is None else self.seat_of(self.creator)

    def seat_of(self, identity: str) -> int | None:
        """The seat a person with ``identity`` holds at this table, if any."""
        for i, s in enumerate(self._seats):
            if s.kind is SeatKind.PERSON and s.identity == identity:
                return i
        return None

    def sit(self, name: str, identity: str) -> Member:
        """Seat a person: the seat ``identity`` already holds (they come back, and any
        earlier member for that seat can do nothing more) or the first free one."""
        held = self.seat_of(identity)
        if held is not None:
            seat = self._seats[held]
            seat.connected, seat.away = True, False
            for old in [m for m in self._members if m.seat == held]:
                del self._members[old]
            member = Member(self, held, identity, seat.name)
            self._members[member] = None
            self._publish(())
            return member
        if self.status is not TableStatus.WAITING:
            raise TableFull(f"the game at table {self.name!r} has begun; you can watch it.")
        free = [i for i, s in enumerate(self._seats) if s.kind is SeatKind.EMPTY]
        if not free:
            raise TableFull(f"table {self.name!r} is full; you can watch it.")
        index = free[0]
        shown = distinct_name(clean_name(name), self._names_taken_from(identity))
        self._seats[index] = _Seat(shown, SeatKind.PERSON, identity=identity, connected=True)
        member = Member(self, index, identity, shown)
        self._members[member] = None
        self._publish(())
        if not self.free_seats:
            self.start()
        return member

    def watch(self, name: str, identity: str) -> Member:
        """A spectator: they see what a player in camp sees, chat marked as watching,
        and can do nothing else. Their name is their own at this table (``ann²`` when
        someone else shows as ``ann``)."""
        shown = next((m.name for m in self._members if m.watching and m.identity == identity), None)
        if shown is None:
            shown = distinct_name(clean_name(name), self._names_taken_from(identity))
        member = Member(self, None, identity, shown)
        self._members[member] = None
        self._publish(())
        return member

    def _names_taken_from(self, identity: str) -> set[str]:
        """The names others (people, computer players, spectators) show under here."""
        taken = {s.name for s in self._seats if s.kind is not SeatKind.EMPTY and s.identity != identity}
        taken |= {m.name for m in self._members if m.identity != identity}
        return taken

    def _check(self, member: Member, *, seated: bool = True) -> int | None:
        """The member's seat, if they may act: still at this table, and seated when it matters."""
        if member.table is not self or member not in self._members:
            raise NotAllowed("you are no longer at this table.")
        if seated and member.seat is None:
            raise NotAllowed("you are watching this table; only its players can do that.")
        return member.seat

    def _leave(self, member: Member) -> None:
        if member not in self._members:
            return  # left already, or a newer connection took the seat over
        del self._members[member]
        if member.seat is not None:
            seat = self._seats[member.seat]
            if self.status is TableStatus.WAITING:
                self._seats[member.seat] = _Seat()
            else:
                seat.connected = False
                self._set_away(member.seat)
            self._votes.discard(member.seat)
        self._publish(())
        self._rematch_if_agreed()

    def _wake(self, member: Member) -> None:
        seat = self._check(member, seated=False)
        if seat is None:
            return
        s = self._seats[seat]
        if s.kind is SeatKind.PERSON and s.away and s.connected:
            s.away = False
            self._publish(())

    def _set_away(self, seat: int) -> None:
        s = self._seats[seat]
        s.away = True
        if s.bot is None:
            s.bot = make_bot(STAND_IN_BOT, rng=random.Random(self._rng.random()))
            s.spec = STAND_IN_BOT
        self._wakeup.set()

    def _seat_bot(self, seat: int, spec: str) -> None:
        bot = make_bot(spec, rng=random.Random(self._rng.random()))
        name = distinct_name(BOT_NAMES[seat], {s.name for s in self._seats if s.kind is not SeatKind.EMPTY})
        self._seats[seat] = _Seat(name, SeatKind.BOT, spec, bot, connected=True)

    # -- updates -----------------------------------------------------------------

    def _subscribe(self, member: Member, callback: Callable[[TableUpdate], None]) -> Callable[[], None]:
        self._check(member, seated=False)
        self._members[member] = callback
        self._send(member, callback, (), self._shared())

        def unsubscribe() -> None:
            if self._members.get(member) is callback:
                self._members[member] = None

        return unsubscribe

    def _shared(self) -> dict:
        """What every update of one publish has in common (computed once)."""
        return dict(
            seats=self.seats,
            status=self.status,
            chat=tuple(self._chat),
            creator=self.creator_seat,
            rematch_votes=frozenset(self._votes),
            rematch_voters=frozenset(self._rematch_voters()),
            watchers=self.watchers,
        )

    def _publish(self, events: list[Event] | tuple[Event, ...], *,
                 decider: Member | None = None, mark: bool = False) -> None:
        """Send everyone their update with ``events``.

        A ``mark`` (a choice that does not end the turn, by ``decider`` or a computer
        player) goes at once to the decider only; the others get it with the next
        update, at the latest :data:`MARKS_DELAY` later (see there why).
        """
        events = tuple(events)
        if mark and self._marks_delay > 0:
            self._held.extend((decider, event) for event in events)
            callback = self._members.get(decider) if decider is not None else None
            if callback is not None:
                self._send(decider, callback, events, self._shared())
            self._publish_within(self._marks_delay)
            return
        held, self._held = self._held, []
        self._cancel_later()  # this update carries whatever was put off
        if self._chat_waiting:
            self._chat_waiting = False
            self._chat_sent = asyncio.get_running_loop().time()
        shared = self._shared()
        for member, callback in list(self._members.items()):
            if callback is not None:
                mine = tuple(event for sent_to, event in held if sent_to is not member)
                self._send(member, callback, mine + events, shared)

    def _send(self, member: Member, callback: Callable[[TableUpdate], None],
              events: tuple[Event, ...], shared: dict) -> None:
        view = self.game.view_for(member.seat) if self.game else None
        update = TableUpdate(
            view=view,
            events=events,
            deadline=self._deadline if view is not None and view.decision_due else None,
            seat=member.seat,
            may_start=(self.status is TableStatus.WAITING and member.seat is not None
                       and member.seat == shared["creator"]),
            **shared,
        )
        try:
            callback(update)
        except Exception:  # one broken listener must not stop the table
            log.exception("table %s: a subscriber failed; it is dropped", self.name)
            if self._members.get(member) is callback:
                self._members[member] = None

    # -- intents -----------------------------------------------------------------

    def _decide(self, member: Member, decision: Decision) -> None:
        seat = self._check(member)
        if self.game is None:
            raise IllegalAction("the game has not started yet.")
        events = self.game.submit(seat, decision)
        self._seats[seat].away = False
        self._publish(events, decider=member, mark=_only_a_mark(events))
        self._wakeup.set()

    def _say(self, member: Member, text: str) -> ChatLine:
        """At most 200 characters, no control characters, within the chat allowances
        (:class:`ChatLimits`): each person's, the spectators' together, the table's."""
        self._check(member, seated=False)
        line = clean_text(text, CHAT_MAX_CHARS)
        if not line:
            raise ChatRejected("an empty chat line was not sent.")
        loop = asyncio.get_running_loop()
        self._allowances.count(member.identity, member.watching, loop.time(), len(self._members))
        chat = ChatLine(member.name, line, watching=member.watching)
        self._chat.append(chat)
        self._publish_chat(loop)
        return chat

    def _may_chat(self, member: Member) -> None:
        self._check(member, seated=False)
        self._allowances.check(member.identity, member.watching, asyncio.get_running_loop().time())

    def _publish_chat(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send the chat to everyone, gathering lines said close together: each update
        costs every app at the table a redraw, however short the line."""
        if self._chat_waiting and self._later is not None:
            return  # an update is on its way already; it carries this line too
        self._chat_waiting = True
        # The more people at the table, the more an update costs: gather for longer.
        gather = self.chat_limits.gather * max(1.0, len(self._members) / CHAT_GATHER_PEOPLE)
        wait = self._chat_sent + gather - loop.time()
        if wait <= 0:
            self._publish(())
        else:
            self._publish_within(wait)

    def _publish_within(self, wait: float) -> None:
        """Send everyone an update ``wait`` seconds from now at the latest: one update put
        off carries all that was put off (marks, chat), at the earliest time any needs."""
        loop = asyncio.get_running_loop()
        when = loop.time() + wait
        if self._later is not None:
            if self._later.when() <= when:
                return
            self._later.cancel()
        self._later = loop.call_at(when, self._publish, ())

    def _cancel_later(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None

    def _start_now(self, member: Member) -> None:
        seat = self._check(member)
        if self.status is not TableStatus.WAITING:
            raise NotAllowed("the game has already begun.")
        if member.identity != self.creator:
            raise NotAllowed("only the person who opened the table can start it early.")
        assert seat is not None
        self.start()

    def _vote_rematch(self, member: Member) -> None:
        seat = self._check(member)
        if self.status is not TableStatus.FINISHED:
            raise NotAllowed("a rematch can only be asked for once the game is over.")
        assert seat is not None
        self._seats[seat].away = False  # voting is being at the keyboard
        self._votes.add(seat)
        self._publish(())
        self._rematch_if_agreed()

    def _rematch_voters(self) -> list[int]:
        """The seats whose people must agree to a rematch: connected and at the keyboard."""
        return [i for i, s in enumerate(self._seats)
                if s.kind is SeatKind.PERSON and s.connected and not s.away]

    def _rematch_if_agreed(self) -> None:
        if self.status is not TableStatus.FINISHED or not self._votes:
            return
        if all(seat in self._votes for seat in self._rematch_voters()):
            self.rematch()

    def start(self) -> None:
        """Fill empty seats with computer players and begin the game (the host's command;
        people start a table early through :meth:`Member.start_now`)."""
        if self.status is TableStatus.PLAYING:
            return
        for i, s in enumerate(self._seats):
            if s.kind is SeatKind.EMPTY:
                self._seat_bot(i, self.settings.filler)
        seed = None if self.settings.seed is None else self.settings.seed + self.games_played
        self.started, self.ended = datetime.now(timezone.utc), None
        self.game = Game(
            GameConfig(
                tuple(s.name for s in self._seats),
                self.settings.rules,
                chests_hidden=self.settings.hidden_chests,
            ),
            seed=seed,
        )
        self.status = TableStatus.PLAYING
        self._votes.clear()
        self._publish(tuple(self.game.events))
        self._task = asyncio.get_running_loop().create_task(self._play(), name=f"table {self.name}")

    def rematch(self) -> None:
        """Play again at the same table with the same seats (once the people agree)."""
        if self.status is not TableStatus.FINISHED:
            raise TableError("a rematch can only start once the game is over.")
        self.games_played += 1
        self.start()

    async def close(self) -> None:
        """Stop the game task; nobody at the table gets anything more."""
        self._members.clear()
        self._cancel_later()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    def record(self) -> dict:
        """The current game as a ``diamant-record/1`` dict (finished or not)."""
        from ..engine.record import PERSON, game_to_record, record_meta

        if self.game is None:
            raise TableError("no game has started at this table.")
        seed = self.settings.seed
        meta = record_meta(
            table=self.name, started=self.started, ended=self.ended,
            seats={s.name: PERSON if s.kind is SeatKind.PERSON else str(s.spec) for s in self._seats},
            seed=None if seed is None else seed + self.games_played,
        )
        return game_to_record(self.game, meta)

    # -- the game loop -------------------------------------------------------------

    async def _play(self) -> None:
        game = self.game
        assert game is not None
        pace = self.settings.pace
        try:
            while not game.over:
                if game.phase is Phase.ROUND_OVER:
                    await asyncio.sleep(pace * ROUND_PAUSE)
                    self._publish(game.start_next_round())
                if game.phase is Phase.REVEAL:
                    events = game.reveal_random()
                    # The card and the turn it opens (with its timer) in one update.
                    self._start_clock(game)
                    self._publish(events)
                if game.phase is Phase.DECISION:
                    await self._decision_turn(game)
                await asyncio.sleep(pace)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the game stopped on an error", self.name)
            return
        self.status = TableStatus.FINISHED
        self.ended = datetime.now(timezone.utc)
        self._publish(())
        if self.on_game_over is not None:
            try:
                self.on_game_over(self)
            except Exception:
                log.exception("table %s: saving the finished game failed", self.name)

    def _start_clock(self, game: Game) -> None:
        """Set the turn's deadline (if the table has a timer) as a turn begins."""
        timer = self.settings.timer
        due = game.phase is Phase.DECISION and timer
        self._deadline = asyncio.get_running_loop().time() + timer if due else None

    async def _decision_turn(self, game: Game) -> None:
        turn = (game.round, game.step)
        loop = asyncio.get_running_loop()
        self._wakeup.clear()
        if self._deadline is None and self.settings.timer:
            self._start_clock(game)  # a turn not opened by a reveal here (none today)
            self._publish(())
        while game.phase is Phase.DECISION and (game.round, game.step) == turn:
            await self._computers_decide(game, turn)
            if game.phase is not Phase.DECISION or (game.round, game.step) != turn:
                break
            timeout = None if self._deadline is None else max(0.0, self._deadline - loop.time())
            try:
                await asyncio.wait_for(self._wakeup.wait(), timeout)
            except TimeoutError:
                self._time_out(game)
            self._wakeup.clear()
        self._deadline = None

    def _time_out(self, game: Game) -> None:
        """The timer ran out: stand-in computer players decide at once for late people.

        Deciding here, not on the next pass of the loop, means a key pressed just after
        the deadline cannot leave the turn waiting on a seat that is no longer timed.
        """
        self._deadline = None
        late = [
            seat
            for seat in game.players_in_cave
            if seat not in game.pending and self._seats[seat].kind is SeatKind.PERSON
        ]
        for seat in late:
            self._set_away(seat)
        self._publish(())
        for seat in late:
            if game.phase is not Phase.DECISION or seat not in game.players_in_cave:
                break
            bot = self._seats[seat].bot
            assert bot is not None
            events = game.submit(seat, bot.decide(game.view_for(seat)))
            self._publish(events, mark=_only_a_mark(events))

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
            done, _ = await asyncio.wait({thinking}, timeout=BOT_TIME_LIMIT)
            decision, problem = None, f"took more than {BOT_TIME_LIMIT:g} s"
            if done:
                try:
                    answer = thinking.result()
                    decision = as_decision(answer)
                    problem = None if decision is not None else f"answered {answer!r}"
                except Exception as exc:
                    problem = f"raised {type(exc).__name__}: {exc}"
            if problem is not None:
                # A stand-in plays this one decision; the player keeps its seat.
                stand_in = make_bot(STAND_IN_BOT, rng=random.Random(self._rng.random()))
                decision = stand_in.decide(view)
                log.warning("table %s: computer player %s %s (round %d, card %d); %s "
                            "decided for it", self.name, s.spec, problem, view.round,
                            view.step, STAND_IN_BOT)
            if (game.round, game.step) != turn or game.phase is not Phase.DECISION:
                return
            if seat in game.players_in_cave and seat not in game.pending:
                events = game.submit(seat, decision)
                self._publish(events, mark=_only_a_mark(events))


def _only_a_mark(events: list[Event]) -> bool:
    """Whether ``events`` only say that someone decided (the turn goes on)."""
    return all(isinstance(event, DecisionMade) for event in events)


__all__ = [
    "ChatLimits",
    "ChatLine",
    "ChatRejected",
    "Member",
    "NAME_MAX_CHARS",
    "NotAllowed",
    "SeatInfo",
    "SeatKind",
    "Table",
    "TableError",
    "TableFull",
    "TableSettings",
    "TableStatus",
    "TableUpdate",
    "clean_text",
]
