"""The table: an asyncio coordinator that runs one game for its seats.

A :class:`Table` owns an engine :class:`~diamant_tui.engine.Game`. Its seats are people
(an interface in a terminal, local or over SSH) or computer players. It collects every
decision of a turn, runs the optional decision timer, paces the reveals so people can
follow them, and publishes to every subscriber (players and spectators) their own
:class:`~diamant_tui.view.PlayerView` and the new events, as a :class:`TableUpdate`.

Interfaces never touch the game: they call :meth:`Table.submit`, :meth:`Table.say`,
:meth:`Table.wake` and render what they are sent. No Textual imports here.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import logging
import random
import unicodedata
from collections import deque
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Callable

from .bots import Bot, make_bot
from .cards import Rules
from .engine import MAX_PLAYERS, MIN_PLAYERS, Game
from .errors import DiamantError, GameSetupError, IllegalAction
from .events import Event
from .view import Decision, Phase, PlayerView

log = logging.getLogger(__name__)

BOT_NAMES = ("Ana", "Bruno", "Chiara", "Dmytro", "Elena", "Farid", "Greta", "Hugo")
"""Names given to computer seats, in seat order of filling."""
STAND_IN_BOT = "ev"
"""Plays for a person who is away (timer ran out or connection dropped)."""
CHAT_MAX_CHARS = 200
CHAT_BURST = 5
CHAT_WINDOW = 10.0
CHAT_KEPT = 50
NAME_MAX_CHARS = 16
ROUND_PAUSE = 6
"""The pause after a round ends, in multiples of the pace, so its summary can be read."""


class TableError(DiamantError):
    """Something a person asked of a table that it cannot do; the message says why."""


class TableFull(TableError):
    """Every seat is taken (or the game has begun without a free seat)."""


class ChatRejected(TableError):
    """A chat line that is empty or sent too fast."""


class SeatKind(str, enum.Enum):
    """Who sits in a seat."""

    PERSON = "person"
    BOT = "bot"
    EMPTY = "empty"


class TableStatus(str, enum.Enum):
    """Where the table is in its life."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True)
class SeatInfo:
    """One seat as everyone sees it."""

    seat: int
    name: str
    kind: SeatKind
    bot: str | None
    """The computer player's spec for a computer seat."""
    away: bool
    """A person's seat played by a computer for now."""
    connected: bool


@dataclass(frozen=True)
class ChatLine:
    """One line of table chat."""

    author: str
    text: str


@dataclass(frozen=True)
class TableSettings:
    """How a table is set up. ``bots`` are the specs of the computer seats."""

    name: str = "table"
    rules: Rules = Rules.CLASSIC
    seats: int = 4
    bots: tuple[str, ...] = ("ev",)
    timer: float | None = None
    """Seconds a person has to decide; None for no timer."""
    hidden_chests: bool = False
    seed: int | None = None
    pace: float = 0.7
    """Seconds between reveal steps."""

    def checked(self) -> "TableSettings":
        """These settings with the rule set parsed; raises GameSetupError when impossible."""
        rules = Rules.parse(self.rules)
        if not MIN_PLAYERS <= self.seats <= MAX_PLAYERS:
            raise GameSetupError(
                f"{self.seats} seats: a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats."
            )
        if len(self.bots) > self.seats:
            raise GameSetupError(f"{len(self.bots)} computer players for {self.seats} seats.")
        for spec in self.bots:
            make_bot(spec)  # raises BotSpecError with a clear message
        if self.timer is not None and self.timer <= 0:
            raise GameSetupError("the decision timer must be a positive number of seconds.")
        return replace(self, rules=rules, bots=tuple(self.bots))


@dataclass(frozen=True)
class TableUpdate:
    """What one subscriber is sent after every change."""

    view: PlayerView | None
    """The subscriber's own view (None before the game starts)."""
    events: tuple[Event, ...]
    """Events since the previous update, to show one by one."""
    seats: tuple[SeatInfo, ...]
    status: TableStatus
    chat: tuple[ChatLine, ...]
    deadline: float | None = None
    """Event-loop time at which this seat's decision timer runs out."""


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


@dataclass
class _Subscriber:
    seat: int | None
    callback: Callable[[TableUpdate], None]


def clean_text(text: str, limit: int) -> str:
    """``text`` without control characters, whitespace collapsed, cut to ``limit`` characters."""
    kept = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in str(text))
    return " ".join(kept.split())[:limit]


class Table:
    """Runs one game (and its rematches) for people and computer players."""

    def __init__(
        self,
        settings: TableSettings,
        *,
        creator: str | None = None,
        on_game_over: Callable[["Table"], None] | None = None,
    ) -> None:
        self.settings = settings.checked()
        self.creator = creator
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
        self._subscribers: dict[int, _Subscriber] = {}
        self._tokens = itertools.count()
        self._chat: deque[ChatLine] = deque(maxlen=CHAT_KEPT)
        self._chat_times: dict[str, deque[float]] = {}
        self._wakeup = asyncio.Event()
        self._deadline: float | None = None
        self._task: asyncio.Task[None] | None = None

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

    def seat_of(self, identity: str) -> int | None:
        """The seat a person with ``identity`` holds at this table, if any."""
        for i, s in enumerate(self._seats):
            if s.kind is SeatKind.PERSON and s.identity == identity:
                return i
        return None

    def join(self, name: str, identity: str) -> int:
        """Seat a person: the seat ``identity`` already holds (reconnect) or a free one."""
        held = self.seat_of(identity)
        if held is not None:
            seat = self._seats[held]
            seat.connected, seat.away = True, False
            self._publish(())
            return held
        if self.status is not TableStatus.WAITING:
            raise TableFull(f"the game at table {self.name!r} has begun; you can watch it.")
        free = [i for i, s in enumerate(self._seats) if s.kind is SeatKind.EMPTY]
        if not free:
            raise TableFull(f"table {self.name!r} is full; you can watch it.")
        seat = free[0]
        self._seats[seat] = _Seat(
            self._unique_name(clean_text(name, NAME_MAX_CHARS) or "player"),
            SeatKind.PERSON,
            identity=identity,
            connected=True,
        )
        self._publish(())
        if not self.free_seats:
            self.start()
        return seat

    def disconnect(self, seat: int) -> None:
        """The person in ``seat`` is gone: a waiting seat is freed, a playing one goes "away"."""
        s = self._seats[seat]
        if s.kind is not SeatKind.PERSON:
            return
        if self.status is TableStatus.WAITING:
            self._seats[seat] = _Seat()
        else:
            s.connected = False
            self._set_away(seat)
        self._publish(())

    def wake(self, seat: int) -> None:
        """The person in ``seat`` is at the keyboard again: no longer "away"."""
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
        self._seats[seat] = _Seat(self._unique_name(BOT_NAMES[seat]), SeatKind.BOT, spec, bot, connected=True)

    def _unique_name(self, name: str) -> str:
        taken = {s.name for s in self._seats if s.kind is not SeatKind.EMPTY}
        if name not in taken:
            return name
        for n in itertools.count(2):
            candidate = f"{name[: NAME_MAX_CHARS - len(str(n))]}{n}"
            if candidate not in taken:
                return candidate
        raise AssertionError("unreachable")

    # -- subscribers -------------------------------------------------------------

    def subscribe(self, seat: int | None, callback: Callable[[TableUpdate], None]) -> Callable[[], None]:
        """Send ``callback`` an update now and after every change; returns the unsubscriber.

        ``seat`` None subscribes a spectator, who sees what a player in camp sees.
        """
        token = next(self._tokens)
        self._subscribers[token] = _Subscriber(seat, callback)
        self._send(self._subscribers[token], (), self.seats, tuple(self._chat))
        return lambda: self._subscribers.pop(token, None) and None

    def _publish(self, events: list[Event] | tuple[Event, ...]) -> None:
        events = tuple(events)
        seats, chat = self.seats, tuple(self._chat)  # the same for every subscriber
        for sub in list(self._subscribers.values()):
            self._send(sub, events, seats, chat)

    def _send(
        self,
        sub: _Subscriber,
        events: tuple[Event, ...],
        seats: tuple[SeatInfo, ...],
        chat: tuple[ChatLine, ...],
    ) -> None:
        view = self.game.view_for(sub.seat) if self.game else None
        update = TableUpdate(
            view=view,
            events=events,
            seats=seats,
            status=self.status,
            chat=chat,
            deadline=self._deadline if view is not None and view.decision_due else None,
        )
        try:
            sub.callback(update)
        except Exception:  # one broken listener must not stop the table
            log.exception("table %s: a subscriber failed; it is dropped", self.name)
            for token, other in list(self._subscribers.items()):
                if other is sub:
                    del self._subscribers[token]

    # -- intents -----------------------------------------------------------------

    def submit(self, seat: int, decision: Decision) -> None:
        """A person's choice for this turn; it may change until the last choice is in."""
        if self.game is None:
            raise IllegalAction("the game has not started yet.")
        if not 0 <= seat < len(self._seats) or self._seats[seat].kind is not SeatKind.PERSON:
            raise IllegalAction(f"seat {seat} is not a person's seat.")
        events = self.game.submit(seat, decision)
        self._seats[seat].away = False
        self._publish(events)
        self._wakeup.set()

    def say(self, author: str, text: str) -> ChatLine:
        """Add a chat line: at most 200 characters, no control characters, 5 lines per 10 s."""
        line = clean_text(text, CHAT_MAX_CHARS)
        if not line:
            raise ChatRejected("an empty chat line was not sent.")
        now = asyncio.get_running_loop().time()
        times = self._chat_times.setdefault(author, deque())
        while times and now - times[0] > CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_BURST:
            raise ChatRejected(
                f"slow down: at most {CHAT_BURST} lines every {CHAT_WINDOW:g} seconds."
            )
        times.append(now)
        chat = ChatLine(clean_text(author, NAME_MAX_CHARS), line)
        self._chat.append(chat)
        self._publish(())
        return chat

    def start(self) -> None:
        """Fill empty seats with computer players and begin the game."""
        if self.status is TableStatus.PLAYING:
            return
        for i, s in enumerate(self._seats):
            if s.kind is SeatKind.EMPTY:
                self._seat_bot(i, self.settings.bots[0] if self.settings.bots else STAND_IN_BOT)
        seed = None if self.settings.seed is None else self.settings.seed + self.games_played
        self.started, self.ended = datetime.now(timezone.utc), None
        self.game = Game(
            [s.name for s in self._seats],
            self.settings.rules,
            seed=seed,
            chests_hidden=self.settings.hidden_chests,
        )
        self.status = TableStatus.PLAYING
        self._publish(tuple(self.game.events))
        self._task = asyncio.get_running_loop().create_task(self._play(), name=f"table {self.name}")

    def rematch(self) -> None:
        """Play again at the same table with the same seats."""
        if self.status is not TableStatus.FINISHED:
            raise TableError("a rematch can only start once the game is over.")
        self.games_played += 1
        self.start()

    async def close(self) -> None:
        """Stop the game task; subscribers get nothing more."""
        self._subscribers.clear()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    def record(self) -> dict:
        """The current game as a ``diamant-record/1`` dict (finished or not)."""
        from .record import PERSON, game_to_record, record_meta

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
                    self._publish(game.reveal())
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

    async def _decision_turn(self, game: Game) -> None:
        turn = (game.round, game.step)
        loop = asyncio.get_running_loop()
        self._deadline = loop.time() + self.settings.timer if self.settings.timer else None
        self._wakeup.clear()
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
            self._publish(game.submit(seat, bot.decide(game.view_for(seat))))

    async def _computers_decide(self, game: Game, turn: tuple[int, int]) -> None:
        loop = asyncio.get_running_loop()
        for seat in game.players_in_cave:
            s = self._seats[seat]
            if seat in game.pending or not s.played_by_computer or s.bot is None:
                continue
            view = game.view_for(seat)
            try:
                # A strong computer player may think for a while: keep the loop free.
                decision = await loop.run_in_executor(None, s.bot.decide, view)
            except Exception:
                log.exception("table %s: computer player %s failed; it leaves", self.name, s.spec)
                decision = Decision.LEAVE
            if (game.round, game.step) != turn or game.phase is not Phase.DECISION:
                return
            if seat in game.players_in_cave and seat not in game.pending:
                self._publish(game.submit(seat, decision))


__all__ = [
    "ChatLine",
    "ChatRejected",
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
