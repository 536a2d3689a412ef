"""What a table is at one moment: all it would need to save to be rebuilt after a crash.

Kept together on purpose. The game (and in it the decisions made this turn,
``Game.pending``), where the table is in its life, who sits in which seat (and who is
away or gone), who opened the table, the rematch votes and what the table told as the
game began (who took whose seat): that, with the table's
settings, is a table. What is not here belongs to the running process and is made anew: the members
(people's connections, who come back through :meth:`~diamant_tui.table.Table.sit`), the
turn clock, the updates put off, the chat and its allowances.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..bots import Bot
from ..engine.game import Game
from .info import SeatInfo, SeatKind, TableEvent, TableStatus


@dataclass
class Seat:
    """One seat: who sits in it, and whether a computer plays for them now."""

    name: str = ""
    kind: SeatKind = SeatKind.EMPTY
    spec: str | None = None
    """The computer player's spec: a computer seat's, or the stand-in of an away person."""
    bot: Bot | None = None
    """That computer player (made again from ``spec`` and ``bot_seed`` when a table is
    rebuilt)."""
    bot_seed: float | None = None
    """The seed its random choices were drawn with."""
    identity: str | None = None
    """Who the person in this seat is (never their name: names can look alike)."""
    away: bool = False
    connected: bool = False
    stand_in_chose: tuple[int, int] | None = None
    """The turn (round, card) whose choice a computer made for this seat's person while
    they were away: their screen says who chose, until they choose themselves."""

    def info(self, seat: int) -> SeatInfo:
        """This seat as everyone sees it."""
        return SeatInfo(seat, self.name, self.kind, self.spec, self.away, self.connected)

    @property
    def played_by_computer(self) -> bool:
        """A computer seat, or a person's seat a computer plays for now."""
        return self.kind is SeatKind.BOT or self.away


@dataclass
class TableState:
    """The table's game, its seats and the rematch votes (see the module's docstring)."""

    seats: list[Seat]
    creator: str | None = None
    """The identity of the person who opened the table (who may start it early)."""
    status: TableStatus = TableStatus.WAITING
    game: Game | None = None
    games_played: int = 0
    """The rematches begun: games this table played before the current one."""
    started: datetime | None = None
    ended: datetime | None = None
    votes: set[int] = field(default_factory=set)
    """Seats whose people have asked for a rematch of the finished game."""
    told_at_start: tuple[TableEvent, ...] = ()
    """What the table itself told as the current game began, before the game's own
    events (at a rematch, who took whose seat): told again to whoever arrives during
    the game, as the round so far is."""
    failures_told: tuple[TableEvent, ...] = ()
    """The computer players' failures told during the current game (one per seat at
    most): told again, in the log, to whoever arrives later in the game."""
