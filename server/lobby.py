"""The server's tables: who sits where, guest resume codes, and the games they keep.

One :class:`Lobby` per server. Every connection asks it for tables by name; a person whose
connection dropped finds their seat again here by identity (a key fingerprint, or a guest
identity looked up by its resume code). Every game that ends, and every game in progress
when the server stops, is kept in the server's database (:mod:`.storage`), with who sat
in each seat and, once it has ended, the places that change the ratings.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Awaitable, Callable

from diamant_tui.engine.errors import DiamantError
from diamant_tui.i18n import Translator
from diamant_tui.names import look_alike_key
from diamant_tui.table import ChatLimits, Member, SeatKind, Table, TableSettings, TableStatus
from diamant_tui.table.journal import Save, SaveChoices
from diamant_tui.table.snapshot import SnapshotError
from diamant_tui.ui.setup_choices import default_level, levels

from .config import ServerConfig
from .console import tell_host
from .eventlog import SessionLog
from .identity import Identity, person_of
from .logtext import WarningLimiter, loggable
from .presence import Here
from .ratings import places_from_scores
from .storage import Kept, Sitter, Storage, StorageError

log = logging.getLogger(__name__)
TableHook = Callable[[str, Table], None]
"""Told of a table's life: ``opened``, ``started`` (a game), ``ended`` (a game), ``closed``."""

TABLE_NAME = re.compile(r"[\w.-]{1,20}")
"""Table names: letters, digits, ``_``, ``.`` and ``-``, at most 20 characters."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read and type
_DEFAULTS = ServerConfig()
FREE_NAME = "cave-{n}"
"""The names offered for a new table when its creator types none."""
FREE_NAME_PATTERN = re.compile(r"cave-[1-9][0-9]*")
"""The names :data:`FREE_NAME` gives, and only those (the server's words, not a person's)."""
KEEP_RETRY = 30.0
"""Seconds between two tries at keeping a game the database could not take (a full or
failing disk): it is kept once there is room, not lost with the server running on."""
DEFAULT_SEATS = 4
"""The seats of a new table set up no further: the lobby's form offers them first, and
"play now" opens its tables with them."""

_ENGLISH = Translator("en")
REFUSAL_LOG_INTERVAL = 60.0
"""Seconds between two log lines about one person's same refused request."""


def _log_for(session: str | None) -> logging.Logger | SessionLog:
    """The lobby's log for what ``session`` asked (its id on every line), if any."""
    return log if session is None else SessionLog(log, session)


class LobbyError(ValueError):
    """A request the lobby cannot grant.

    ``key`` and ``fmt`` name its text in the catalogues, so each person reads it in
    their own language (:meth:`text`); ``str()`` gives the English text, for the log.
    """

    def __init__(self, key: str, **fmt: object) -> None:
        self.key, self.fmt = key, fmt
        super().__init__(_ENGLISH(key, **fmt))

    def text(self, t) -> str:
        """The message in the language of ``t`` (an app's translator)."""
        return t(self.key, **self.fmt)


def default_bot() -> str:
    """The computer player seated by ``play NAME --bots K``: the setup screen's default."""
    return levels()[default_level()]


def check_table_name(name: str) -> str:
    """``name`` if it can name a table, else a :class:`LobbyError` saying what is allowed."""
    if not TABLE_NAME.fullmatch(name or ""):
        raise LobbyError("lobby.error.name", name=repr(name[:30]))
    return name


_DIGITS = re.compile(r"(\d+)")


def listed_order(name: str) -> tuple[tuple[int, str, int], ...]:
    """The key that lists table names as a person counts them: ``cave-2`` before
    ``cave-10`` (the names play now gives), ``alpha`` before ``Beta``, whatever the case."""
    return tuple((0, part, 0) if n % 2 == 0 else (1, "", int(part))
                 for n, part in enumerate(_DIGITS.split(name.casefold())))


@dataclass(frozen=True)
class TableSummary:
    """One line of the lobby's list of tables."""

    name: str
    rules: str
    seats: int
    people: int
    computers: int
    free: int
    timer: float | None
    status: TableStatus
    private: bool = False
    """Listed only to its own people and to admins (see :meth:`Lobby.summaries`)."""


class Lobby:
    """Every table on the server, and where each person sits."""

    def __init__(self, data_dir: Path, *, pace: float = _DEFAULTS.pace,
                 max_tables: int = _DEFAULTS.max_tables,
                 max_tables_per_person: int = _DEFAULTS.max_tables_per_person,
                 empty_table_timeout: float = _DEFAULTS.empty_table_timeout,
                 chat: ChatLimits = ChatLimits(),
                 resume_guesses: int = _DEFAULTS.resume_guesses,
                 resume_window: float = _DEFAULTS.resume_window,
                 max_watchers: int = _DEFAULTS.max_watchers,
                 bot_time_limit: float = _DEFAULTS.bot_time_limit,
                 resume_addresses: int = _DEFAULTS.resume_addresses,
                 storage: Storage | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """The limits' defaults are the server's (:class:`~diamant_server.config.ServerConfig`).
        Games are kept in ``storage`` (set by the server once it has opened it; without
        one, a game that ends is only logged)."""
        self.data_dir = data_dir
        self.storage = storage
        self.pace = pace
        self.max_tables = max_tables
        self.max_tables_per_person = max_tables_per_person
        self.empty_table_timeout = empty_table_timeout
        self.chat = chat
        self.resume_guesses = resume_guesses
        self.resume_window = resume_window
        self.max_watchers = max_watchers
        self.bot_time_limit = bot_time_limit
        self.resume_addresses = resume_addresses
        self._clock = clock
        self.server_name = ""
        """The server's name, shown at the top of the lobby (empty: none)."""
        self.motd = ""
        """The message of the day, shown under the lobby's title (empty: none)."""
        self.here: Callable[[], Here] | None = None
        """Who is on the server now, for the lobby's header (set by the server)."""
        self.on_table: TableHook | None = None
        self._started: dict[Table, int] = {}
        """The game of each table whose start was logged (its number at the table)."""
        self.tables: dict[str, Table] = {}
        self._owners: dict[Table, str] = {}
        """Whom each table counts against (the person who opened it, see ``create``)."""
        self._private: set[Table] = set()
        """The private tables: reached by their name only (see :meth:`is_private`)."""
        self._empty_since: dict[Table, float] = {}
        self._awaiting_return: dict[Table, float] = {}
        """Until when each table rebuilt at its final scores waits for its people to come
        back (their rematch vote) before it may be forgotten."""
        self._codes: dict[str, str] = {}
        self._code_of: dict[str, str] = {}
        self._holders: dict[tuple[Table, int], object] = {}
        self._wrong_codes: dict[str, deque[float]] = {}
        self._sitters: dict[tuple[Table, int], str] = {}
        """The identity of the person each table's seat was given to."""
        self._saving: set[asyncio.Task] = set()
        self._closing = asyncio.Event()
        """Set as the tables close: a game not kept yet gets one last try."""
        self._ids: dict[Table, str] = {}
        """Each table's id in the database, where it is saved as it changes."""
        self._refusals_logged = WarningLimiter(log, interval=REFUSAL_LOG_INTERVAL, clock=clock)
        """One log line a minute for each person's same refusal (what, of whom)."""

    # --- tables -------------------------------------------------------------------------

    def get(self, name: str) -> Table | None:
        """The table called ``name``, if there is one."""
        return self.tables.get(name)

    def create(self, settings: TableSettings, creator: str | None,
               owner: str | None = None, session: str | None = None, *,
               private: bool = False) -> Table:
        """Open a new table; the name must be free and valid, and neither the server nor
        ``owner`` (the person opening it, as the limits count people; none: the host's
        own table, counted against nobody) may have too many tables open. A ``private``
        table is reached by its name only (see :meth:`is_private`)."""
        log = _log_for(session)
        self.prune()
        check_table_name(settings.name)
        alike = self._alike(settings.name)
        if alike is not None:
            raise LobbyError("lobby.error.taken", name=alike)
        self.check_room(owner, session)
        table_id = secrets.token_hex(8)
        holder: list[Table] = []
        try:
            table = Table(settings, creator=creator, on_game_over=self._game_over,
                          chat=self.chat, save=self._saver(table_id, holder),
                          save_choices=self._choices_saver(table_id, holder),
                          bot_time_limit=self.bot_time_limit)
        except (DiamantError, ValueError) as exc:
            raise LobbyError("lobby.error.settings", reason=str(exc)) from None
        holder.append(table)
        self._ids[table] = table_id
        self.tables[settings.name] = table
        if owner is not None:
            self._owners[table] = owner
        if private:
            self._private.add(table)
        log.info("table %r created by %s%s: %s", settings.name, creator,
                 ", private" if private else "", settings,
                 extra={"event": "table_opened", "table": settings.name, "private": private})
        self._tell("opened", table)
        return table

    def _tell(self, event: str, table: Table) -> None:
        if self.on_table is not None:
            self.on_table(event, table)

    def game_seen(self, table: Table) -> None:
        """A session saw ``table`` playing: the first to see a game log its start."""
        if table.status is not TableStatus.PLAYING or table.game is None:
            return
        if (self._started.get(table) == table.games_played
                or self.tables.get(table.name) is not table):
            return
        self._started[table] = table.games_played
        people = sum(1 for seat in table.seats if seat.kind is SeatKind.PERSON)
        bots = len(table.seats) - people
        log.info("table %r: game %d started, %d %s and %d %s",
                 table.name, table.games_played + 1, people,
                 "person" if people == 1 else "people",
                 bots, "computer player" if bots == 1 else "computer players",
                 extra={"event": "game_started", "table": table.name,
                        "game": table.games_played + 1, "people": people})
        self._tell("started", table)

    def tables_of(self, owner: str) -> int:
        """How many open tables ``owner`` has opened."""
        return sum(1 for who in self._owners.values() if who == owner)

    def check_room(self, owner: str | None, session: str | None = None) -> None:
        """Raise a :class:`LobbyError` saying why ``owner`` cannot open a table now (the
        server has too many, or they have opened as many as one person may), if so."""
        log = _log_for(session)
        self.prune()
        if len(self.tables) >= self.max_tables:
            log.warning("a table refused to %s: the server has %d tables open", owner,
                        len(self.tables), extra={"event": "limit", "limit": "max_tables"})
            raise LobbyError("lobby.error.too_many")
        if owner is not None and self.tables_of(owner) >= self.max_tables_per_person:
            log.warning("a table refused to %s: %d tables open already", owner,
                        self.tables_of(owner),
                        extra={"event": "limit", "limit": "max_tables_per_person"})
            raise LobbyError("limit.tables_per_person", limit=self.max_tables_per_person)

    def check_watchers(self, table: Table, identity: str, session: str | None = None) -> None:
        """Raise a :class:`LobbyError` if ``table`` has as many spectators as one table
        may have (someone already watching it may come back)."""
        log = _log_for(session)
        watching = table.watcher_identities
        if identity in watching:
            return
        if len(watching) >= self.max_watchers:
            if self._refusals_logged.due(("watch", table.name, identity)) is not None:
                log.warning("table %r: a spectator refused, %d watching already", table.name,
                            len(watching), extra={"event": "limit", "limit": "max_watchers",
                                                  "table": table.name})
            raise LobbyError("limit.watchers", name=table.name, limit=self.max_watchers)

    async def close_empty(self) -> list[str]:
        """Close the tables nobody has sat at or looked at for ``empty_table_timeout``
        seconds (waiting or finished; a game going on plays to its end); returns their
        names."""
        now = self._clock()
        closed = []
        for name, table in list(self.tables.items()):
            if (table.status is TableStatus.PLAYING or table.people_connected
                    or table.watchers):
                self._empty_since.pop(table, None)
                continue
            since = self._empty_since.setdefault(table, now)
            if now - since < self.empty_table_timeout:
                continue
            self._remove(name, table)
            log.info("table %r closed: nobody at it for %d seconds", name, round(now - since),
                     extra={"event": "table_closed", "table": name})
            await table.close()
            closed.append(name)
        return closed

    async def close_table(self, name: str, session: str | None = None) -> Table | None:
        """Close table ``name`` now (an admin's decision): a game going on is kept as far
        as it went, and nobody at the table gets anything more (their apps are told by
        whoever closed it). Returns the table, None if there is none."""
        table = self.tables.get(name)
        if table is None:
            return None
        if table.status is TableStatus.PLAYING:
            self.save_game(table)
        self._remove(name, table)
        _log_for(session).info("table %r closed by an admin", name,
                               extra={"event": "table_closed", "table": name})
        await table.close()
        self._expire_codes()
        return table

    def name_in_use(self, name: str) -> bool:
        """Whether an open table goes by ``name`` or a look-alike of it (one :meth:`create`
        would refuse): a finished table nobody is at any more leaves its name free."""
        self.prune()
        return self._alike(name) is not None

    def _alike(self, name: str) -> str | None:
        """The name of the open table that goes by ``name``, or by a name that looks
        like it (``cаve`` with a Cyrillic ``а``, ``CAVE``: see :func:`look_alike_key`),
        if any: two such lines in the lobby read the same, and whoever chose one could
        not know which table they joined."""
        if name in self.tables:
            return name
        key = look_alike_key(name)
        return next((open_ for open_ in self.tables if look_alike_key(open_) == key), None)

    def free_name(self) -> str:
        """A name no open table has (``cave-1``, ``cave-2``...), for a table left unnamed."""
        n = 1
        while FREE_NAME.format(n=n) in self.tables:
            n += 1
        return FREE_NAME.format(n=n)

    @staticmethod
    def is_free_name(name: str) -> bool:
        """Whether ``name`` is of the kind :meth:`free_name` gives (the server's words,
        not a person's)."""
        return FREE_NAME_PATTERN.fullmatch(name) is not None

    def default_settings(self) -> TableSettings:
        """A new table as the lobby's form opens it when nothing is changed: a free name,
        the classic rules, :data:`DEFAULT_SEATS` seats for people, the default strength
        for the seats left when it starts early, no timer, at the server's pace."""
        return TableSettings(name=self.free_name(), seats=DEFAULT_SEATS,
                             filler=default_bot(), pace=self.pace)

    def is_private(self, table: Table) -> bool:
        """Whether ``table`` is private: listed in the lobby only to its own people (and
        to admins), never chosen by "play now"; whoever types its name reaches it."""
        return table in self._private

    def waiting_table(self) -> Table | None:
        """The table "play now" seats a person at: of the public tables waiting for
        players with a seat free, the one with the most people at it, the oldest of
        equals. A table playing, full or private is never one, whatever else there is."""
        best = None
        # The tables are kept in the order they opened: the first of equals is the oldest.
        for table in self.tables.values():
            if (table.status is not TableStatus.WAITING or not table.free_seats
                    or table in self._private):
                continue
            if best is None or table.people_connected > best.people_connected:
                best = table
        return best

    def seat_of(self, identity: str) -> tuple[Table, int] | None:
        """The table and seat ``identity`` holds (a person coming back), if any: in a
        game, or at final scores they are at or that wait for them (their connection lost
        there), as :meth:`Table.holds` says. A guest's resume code lasts as long."""
        for table in self.tables.values():
            seat = table.holds(identity)
            if seat is not None:
                return table, seat
        return None

    def summaries(self, viewer: str | None = None, *,
                  everything: bool = False) -> list[TableSummary]:
        """The open tables ``viewer`` (an identity) may see listed, waiting ones first:
        the public ones, and the private ones where they hold a seat or are watching
        (``everything``: every table, as an admin sees them)."""
        self.prune()
        rows = []
        for table in self.tables.values():
            private = table in self._private
            if private and not everything and not _among_its_people(table, viewer):
                continue
            seats = table.seats
            rows.append(TableSummary(
                name=table.name,
                rules=table.settings.rules.value,
                seats=len(seats),
                people=sum(1 for s in seats if s.kind is SeatKind.PERSON),
                computers=sum(1 for s in seats if s.kind is SeatKind.BOT),
                free=table.free_seats,
                timer=table.settings.timer,
                status=table.status,
                private=private,
            ))
        order = {TableStatus.WAITING: 0, TableStatus.PLAYING: 1, TableStatus.FINISHED: 2}
        return sorted(rows, key=lambda r: (order[r.status], listed_order(r.name)))

    def prune(self) -> None:
        """Forget finished tables that nobody is at or looking at any more (once the
        wait is over for those rebuilt after a restart, or whose last person was lost
        at the final scores), and waiting tables rebuilt after a restart that nobody
        came back to in time."""
        now = self._clock()
        for name, table in list(self.tables.items()):
            if table.people_connected or table.status is TableStatus.PLAYING:
                continue
            if table.status is TableStatus.FINISHED:
                if now >= self._awaiting_return.get(table, now):
                    self._forget(name, table)
            elif now >= self._awaiting_return.get(table, math.inf):
                # (A waiting table is otherwise forgotten as its last person leaves: one
                # just opened, with nobody seated yet, is not.)
                self._forget(name, table)

    def _forget(self, name: str, table: Table) -> None:
        if table.watchers or self.tables.get(name) is not table:
            return  # someone (a spectator) still looks at it, or it has gone already
        self._remove(name, table)
        log.info("table %r closed: nobody left at it", name,
                 extra={"event": "table_closed", "table": name})

    def _remove(self, name: str, table: Table) -> None:
        self._tell("closed", table)
        self._started.pop(table, None)
        del self.tables[name]
        self._owners.pop(table, None)
        self._private.discard(table)
        self._empty_since.pop(table, None)
        self._awaiting_return.pop(table, None)
        for seat in range(len(table.seats)):
            self._sitters.pop((table, seat), None)
        table.on_game_over = None
        table_id = self._ids.pop(table, None)
        if table_id is not None and self.storage is not None:
            self._in_background(self._drop(table, table_id), f"forgetting table {name!r}")

    async def _drop(self, table: Table, table_id: str) -> None:
        """Forget a closed table's save, once its last change is saved (so that no late
        save brings it back)."""
        await table.saved()
        if self.storage is not None:
            await self.storage.drop_table(table_id)

    # --- tables kept across a restart ---------------------------------------------------

    def _saver(self, table_id: str, holder: list[Table]) -> Save | None:
        """What a table saves its snapshots with: the database's open tables, with what
        the lobby knows of it (whose table it is, its guests' resume codes)."""
        if self.storage is None:
            return None

        async def save(snapshot: dict) -> None:
            table = self._still_kept(table_id, holder)
            if table is not None:
                await self._save_table(table, table_id, snapshot)

        return save

    def _choices_saver(self, table_id: str, holder: list[Table]) -> SaveChoices | None:
        """What a table saves its game's progress with, between two of its snapshots."""
        if self.storage is None:
            return None

        async def save(choices: dict | None) -> None:
            if self._still_kept(table_id, holder) is not None:
                assert self.storage is not None
                await self.storage.save_table_choices(table_id, choices)

        return save

    def _still_kept(self, table_id: str, holder: list[Table]) -> Table | None:
        """The table ``holder`` holds, if it is still open under ``table_id`` with a
        database to keep it in (None: closed meanwhile, nothing to keep)."""
        table = holder[0] if holder else None
        if table is None or self.storage is None or self._ids.get(table) != table_id:
            return None
        return table

    def _save_table(self, table: Table, table_id: str, snapshot: dict) -> Awaitable[None]:
        """Queue ``snapshot`` of ``table`` in the database now, with the lobby's part."""
        assert self.storage is not None
        kept = {"table": snapshot, "lobby": self._lobby_part(table)}
        return self.storage.save_table(table_id, table.name, snapshot["settings"], kept)

    def _lobby_part(self, table: Table) -> dict:
        # Looked up seat by seat: a table is saved at nearly every change, and going
        # through every code the server holds made each save cost more with every
        # person connected.
        codes = {}
        for seat in range(len(table.seats)):
            identity = self._sitters.get((table, seat))
            if identity is not None and identity in self._code_of:
                codes[identity] = self._code_of[identity]
        return {"owner": self._owners.get(table), "codes": codes,
                "private": table in self._private}

    async def restore_tables(self, wait: float) -> list[str]:
        """Rebuild the tables saved in the database (after a stop or a crash), each at the
        point it had reached; their people come back to their seats as they connect, and
        games go on once they are back or ``wait`` seconds from now. A saved table that
        cannot be rebuilt is left in the database as it is, and the host is told.
        Returns the names of the tables rebuilt."""
        if self.storage is None:
            return []
        rebuilt = []
        for saved in await self.storage.tables_in_progress():
            try:
                kept = saved.snapshot
                snapshot = kept["table"]
                holder: list[Table] = []
                table = Table.restore(snapshot, wait=wait, on_game_over=self._game_over,
                                      chat=self.chat, save=self._saver(saved.id, holder),
                                      save_choices=self._choices_saver(saved.id, holder),
                                      bot_time_limit=self.bot_time_limit,
                                      chosen=saved.choices)
            except (KeyError, TypeError, SnapshotError, DiamantError, ValueError) as exc:
                log.error("saved table %r (%s) cannot be rebuilt: %s", saved.name, saved.id, exc)
                tell_host(f"The saved table {saved.name!r} (id {saved.id}) could not be rebuilt "
                          f"({exc}); it is left in the database as it was.")
                continue
            if table.name in self.tables:
                log.error("saved table %r (%s): a table of that name is open already",
                          saved.name, saved.id)
                await table.close()
                continue
            holder.append(table)
            self._ids[table] = saved.id
            self.tables[table.name] = table
            lobby_part = kept.get("lobby") or {}
            if lobby_part.get("owner"):
                self._owners[table] = lobby_part["owner"]
            if lobby_part.get("private"):
                self._private.add(table)
            for seat, info in enumerate(snapshot["seats"]):
                if info.get("identity") and info.get("kind") == SeatKind.PERSON.value:
                    self._sitters[(table, seat)] = info["identity"]
            for identity, code in (lobby_part.get("codes") or {}).items():
                self._codes[code] = identity
                self._code_of[identity] = code
            if table.status is TableStatus.PLAYING:
                # Its start was logged as it began: going on is not starting again (the
                # line below says it was rebuilt).
                self._started[table] = table.games_played
            if table.status is TableStatus.FINISHED:
                # Its game is over, but the server may have stopped between the table's
                # last save and the game's: kept now, or left as it is if it was.
                self.save_game(table)
            if table.status is not TableStatus.PLAYING:
                # Its people were deciding on a rematch, or waiting for the game: it
                # waits for them as a game waits, rather than being forgotten at once
                # with nobody connected yet, or kept for ever with nobody coming.
                self._awaiting_return[table] = self._clock() + wait
            rebuilt.append(table.name)
            log.info("table %r rebuilt as it was saved (%s)", table.name, table.status.value,
                     extra={"event": "table_restored", "table": table.name})
            self._tell("opened", table)
        return rebuilt

    def take_seat(self, member: Member, holder: object) -> object | None:
        """Record that ``holder`` (a session's app) now shows ``member``'s seat; returns the
        one that showed it before (an older connection of the same person), if any."""
        key = (member.table, member.seat)
        previous = self._holders.get(key)
        self._holders[key] = holder
        if member.seat is not None:
            self._sitters[key] = member.identity
        return previous

    def release(self, member: Member, holder: object, *, lost: bool = False) -> None:
        """``holder`` leaves the table: the table frees the seat or plays it (nothing
        happens when a newer connection of the same person holds it now). ``lost``: the
        connection was lost, not left (see :meth:`Member.drop`)."""
        table = member.table
        key = (table, member.seat)
        if member.seat is not None and self._holders.get(key) is holder:
            del self._holders[key]
        if lost:
            member.drop()
        else:
            member.leave()
        if table.status is not TableStatus.PLAYING and not table.people_connected:
            if lost and table.awaits(member.identity) is not None:
                # The last person lost at the final scores: they are awaited there as
                # anyone lost is, so the table is kept as long (see prune), not
                # forgotten with the seat and the rematch they would come back to.
                self._awaiting_return[table] = self._clock() + table.return_wait
            else:
                self._forget(table.name, table)
        if member.seat is not None:
            self._expire_codes()  # a seat given up (a waiting table's) needs no code

    def _game_over(self, table: Table) -> None:
        """A game has ended: keep it. The codes of guests gone from its seats are no use
        now; those still at its final scores keep theirs, for a connection lost there
        while the rematch waits for them, and for the rematch."""
        self._tell("ended", table)
        self.save_game(table)
        self._expire_codes()

    # --- guests -------------------------------------------------------------------------

    def resume_code(self, identity: str) -> str:
        """The short code that gives a guest their seat back from a new connection."""
        code = self._code_of.get(identity)
        if code is None:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            while code in self._codes:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            self._codes[code] = identity
            self._code_of[identity] = code
            # The table's saves carry its guests' codes, but a rematch's code is made
            # after the snapshot of its start, and the game's progress saved after that
            # carries none: without a new snapshot, a restart would forget it.
            held = self.seat_of(identity)
            if held is not None:
                held[0].save_again()
        return code

    def code_of(self, identity: str) -> str | None:
        """The resume code already given to ``identity``, if any (none is made)."""
        return self._code_of.get(identity)

    def identity_for_code(self, code: str, address: str = "?",
                          session: str | None = None) -> str | None:
        """The guest identity a resume code stands for, if it holds a seat still.

        Wrong codes are counted per ``address`` and logged: past ``resume_guesses`` in a
        minute the address must wait (a :class:`LobbyError` says how long), so that the
        codes, about 30 bits, cannot be found by trying them one after another."""
        log = _log_for(session)
        loop_time = asyncio.get_running_loop().time()
        wrong = self._wrong_codes.get(address)
        if wrong is not None:
            while wrong and loop_time - wrong[0] > self.resume_window:
                wrong.popleft()
            if len(wrong) >= self.resume_guesses:
                wait = max(1, math.ceil(wrong[0] + self.resume_window - loop_time))
                log.info("resume code from %s refused: %d wrong codes in %g s; %d s to wait",
                         loggable(address, 60), len(wrong), self.resume_window, wait,
                         extra={"event": "limit", "limit": "resume_guesses"})
                raise LobbyError("limit.resume_wait", seconds=wait)
        identity = self._codes.get(code.strip().upper())
        if identity is not None and self.seat_of(identity) is not None:
            return identity
        if wrong is None:
            if len(self._wrong_codes) >= self.resume_addresses:
                del self._wrong_codes[next(iter(self._wrong_codes))]
            wrong = self._wrong_codes[address] = deque()
        wrong.append(loop_time)
        # Never the code itself: one typed a letter wrong is most of a code that gives a seat.
        log.warning("wrong resume code from %s (%d of %d allowed in %g s)",
                    loggable(address, 60), len(wrong), self.resume_guesses,
                    self.resume_window, extra={"event": "wrong_code"})
        return None

    def _expire_codes(self) -> None:
        """Forget the codes of guests who hold no seat any more (their game has ended,
        or they gave the seat up): an old code gives nothing to whoever finds it."""
        for identity, code in list(self._code_of.items()):
            if self.seat_of(identity) is None:
                del self._code_of[identity]
                self._codes.pop(code, None)
                log.info("resume code of %s expired", identity)

    # --- the games kept -----------------------------------------------------------------

    def seen(self, identity: Identity, language: str) -> None:
        """Note that a person with a key has logged in (guests are not kept)."""
        if self.storage is not None and not identity.guest:
            self._in_background(self.storage.seen(identity.person, identity.name, language),
                                f"noting the login of {identity}")

    def choose_language(self, identity: Identity, language: str) -> None:
        """Keep the language a person with a key chose, for their next logins."""
        if self.storage is not None and not identity.guest:
            self._in_background(
                self.storage.choose_language(identity.person, identity.name, language),
                f"keeping the language of {identity}")

    async def chosen_language(self, identity: Identity) -> str | None:
        """The language a person with a key chose when they last chose one, if any (a
        guest, a server without a database or a database that cannot be read: none)."""
        if self.storage is None or identity.guest:
            return None
        try:
            return await self.storage.chosen_language(identity.person)
        except StorageError:
            log.exception("could not read the language chosen by %s", identity)
            return None

    def save_game(self, table: Table) -> asyncio.Task[int | None] | None:
        """Start keeping the table's current game in the database: finished, with its
        places (which change the ratings), or as far as it has gone. Everything it needs is
        taken from the table now; the save goes on in the background (:meth:`flush` waits
        for it) and resolves to the game's id, or None when it could not be kept."""
        if table.game is None:
            return None
        record = table.record()
        if self.storage is None:
            log.warning("table %r: no database, its game is not kept", table.name)
            return None
        places = None
        if "result" in record:
            scores = record["result"]["scores"]
            places = places_from_scores([scores[name] for name in record["players"]])
        seats = []
        for info in table.seats:
            identity = self._sitters.get((table, info.seat))
            mine = identity is not None and table.seat_of(identity) == info.seat
            seats.append(Sitter(info.name, person_of(identity) if mine else None,
                                info.bot if info.kind is SeatKind.BOT else None))
        # The table's id and the game's number there name the game across restarts:
        # saved at a stop and kept again as it goes on, or ended again after a crash
        # that came before its table's last save, it is kept under one row, rated once.
        # (A table the lobby no longer holds has no id: its game gets a row of its own.)
        kept_as = (self._ids.get(table) or secrets.token_hex(8), table.games_played)
        storage, started = self.storage, table.started or datetime.now(timezone.utc)

        def write() -> Awaitable[Kept]:
            # Written again under the same (table, number) if tried again: one row.
            return storage.keep_game(kept_as, table.name, record["rules"], started, seats,
                                     record, places)

        task = asyncio.get_running_loop().create_task(
            self._keep(table.name, table.games_played + 1, write, places is not None),
            name=f"keep {table.name}")
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)
        return task

    async def _keep(self, name: str, number: int, write: Callable[[], Awaitable[Kept]],
                    finished: bool) -> int | None:
        """Write game ``number`` of table ``name``, and log it under that number (as its
        start was) with its id in the database (`diamant export`'s). A write that fails
        (a full disk) is tried again every :data:`KEEP_RETRY` seconds, and once more as
        the tables close: the game is lost only if it still cannot be written then."""
        assert self.storage is not None
        path, failed = self.storage.path, False
        while True:
            try:
                kept = await write()
                break
            except Exception as exc:
                if self._closing.is_set():
                    log.error("table %r: game %d could not be kept before the stop, and "
                              "is lost: %s", name, number, exc)
                    tell_host(f"Could not save game {number} of table {name!r} in the "
                              f"database {path} before stopping: {exc}. It is lost.")
                    return None
                if not failed:
                    log.exception("table %r: could not keep its game %d; tried again "
                                  "every %g s", name, number, KEEP_RETRY)
                    # The host must see it, wherever the log goes: the game is at stake.
                    tell_host(f"Could not save game {number} of table {name!r} in the "
                              f"database {path}: {exc}. Check the disk and the data folder "
                              f"(space left, permissions); the server tries again every "
                              f"{KEEP_RETRY:g} s, and once more as it stops.")
                failed = True
            try:
                await asyncio.wait_for(self._closing.wait(), KEEP_RETRY)
            except TimeoutError:
                pass
        if failed:
            tell_host(f"Game {number} of table {name!r} is saved now, in {path}.")
        if kept.already:
            # (A table rebuilt at its final scores ends its game again: not a new one,
            # which a log collector counting the games kept would count twice.)
            log.info("table %r: game %d was kept already, id %d in the database", name,
                     number, kept.id)
            return kept.id
        log.info("table %r: game %d %s, id %d in the database", name, number,
                 "kept" if finished else "saved as far as it went", kept.id,
                 extra={"event": "game_saved", "table": name, "game": number,
                        "game_id": kept.id, "finished": finished})
        return kept.id

    def _in_background(self, write: Awaitable[None], what: str) -> None:
        async def run() -> None:
            try:
                await write
            except Exception:
                log.exception("%s failed", what)

        task = asyncio.get_running_loop().create_task(run())
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)

    def keep_tables(self) -> dict[str, asyncio.Future]:
        """Save every open table as it is now (at once: no waiting), to be rebuilt when
        the server starts again; returns the saves under way, by table name."""
        saves = {}
        for table in list(self.tables.values()):
            table_id = self._ids.get(table)
            if table_id is None or self.storage is None:
                continue
            queued = self._save_table(table, table_id, table.snapshot())
            save = asyncio.ensure_future(self._keep_table(table.name, queued))
            self._saving.add(save)
            save.add_done_callback(self._saving.discard)
            saves[table.name] = save
        return saves

    async def _keep_table(self, name: str, queued: Awaitable[None]) -> None:
        assert self.storage is not None
        try:
            await queued
        except Exception as exc:
            log.exception("table %r: could not be saved", name)
            # The host must see it, wherever the log goes: the table is being lost.
            tell_host(f"Could not save table {name!r} in the database {self.storage.path}: "
                      f"{exc}. Check the disk and the data folder (space left, "
                      f"permissions); the game at that table is lost.")
            raise

    def save_games(self) -> list[asyncio.Task[int | None]]:
        """Start keeping every game in progress (at once: no waiting); returns the saves.
        A game that ends after this is not kept twice."""
        saves = []
        for table in list(self.tables.values()):
            if table.status is TableStatus.PLAYING:
                save = self.save_game(table)
                if save is not None:
                    saves.append(save)
            table.on_game_over = None
        return saves

    async def flush(self) -> None:
        """Wait until every save started so far has ended (without cutting any short if
        this wait is itself cancelled)."""
        while self._saving:
            await asyncio.wait(set(self._saving))

    async def close(self) -> list[int]:
        """Keep every game in progress, stop all tables; returns the ids of the games kept."""
        saves = self.save_games()
        await self.close_tables()
        await self.flush()
        return [game for game in (save.result() for save in saves) if game is not None]

    async def close_tables(self) -> None:
        """Stop all tables (their games are not saved: :meth:`save_games` does that)."""
        self._closing.set()  # the games not kept yet: one last try, now
        tables = list(self.tables.values())
        self.tables.clear()
        self._owners.clear()
        self._private.clear()
        self._empty_since.clear()
        self._awaiting_return.clear()
        self._started.clear()
        self._sitters.clear()
        await asyncio.gather(*(table.close() for table in tables))


def _among_its_people(table: Table, identity: str | None) -> bool:
    """Whether ``identity`` holds a seat at ``table`` or is watching it."""
    return identity is not None and (table.seat_of(identity) is not None
                                     or identity in table.watcher_identities)
