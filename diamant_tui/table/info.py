"""What a table tells the people at it, and how it is set up: plain data, no behaviour.

These are the only things that cross between a :class:`~diamant_tui.table.Table` and the
people at it (with the engine's views and events), so they are frozen and small: one day a
table and its seats may live in different processes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from ..bots import make_bot
from ..engine.cards import Rules
from ..engine.game import MAX_PLAYERS, MIN_PLAYERS
from ..engine.errors import DiamantError, GameSetupError
from ..engine.events import Event
from ..engine.view import PlayerView

STAND_IN_BOT = "ev"
"""Plays for a person who is away (timer ran out or connection dropped)."""
TIMER_MOST = 600.0
"""Most seconds a decision timer gives: ten minutes is already longer than anyone at a
table waits, and the countdown's corner shows at most three digits."""
PACE_MOST = 10.0
"""Most seconds of pace from one card to the next: a round's end pauses six times as
long, a minute already."""


class TableError(DiamantError):
    """Something a person asked of a table that it cannot do; the message says why."""


class TableFull(TableError):
    """Every seat is taken (or the game has begun without a free seat)."""


class ChatRejected(TableError):
    """A chat line that is empty, sent too fast, or refused by whoever hands the table
    its lines (a server's host muted its person).

    ``key`` and ``fmt`` name its text in the catalogues when there is one, so each
    person reads it in their own language (:meth:`text`); ``str()`` is the English text.
    ``line_kept``: the line itself is fine, only not sent now (over an allowance, its
    person muted), so the screen keeps it in the box rather than dropping what was typed.
    """

    def __init__(self, message: str, key: str | None = None, *, line_kept: bool = False,
                 **fmt: object) -> None:
        super().__init__(message)
        self.key, self.fmt, self.line_kept = key, fmt, line_kept

    def text(self, t) -> str:
        """The message in the language of ``t`` (a translator)."""
        return t(self.key, **self.fmt) if self.key else str(self)


class NotAllowed(TableError):
    """The one who asked may not do this at this table (a spectator deciding, someone
    other than the table's creator starting it, a seat given up or taken over)."""


# Each kind of refusal has a class of its own: the interface tells people why in their
# language by its class (``ui/refusals.py``); the message stays English, for the log.


class NotAtTable(NotAllowed):
    """The member is no longer at the table: they left, or a newer connection of theirs
    took the seat over."""


class OnlyPlayers(NotAllowed):
    """A spectator asked for what only the table's players may do."""


class NotTheCreator(NotAllowed):
    """Someone other than the person who opened the table asked to start it early."""


class NotNow(NotAllowed):
    """Asked at a moment of the table's life that does not allow it: a choice before the
    game starts, starting a game already begun, a rematch before the game is over."""


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
class SeatGivenToComputer:
    """A rematch begins without the person who sat in ``seat``: they left the table (or
    lost their connection) after the last game, and the computer player ``computer``
    takes their seat. An event of the table, not of the game: it goes out with the
    rematch's first events, and is told again, before the round so far, to whoever
    arrives during that game (:attr:`TableUpdate.earlier`)."""

    seat: int
    person: str
    """The name the person who left showed under."""
    computer: str
    """The name of the computer player that plays the seat now."""


@dataclass(frozen=True)
class ComputerPlayerFailed:
    """The computer player in ``seat`` failed to decide, and a stand-in (``stand_in``)
    decided for it this once, as it will each time it fails. An event of the table, not
    of the game, told once for each player that fails: whoever brought their own
    computer player reads that it failed, and how, in the game's log."""

    seat: int
    player: str
    """The computer player's name as it was asked for (``mybots.py:Cautious``, ``ev``)."""
    kind: str
    """How it failed: ``raised`` (``detail``: the exception), ``answered`` (``detail``: the
    answer that is neither continue nor leave) or ``slow`` (``detail``: the seconds it had)."""
    detail: str
    stand_in: str


@dataclass(frozen=True)
class Hurried:
    """The person in ``seat``, done with this turn, hurried the people who had not
    decided yet (``late``) at a table without a timer: they have ``seconds`` left, after
    which a stand-in decides for each of them, as when a timer runs out. An event of the
    table, not of the game (:meth:`~diamant_tui.table.Member.hurry`)."""

    seat: int
    late: tuple[int, ...]
    seconds: float
    rematch: bool = False
    """Those hurried had not answered the rematch's question: once their time is up the
    rematch starts, a computer playing for them until they are back."""


@dataclass(frozen=True)
class TimeRanOut:
    """The turn's time ran out (the table's timer, or the seconds a hurry gave) for the
    people in ``late``: a stand-in decides for each of them now. Said to the whole table,
    them included: their choice is read with the others' as the next card comes, and
    without this nothing but a seat shown away told that it was not theirs."""

    late: tuple[int, ...]


TableEvent = Event | SeatGivenToComputer | ComputerPlayerFailed | Hurried | TimeRanOut
"""What a table tells of what happened: the game's events, and its own."""


@dataclass(frozen=True)
class ChatLine:
    """One line of table chat; ``watching`` marks a spectator's line."""

    author: str
    text: str
    watching: bool = False


@dataclass(frozen=True)
class ChatLimits:
    """How many chat lines a table takes in every ``window`` seconds.

    Every line reaches every app at the table, so the whole table's chat is bounded
    (``table``), not only each person's (``person``, counted per identity, never per
    name); spectators together get a smaller share (``watchers``), so a crowd watching
    cannot drown the players' chat. Lines arriving close together reach the table's
    members together, at most once every ``gather`` seconds.
    """

    person: int = 5
    watchers: int = 10
    table: int = 20
    window: float = 10.0
    gather: float = 0.5


@dataclass(frozen=True)
class TableSettings:
    """How a table is set up.

    ``bots`` are the computer players seated from the start (in the last seats); the other
    seats wait for people. ``filler`` is the computer player that takes the seats still
    free when the table's creator starts the game early.
    """

    name: str = "table"
    rules: Rules = Rules.CLASSIC
    seats: int = 4
    bots: tuple[str, ...] = ()
    timer: float | None = None
    """Seconds a person has to decide; None for no timer."""
    hidden_chests: bool = False
    seed: int | None = None
    pace: float = 0.7
    """The least seconds from one card to the next (a turn that takes longer is followed
    by its card at once); a round's end pauses six times as long."""
    filler: str = STAND_IN_BOT

    def checked(self) -> "TableSettings":
        """These settings with the rule set parsed; raises GameSetupError when impossible."""
        rules = Rules.parse(self.rules)
        if not MIN_PLAYERS <= self.seats <= MAX_PLAYERS:
            raise GameSetupError(
                f"{self.seats} seats: a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats."
            )
        if len(self.bots) > self.seats:
            raise GameSetupError(f"{len(self.bots)} computer players for {self.seats} seats.")
        for spec in (*self.bots, self.filler):
            make_bot(spec)  # raises BotSpecError with a clear message
        if self.timer is not None and not 0 < self.timer <= TIMER_MOST:
            raise GameSetupError(f"the decision timer must be more than 0 and at most "
                                 f"{TIMER_MOST:g} seconds, not {self.timer:g}.")
        if not 0 <= self.pace <= PACE_MOST:
            raise GameSetupError(f"the pace must be 0 to {PACE_MOST:g} seconds from one card "
                                 f"to the next, not {self.pace:g}.")
        return replace(self, rules=rules, bots=tuple(self.bots))


@dataclass(frozen=True)
class TableUpdate:
    """What one person at the table (a seat or a spectator) is sent after every change."""

    view: PlayerView | None
    """Their own view (None before the game starts)."""
    events: tuple[TableEvent, ...]
    """Events since the previous update, to show one by one."""
    seats: tuple[SeatInfo, ...]
    status: TableStatus
    chat: tuple[ChatLine, ...]
    deadline: float | None = None
    """Event-loop time at which this seat's decision timer runs out."""
    seat: int | None = None
    """The seat this update is for; None for a spectator."""
    creator: int | None = None
    """The seat of the person who opened the table, if they sit at it."""
    starter: int | None = None
    """The seat of the person who may start the waiting game early: the creator's, or,
    once the creator has left the table, the first seat a person holds."""
    may_start: bool = False
    """This person may start the waiting game now (computer players fill the free seats)."""
    rematch_votes: frozenset[int] = frozenset()
    """Seats whose people have asked for a rematch of the finished game."""
    rematch_voters: frozenset[int] = frozenset()
    """Seats whose people must agree before a rematch starts (connected, at the keyboard)."""
    departed_seats: tuple[int, ...] = ()
    """At the final scores, the seats whose people have left the table, neither awaited
    nor having asked for the rematch: a spectator may take one for it (the table's
    :attr:`~diamant_tui.table.Table.departed_seats`)."""
    watchers: tuple[str, ...] = ()
    """The names of the spectators, in the order they came."""
    chosen_by_computer: bool = False
    """This seat's choice for the turn was made by a computer while its person was away."""
    hurry_late: tuple[int, ...] = ()
    """The seats of the people the turn has waited on for long enough, at a table without
    a timer, that those done with it may hurry them (:attr:`may_hurry`); at the final
    scores, of those whose answer to a rematch asked for has been waited on as long."""
    earlier: tuple[TableEvent, ...] = ()
    """In a member's first update only: the game's events of the round so far (of the
    round under way, or of the one just ended), which their view already shows, to tell
    them as they were told to those who saw them happen; first, what the table told as
    the game began (:class:`SeatGivenToComputer`, at a rematch). The table rebuilds the
    game's events from its game, so a person back after a restart reads the round as it
    was."""

    @property
    def watching(self) -> bool:
        """This update is for a spectator."""
        return self.seat is None

    @property
    def may_hurry(self) -> bool:
        """This person may hurry the late (:meth:`~diamant_tui.table.Member.hurry`): a
        player done with the turn, which waits on others; at the final scores, one who
        asked for a rematch, which waits on others' answers."""
        if self.seat is None or not self.hurry_late or self.seat in self.hurry_late:
            return False
        return self.status is not TableStatus.FINISHED or self.seat in self.rematch_votes

    @property
    def people_awaited(self) -> int:
        """Seats still waiting for a person before the game can start."""
        return sum(1 for s in self.seats if s.kind is SeatKind.EMPTY)


__all__ = [
    "ChatLine",
    "ChatLimits",
    "ChatRejected",
    "ComputerPlayerFailed",
    "Hurried",
    "NotAllowed",
    "NotAtTable",
    "NotNow",
    "NotTheCreator",
    "OnlyPlayers",
    "STAND_IN_BOT",
    "SeatGivenToComputer",
    "SeatInfo",
    "SeatKind",
    "TableError",
    "TableEvent",
    "TableFull",
    "TableSettings",
    "TableStatus",
    "TableUpdate",
    "TimeRanOut",
]
