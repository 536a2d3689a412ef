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

The package, one concern a module; the table owns one of each part and is the only way in:

- ``table``: :class:`Table` and :class:`Member`, every intent checked and passed on;
- ``state``: all a table would save to be rebuilt (game, seats, votes), in one place;
- ``seats``: who sits where, the members at the table, who may act, computer seats;
- ``play``: the game loop, the turn's timer and the computer players deciding;
- ``clock``: the turn's deadline, read by the game loop and by every update;
- ``updates``: what goes out to the members and when (held marks, gathered chat);
- ``chat``: the lines kept and each person's, the spectators' and the table's allowance;
- ``info``: the plain data that crosses to the people at a table (settings, updates).
"""

from __future__ import annotations

from ..names import NAME_MAX_CHARS, clean_text
from .chat import CHAT_BURST, CHAT_KEPT, CHAT_MAX_CHARS, CHAT_WINDOW
from .info import (
    PACE_MOST,
    STAND_IN_BOT,
    TIMER_MOST,
    ChatLimits,
    ChatLine,
    ChatRejected,
    ComputerPlayerFailed,
    Hurried,
    NotAllowed,
    NotAtTable,
    NotNow,
    NotTheCreator,
    OnlyPlayers,
    SeatGivenToComputer,
    SeatInfo,
    SeatKind,
    TableError,
    TableEvent,
    TableFull,
    TableSettings,
    TableStatus,
    TableUpdate,
    TimeRanOut,
)
from .clock import HURRY_AFTER, HURRY_TIME
from .play import BOT_TIME_LIMIT, ROUND_PAUSE
from .seats import BOT_NAMES
from .table import Member, Table
from .updates import CARD_GRACE, CHAT_GATHER_PEOPLE, MARKS_DELAY

__all__ = [
    "BOT_NAMES",
    "BOT_TIME_LIMIT",
    "CARD_GRACE",
    "CHAT_BURST",
    "CHAT_GATHER_PEOPLE",
    "CHAT_KEPT",
    "CHAT_MAX_CHARS",
    "CHAT_WINDOW",
    "ChatLimits",
    "ChatLine",
    "ChatRejected",
    "ComputerPlayerFailed",
    "HURRY_AFTER",
    "HURRY_TIME",
    "Hurried",
    "MARKS_DELAY",
    "Member",
    "NAME_MAX_CHARS",
    "NotAllowed",
    "NotAtTable",
    "NotNow",
    "NotTheCreator",
    "OnlyPlayers",
    "PACE_MOST",
    "ROUND_PAUSE",
    "STAND_IN_BOT",
    "SeatGivenToComputer",
    "SeatInfo",
    "SeatKind",
    "TIMER_MOST",
    "Table",
    "TableError",
    "TableEvent",
    "TableFull",
    "TableSettings",
    "TableStatus",
    "TableUpdate",
    "TimeRanOut",
    "clean_text",
]
