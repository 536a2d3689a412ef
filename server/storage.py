"""The server's storage: one SQLite database, ``diamant.sqlite3`` in the data folder.

This is the one module that knows SQL; the rest of the server calls the few methods of
:class:`Storage`, so another database could stand behind them one day.

What is kept: the people who logged in with a key (guests are not kept), the tables in
progress (their settings and an opaque snapshot the table makes of its state, stored and
returned as given), every game (its ``diamant-record/1`` record, kept as it grows, and who
sat in each seat with their final place), the ratings (:mod:`.ratings`), the bans and the
mutes (:mod:`.bans` and :mod:`.mutes` keep them in memory and write them through), and the
players' reports to the admins (:mod:`.reports`), kept once dismissed (with when and by
whom) as a record of what was reported.

The event loop never waits on the disk. One writer thread owns the connection that writes:
each write is queued, the writer commits whatever has queued up in one transaction (a burst
of a hundred tables costs a few disk syncs, not a hundred in a row) and each write's
awaitable resolves once its transaction is on disk (WAL mode, ``synchronous=FULL``). A
write is queued when it is called, not when it is awaited, so writes land in the order
they were asked for. Records and snapshots are handed over: they are turned into JSON in
the writer's thread (a hundred of them at once would hold the event loop for several
milliseconds), so the caller must not change them afterwards; every caller makes a new
one for each write. Reads run on a connection of their own, in a thread of their own.

The schema has a version (``PRAGMA user_version``) and an ordered list of migrations, run
at start-up, one transaction each. A damaged database, one made by a newer version of
Diamant, or a data folder that cannot be written is refused at start-up with a
:class:`StorageError` naming the file and what to do; nothing is ever made again over it.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import math
import os
import queue
import sqlite3
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence

from .ratings import BOT_PREFIX, Rating, rate_game, rated_as
from .records import sync_folder

log = logging.getLogger(__name__)

DATABASE = "diamant.sqlite3"
"""The database's file name in the data folder."""
MAX_ID = 2**63 - 1
"""The largest id SQLite gives a row (a signed 64-bit integer)."""
COMPANIONS = ("-wal", "-shm", "-journal")
"""What SQLite adds to the database's name for the files it keeps beside it."""
BATCH = 500
"""Writes committed together at most, when that many have queued up."""
_STOP = object()


class StorageError(Exception):
    """The database cannot be used; the message names the file and says what to do."""


@dataclass(frozen=True)
class Sitter:
    """Who sat in a seat: a person (their id, ``key:SHA256:...``), a computer player (its
    spec, such as ``expert`` or ``carry:20``), or a guest (neither: not kept)."""

    name: str
    person: str | None = None
    computer: str | None = None


@dataclass(frozen=True)
class Kept:
    """A game kept by :meth:`Storage.keep_game`: its id, and whether it had been kept
    finished already (a game ended again after a restart: left as it was)."""

    id: int
    already: bool = False


@dataclass(frozen=True)
class SavedTable:
    """A table in progress as it was last saved."""

    id: str
    name: str
    settings: Any
    snapshot: Any
    updated: str
    choices: Any = None
    """What was saved with :meth:`Storage.save_table_choices` since the snapshot."""


@dataclass(frozen=True)
class GameSummary:
    """One game: where and when it was played, by whom (names in seat order)."""

    id: int
    table: str
    rules: str
    started: str
    ended: str | None
    finished: bool
    players: tuple[str, ...]


@dataclass(frozen=True)
class PastGame:
    """A game in a person's history: the game, their seat, score and place (None for a
    game that did not finish)."""

    game: GameSummary
    seat: int
    score: int | None
    place: int | None


@dataclass(frozen=True)
class SavedSanction:
    """A ban or a mute as kept: ``kind`` is ``key`` (``value`` a fingerprint,
    ``SHA256:...``), for a ban ``address``, for a mute ``guest`` (``value`` the address
    the muted guests connect from); ``until`` and ``made`` are UTC times (``until``
    None: for good). Bans and mutes have tables of their own, of the same columns."""

    kind: str
    value: str
    until: str | None
    reason: str
    by: str
    made: str


@dataclass(frozen=True)
class SavedReport:
    """A player's report to the admins as kept: when (UTC), at which table, who reported
    whom (each a name and what they are known by: ``kind`` ``key`` with a fingerprint, or
    ``guest`` with the address), why, and the reported person's last chat lines there.
    ``id`` is None before it is written."""

    id: int | None
    made: str
    table: str
    reporter_name: str
    reporter_kind: str
    reporter_value: str
    reported_name: str
    reported_kind: str
    reported_value: str
    reason: str
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    """One line of the leaderboard: ``who`` is a person's id or ``bot:<kind>``."""

    rank: int
    who: str
    name: str
    computer: bool
    rating: Rating
    arrival: int = 0
    """When the person was first seen, as an order (the earlier the smaller; 0 for a
    computer level): who keeps a name that several people showed under."""


@dataclass(frozen=True)
class BackupSummary:
    """What a backup holds: its schema version, its games (and how many finished), its
    size in bytes."""

    version: int
    games: int
    finished: int
    size: int


# --- the schema ---------------------------------------------------------------------------

def _version_1(db: sqlite3.Connection) -> None:
    """Players, tables in progress, games and who sat in each seat."""
    for statement in (
        """CREATE TABLE players (
            person TEXT PRIMARY KEY, name TEXT NOT NULL, language TEXT NOT NULL,
            first_seen TEXT NOT NULL, last_seen TEXT NOT NULL)""",
        """CREATE TABLE open_tables (
            id TEXT PRIMARY KEY, name TEXT NOT NULL, settings TEXT NOT NULL,
            snapshot TEXT NOT NULL, updated TEXT NOT NULL)""",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY, table_name TEXT NOT NULL, rules TEXT NOT NULL,
            started TEXT NOT NULL, ended TEXT, record TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0)""",
        """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
            name TEXT NOT NULL, person TEXT, computer TEXT, score INTEGER, place INTEGER,
            PRIMARY KEY (game_id, seat))""",
        "CREATE INDEX seats_by_person ON seats(person, game_id)",
    ):
        db.execute(statement)


def _version_2(db: sqlite3.Connection) -> None:
    """Ratings, worked out again from the games already finished, in the order they ended."""
    db.execute("""CREATE TABLE ratings (
        who TEXT PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL,
        games INTEGER NOT NULL, wins INTEGER NOT NULL)""")
    for (game_id,) in db.execute(
            "SELECT id FROM games WHERE finished = 1 ORDER BY ended, id").fetchall():
        _rate(db, game_id)


def _version_3(db: sqlite3.Connection) -> None:
    """Bans: a key fingerprint or an address, until when (NULL: for good), why, by whom."""
    db.execute("""CREATE TABLE bans (
        kind TEXT NOT NULL CHECK (kind IN ('key', 'address')), value TEXT NOT NULL,
        until TEXT, reason TEXT NOT NULL, by TEXT NOT NULL, made TEXT NOT NULL,
        PRIMARY KEY (kind, value))""")


def _version_4(db: sqlite3.Connection) -> None:
    """The choices of the turn under way made since a table's snapshot (NULL: none)."""
    db.execute("ALTER TABLE open_tables ADD COLUMN choices TEXT")


def _version_5(db: sqlite3.Connection) -> None:
    """Mutes: a key fingerprint or the address of guests, until when (NULL: for good),
    why, by whom."""
    db.execute("""CREATE TABLE mutes (
        kind TEXT NOT NULL CHECK (kind IN ('key', 'guest')), value TEXT NOT NULL,
        until TEXT, reason TEXT NOT NULL, by TEXT NOT NULL, made TEXT NOT NULL,
        PRIMARY KEY (kind, value))""")


def _version_6(db: sqlite3.Connection) -> None:
    """Players' reports to the admins: when, at which table, who reported whom (a name,
    and a key fingerprint or a guest's address), why, the reported person's last chat
    lines (a JSON list) and, once an admin dismissed it, when and by whom."""
    db.execute("""CREATE TABLE reports (
        id INTEGER PRIMARY KEY, made TEXT NOT NULL, table_name TEXT NOT NULL,
        reporter_name TEXT NOT NULL, reporter_kind TEXT NOT NULL,
        reporter_value TEXT NOT NULL, reported_name TEXT NOT NULL,
        reported_kind TEXT NOT NULL, reported_value TEXT NOT NULL,
        reason TEXT NOT NULL, evidence TEXT NOT NULL, dismissed TEXT, dismissed_by TEXT,
        CHECK (reporter_kind IN ('key', 'guest') AND reported_kind IN ('key', 'guest')))""")
    db.execute("CREATE INDEX open_reports ON reports(dismissed, made)")


def _version_7(db: sqlite3.Connection) -> None:
    """Which table's game each game is (the table's id among the open tables, and the
    game's number there), so that a game kept again after a restart is kept once. Games
    kept before have neither. And the language each person chose in the lobby (NULL:
    none chosen, their terminal's locale is followed)."""
    db.execute("ALTER TABLE players ADD COLUMN chosen_language TEXT")
    db.execute("ALTER TABLE games ADD COLUMN table_id TEXT")
    db.execute("ALTER TABLE games ADD COLUMN number INTEGER")
    db.execute("CREATE UNIQUE INDEX games_by_table ON games(table_id, number)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _version_1, _version_2, _version_3, _version_4, _version_5, _version_6, _version_7)
"""Migration ``n`` (from 0) takes a database from version ``n`` to ``n + 1``."""
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection, upto: int = SCHEMA_VERSION) -> None:
    """Run the migrations a database lacks, up to version ``upto``, one transaction each
    (a connection in autocommit mode: ``isolation_level=None``)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    for number in range(version, upto):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[number](db)
            db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        if version:  # (a new database is made by all of them: said once, below)
            log.info("database upgraded to version %d", number + 1)
    if not version and upto:
        log.info("database made, version %d", upto)


# --- opening --------------------------------------------------------------------------------

_CANTOPEN = 14
"""SQLite's primary result code for a file it cannot open (SQLITE_CANTOPEN)."""


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA busy_timeout = 5000")
    return db


def _check_folder(folder: Path) -> None:
    """Make sure the database and its journal can be written in ``folder``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise StorageError(
            f"the data folder {folder} cannot be written ({exc.strerror or exc}), so the "
            f"database {folder / DATABASE} cannot be kept there; make it writable by the "
            f"user running the server, or choose another folder with --data-dir") from None


def _prepare(db: sqlite3.Connection, path: Path, *, writing: bool) -> None:
    """Check the database is whole and ours, then bring it to the current version."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"the database {path} was made by a newer version of Diamant (schema version "
            f"{version}; this one knows up to {SCHEMA_VERSION}); upgrade Diamant, or start "
            f"with another --data-dir")
    if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise StorageError(
            f"the file {path} is an SQLite database but not a Diamant one; move it away, "
            f"or start with another --data-dir")
    problems = [row[0] for row in db.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise sqlite3.DatabaseError(problems[0])
    if writing:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")  # a commit is on disk before it returns
        migrate(db)
        # A write undone: it fails now, not at the first game, if the file is read-only.
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        finally:
            db.execute("ROLLBACK")


@dataclass
class _Write:
    """A queued write: ``run`` is called with the writer's connection inside a transaction."""

    run: Callable[[sqlite3.Connection], Any]
    future: asyncio.Future
    loop: asyncio.AbstractEventLoop

    def settle(self, value: Any, error: BaseException | None) -> None:
        def resolve() -> None:
            if self.future.cancelled():
                return
            if error is None:
                self.future.set_result(value)
            else:
                self.future.set_exception(error)

        try:
            self.loop.call_soon_threadsafe(resolve)
        except RuntimeError:
            pass  # the loop that asked has closed: nobody waits for the answer


class Storage:
    """The database (see the module docstring); made by :meth:`open`."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self._db = db
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False
        self.transactions = 0
        """Transactions committed by the writer so far (writes share them when they queue)."""
        self._writer = threading.Thread(target=self._write_loop, name="storage writer",
                                        daemon=True)
        self._writer.start()
        self._reader_db: sqlite3.Connection | None = None
        self._readers = ThreadPoolExecutor(1, thread_name_prefix="storage reader")

    @classmethod
    def open(cls, folder: Path, *, create: bool = True) -> "Storage":
        """Open (or make) the database in ``folder`` and bring it up to date; a
        :class:`StorageError` says what is wrong. Called once, at start-up (it waits on the
        disk). Without ``create`` (to read it: ``diamant export``) a missing database is an
        error too, and the database is left as it is, in whatever version it is."""
        folder = Path(folder)
        path = folder / DATABASE
        if create:
            _check_folder(folder)
        elif not path.is_file():
            raise StorageError(f"there is no database {path}; is {folder} the server's "
                               f"data folder (its --data-dir)?")
        try:
            db = _connect(path)
        except sqlite3.Error as exc:
            raise StorageError(f"the database {path} cannot be opened ({exc}); check its "
                               f"permissions, or start with another --data-dir") from None
        try:
            _prepare(db, path, writing=create)
        except StorageError:
            db.close()
            raise
        except sqlite3.Error as exc:
            db.close()
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF == _CANTOPEN:
                # Not damage: a folder (or -wal, -shm file) this user may not write. The
                # advice for a damaged file (restore it, move it away) would lose it.
                raise StorageError(
                    f"the database {path} cannot be opened ({exc}): SQLite writes its -wal "
                    f"and -shm files beside it even to read it; check that this user may "
                    f"read it and write in {folder} (the user the server runs as may), or "
                    f"start with another --data-dir") from None
            if isinstance(exc, sqlite3.OperationalError) and "readonly" in str(exc):
                raise StorageError(
                    f"the database {path} cannot be written ({exc}); make it writable by the "
                    f"user running the server, or start with another --data-dir") from None
            raise StorageError(
                f"the database {path} cannot be used ({exc}); it was left as it is: restore "
                f"it from a backup or move it away, or start with another --data-dir"
            ) from None
        return cls(path, db)

    def backup(self, target: Path, *, replace: bool = False) -> "BackupSummary":
        """Copy the database as it is at one moment to ``target`` with SQLite's online
        backup, while a server may be writing to it; the copy is one file (no ``-wal``
        beside it), checked, and written whole or not at all (a temporary file beside
        ``target``, then renamed). An existing ``target`` is refused (a
        :class:`FileExistsError`) unless ``replace``. It waits on the disk: for the
        command line, not the server."""
        target = Path(target)
        which = database_file(target, self.path.parent)
        if which is not None:
            raise StorageError(refused_target(target, which, self.path))
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                    suffix=".tmp")
        os.close(fd)
        temporary = Path(name)
        try:
            summary = self._copy_to(temporary)
            with open(temporary, "rb") as file:
                os.fsync(file.fileno())
            if replace:
                os.replace(temporary, target)
            else:
                _rename_new(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        sync_folder(target.parent)
        return summary

    def _copy_to(self, temporary: Path) -> "BackupSummary":
        source = _connect(self.path)
        try:
            copy = sqlite3.connect(temporary, isolation_level=None)
            try:
                source.backup(copy)  # all pages in one step: one consistent state
                copy.execute("PRAGMA journal_mode = DELETE")  # one file; the server sets WAL
                problems = [row[0] for row in copy.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    raise StorageError(f"the copy of {self.path} is damaged ({problems[0]})")
                version = copy.execute("PRAGMA user_version").fetchone()[0]
                games, finished = copy.execute(
                    "SELECT count(*), coalesce(sum(finished), 0) FROM games").fetchone() \
                    if version else (0, 0)
            finally:
                copy.close()
        except sqlite3.Error as exc:
            raise StorageError(f"could not back up {self.path}: {exc}") from None
        finally:
            source.close()
        return BackupSummary(version, games, finished, temporary.stat().st_size)

    # --- the writer -------------------------------------------------------------------------

    def _write(self, run: Callable[[sqlite3.Connection], Any]) -> asyncio.Future:
        """Queue ``run`` now; the future resolves to its result once it is on disk."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if self._closed:
            future.set_exception(StorageError(f"the database {self.path} is closed"))
        else:
            self._queue.put(_Write(run, future, loop))
        return future

    def _write_loop(self) -> None:
        stopping = False
        while not stopping:
            item = self._queue.get()
            if item is _STOP:
                break
            batch = [item]
            while len(batch) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stopping = True
                    break
                batch.append(item)
            self._commit(batch)
        self._db.close()

    def _commit(self, batch: list[_Write]) -> None:
        """Run ``batch`` in one transaction; a write that fails is undone alone (its own
        savepoint) and its awaitable gets the error; a commit that fails fails them all."""
        db = self._db
        outcomes: list[tuple[Any, BaseException | None]] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for write in batch:
                db.execute("SAVEPOINT one")
                try:
                    outcomes.append((write.run(db), None))
                except Exception as exc:
                    if isinstance(exc, sqlite3.Error) and not db.in_transaction:
                        # SQLite undid the whole transaction itself (a full disk does):
                        # the batch failed with it, and this is the error to tell, not
                        # the savepoint that went with it ("no such savepoint").
                        raise
                    db.execute("ROLLBACK TO one")
                    outcomes.append((None, self._error(exc)))
                db.execute("RELEASE one")
            db.execute("COMMIT")
            self.transactions += 1
        except sqlite3.Error as exc:
            log.error("could not write to %s: %s", self.path, exc)
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            outcomes = [(None, self._error(exc))] * len(batch)
        for write, (value, error) in zip(batch, outcomes):
            write.settle(value, error)

    def _error(self, exc: Exception) -> Exception:
        if isinstance(exc, sqlite3.Error):
            return StorageError(f"could not write to the database {self.path}: {exc}")
        return exc

    def close(self) -> None:
        """Write everything queued, then close (it waits on the disk: call it at the end,
        or from a thread)."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(_STOP)
        self._writer.join()
        self._readers.submit(self._close_reader).result()
        self._readers.shutdown(wait=True)

    # --- the reader -------------------------------------------------------------------------

    def _read(self, query: Callable[[sqlite3.Connection], Any]) -> Awaitable[Any]:
        return asyncio.get_running_loop().run_in_executor(self._readers, self._in_reader, query)

    def _in_reader(self, query: Callable[[sqlite3.Connection], Any]) -> Any:
        if self._reader_db is None:
            self._reader_db = _connect(self.path)
            self._reader_db.execute("PRAGMA query_only = 1")
        try:
            return query(self._reader_db)
        except sqlite3.Error as exc:
            raise StorageError(f"could not read the database {self.path}: {exc}") from None

    def _close_reader(self) -> None:
        if self._reader_db is not None:
            self._reader_db.close()
            self._reader_db = None

    # --- writes: each returns an awaitable, and is queued at once ------------------------------

    def seen(self, person: str, name: str, language: str) -> Awaitable[None]:
        """``person`` logged in as ``name``, reading ``language``."""
        now = _now()
        return self._write(_statement(
            """INSERT INTO players (person, name, language, first_seen, last_seen)
               VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (person) DO UPDATE SET name = excluded.name,
                   language = excluded.language, last_seen = excluded.last_seen""",
            (person, name, language, now, now)))

    def choose_language(self, person: str, name: str, language: str) -> Awaitable[None]:
        """``person`` (logged in as ``name``) chose ``language``: kept for their next
        logins (:meth:`chosen_language`), whatever their terminal's locale."""
        now = _now()
        return self._write(_statement(
            """INSERT INTO players (person, name, language, first_seen, last_seen,
                                    chosen_language) VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (person) DO UPDATE SET name = excluded.name,
                   language = excluded.language, last_seen = excluded.last_seen,
                   chosen_language = excluded.chosen_language""",
            (person, name, language, now, now, language)))

    def save_table(self, table_id: str, name: str, settings: Any, snapshot: Any) -> Awaitable[None]:
        """Keep (or replace) the state of a table in progress; ``settings`` and
        ``snapshot`` are anything JSON can hold (handed over: see the module docstring),
        given back as they are."""
        now = _now()

        def run(db: sqlite3.Connection) -> None:
            db.execute(
                """INSERT INTO open_tables (id, name, settings, snapshot, updated, choices)
                   VALUES (?, ?, ?, ?, ?, NULL)
                   ON CONFLICT (id) DO UPDATE SET name = excluded.name,
                       settings = excluded.settings, snapshot = excluded.snapshot,
                       updated = excluded.updated, choices = NULL""",
                (table_id, name, _json(settings), _json(snapshot), now))

        return self._write(run)

    def save_table_choices(self, table_id: str, choices: Any) -> Awaitable[None]:
        """Keep what changed in a table since its last :meth:`save_table` (anything JSON
        can hold, handed over), given back with it until the next one replaces both: the
        game's progress since the snapshot, a few hundred bytes where the snapshot is
        kilobytes. Nothing is kept for a table never saved."""
        now = _now()
        return self._write(_statement(
            "UPDATE open_tables SET choices = ?, updated = ? WHERE id = ?",
            (_json(choices), now, table_id)))

    def drop_table(self, table_id: str) -> Awaitable[None]:
        """Forget a table that is no longer in progress."""
        return self._write(_statement("DELETE FROM open_tables WHERE id = ?", (table_id,)))

    def start_game(self, table: str, rules: str, started: datetime, seats: Sequence[Sitter],
                   record: dict | None = None) -> Awaitable[int]:
        """A new game at ``table``, with who sits in each seat (in seat order) and its
        record so far (handed over); resolves to the game's id."""
        sitters = list(seats)
        when = _time(started)
        return self._write(lambda db: _new_game(db, table, rules, when, sitters, record))

    def keep_game(self, kept_as: tuple[str, int], table: str, rules: str, started: datetime,
                  seats: Sequence[Sitter], record: dict,
                  places: Sequence[int] | None = None) -> Awaitable[Kept]:
        """Keep game ``kept_as`` (its table's id, as the open tables know it, and its
        number at that table) in one transaction: its row made if it has none yet (as
        :meth:`start_game`), then its ``record`` (handed over) kept as far as it has gone,
        or, given each seat's ``places``, the game finished (as :meth:`finish_game`).
        Resolves to the game's id, and whether it was finished already (:class:`Kept`).

        A game finished already is left as it is: a server stopped after a game ended
        but before its table was saved ends that game again when it starts, and a game
        saved at a stop is kept again, under the same row, as it goes on after it."""
        sitters = list(seats)
        when = _time(started)
        ended = None if places is None else _ended(record)

        def run(db: sqlite3.Connection) -> Kept:
            row = db.execute("SELECT id, finished FROM games WHERE table_id = ? AND number = ?",
                             kept_as).fetchone()
            if row is None:
                row = _kept_unmarked(db, kept_as, table, when)
            if row is None:
                game_id = _new_game(db, table, rules, when, sitters, {}, kept_as)
            elif row[1]:
                return Kept(int(row[0]), already=True)
            else:
                game_id = int(row[0])
            if places is None:
                db.execute("UPDATE games SET record = ? WHERE id = ?", (_json(record), game_id))
            else:
                _finish(db, game_id, record, places, ended)
            return Kept(game_id)

        return self._write(run)

    def save_game(self, game_id: int, record: dict) -> Awaitable[None]:
        """Replace the record of a game in progress with ``record`` (it has grown;
        handed over)."""
        def run(db: sqlite3.Connection) -> None:
            _unfinished(db, game_id)
            db.execute("UPDATE games SET record = ? WHERE id = ?", (_json(record), game_id))

        return self._write(run)

    def finish_game(self, game_id: int, record: dict, places: Sequence[int]) -> Awaitable[None]:
        """The game has ended: its final ``record`` and each seat's place (1 the best,
        ties sharing one); the ratings of its players change in the same transaction.
        The record is handed over."""
        ended = _ended(record)

        def run(db: sqlite3.Connection) -> None:
            _unfinished(db, game_id)
            _finish(db, game_id, record, places, ended)

        return self._write(run)

    def save_ban(self, ban: SavedSanction) -> Awaitable[None]:
        """Keep ``ban`` (replacing any ban of the same key or address)."""
        return self._save_sanction("bans", ban)

    def drop_ban(self, kind: str, value: str) -> Awaitable[None]:
        """Forget the ban of a key or an address (lifted, or over)."""
        return self._drop_sanction("bans", kind, value)

    def save_mute(self, mute: SavedSanction) -> Awaitable[None]:
        """Keep ``mute`` (replacing any mute of the same key or guests' address)."""
        return self._save_sanction("mutes", mute)

    def drop_mute(self, kind: str, value: str) -> Awaitable[None]:
        """Forget the mute of a key or of guests' address (lifted, or over)."""
        return self._drop_sanction("mutes", kind, value)

    def _save_sanction(self, table: str, entry: SavedSanction) -> Awaitable[None]:
        # ``table`` is one of this module's own names ("bans", "mutes"), never a caller's
        # text: the two tables have the same columns.
        return self._write(_statement(
            f"""INSERT INTO {table} (kind, value, until, reason, by, made)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (kind, value) DO UPDATE SET until = excluded.until,
                    reason = excluded.reason, by = excluded.by, made = excluded.made""",
            (entry.kind, entry.value, entry.until, entry.reason, entry.by, entry.made)))

    def _drop_sanction(self, table: str, kind: str, value: str) -> Awaitable[None]:
        return self._write(_statement(f"DELETE FROM {table} WHERE kind = ? AND value = ?",
                                      (kind, value)))

    def save_report(self, report: SavedReport) -> Awaitable[int]:
        """Keep a new report; resolves to its id."""
        def run(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                """INSERT INTO reports (made, table_name, reporter_name, reporter_kind,
                       reporter_value, reported_name, reported_kind, reported_value, reason,
                       evidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (report.made, report.table, report.reporter_name, report.reporter_kind,
                 report.reporter_value, report.reported_name, report.reported_kind,
                 report.reported_value, report.reason, _json(list(report.evidence))))
            return int(cursor.lastrowid or 0)

        return self._write(run)

    def dismiss_report(self, report_id: int, by: str) -> Awaitable[None]:
        """Mark a report dismissed now by the admin ``by`` (kept, no longer open)."""
        return self._write(_statement(
            "UPDATE reports SET dismissed = ?, dismissed_by = ? WHERE id = ?",
            (_now(), by, report_id)))

    # --- reads --------------------------------------------------------------------------------

    async def open_reports(self) -> list[SavedReport]:
        """Every report not dismissed, oldest first."""
        rows = await self._read(lambda db: db.execute(
            """SELECT id, made, table_name, reporter_name, reporter_kind, reporter_value,
                      reported_name, reported_kind, reported_value, reason, evidence
               FROM reports WHERE dismissed IS NULL ORDER BY made, id""").fetchall())
        return [SavedReport(*row[:10], tuple(json.loads(row[10]))) for row in rows]

    async def reports_made_since(self, since: str) -> list[tuple[str, str, str, str, str]]:
        """Who reported whom from ``since`` (UTC, as reports keep ``made``) on, dismissed
        or not, oldest first: ``made``, the reporter's kind and value, the reported
        person's kind and value (what a person's reports within the hour are counted
        from, after a restart)."""
        rows = await self._read(lambda db: db.execute(
            """SELECT made, reporter_kind, reporter_value, reported_kind, reported_value
               FROM reports WHERE made >= ? ORDER BY made, id""", (since,)).fetchall())
        return [tuple(row) for row in rows]

    async def bans(self) -> list[SavedSanction]:
        """Every ban kept (those over included), oldest first."""
        return await self._sanctions("bans")

    async def mutes(self) -> list[SavedSanction]:
        """Every mute kept (those over included), oldest first."""
        return await self._sanctions("mutes")

    async def _sanctions(self, table: str) -> list[SavedSanction]:
        # ``table`` is one of this module's own names, as for _save_sanction.
        def read(db: sqlite3.Connection) -> list:
            # A database read as it is (``diamant bans`` beside an older server, before
            # the upgrade at the next start) may predate the table: it has none of them.
            if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                              "name = ?", (table,)).fetchone():
                return []
            return db.execute(f"SELECT kind, value, until, reason, by, made FROM {table} "
                              f"ORDER BY made, rowid").fetchall()

        rows = await self._read(read)
        return [SavedSanction(*row) for row in rows]

    async def tables_in_progress(self) -> list[SavedTable]:
        """Every table saved and not dropped, oldest first."""
        rows = await self._read(lambda db: db.execute(
            "SELECT id, name, settings, snapshot, updated, choices FROM open_tables "
            "ORDER BY rowid").fetchall())
        return [SavedTable(i, n, json.loads(s), json.loads(p), u,
                           None if c is None else json.loads(c))
                for i, n, s, p, u, c in rows]

    async def game_record(self, game_id: int) -> dict | None:
        """The record of game ``game_id`` (its ``meta`` included), if there is such a game."""
        if not 0 < game_id <= MAX_ID:
            return None  # no such id, and SQLite could not even be asked (OverflowError)
        row = await self._read(lambda db: db.execute(
            "SELECT record FROM games WHERE id = ?", (game_id,)).fetchone())
        return None if row is None else json.loads(row[0])

    async def chosen_language(self, person: str) -> str | None:
        """The language ``person`` last chose in the lobby, if they ever did."""
        row = await self._read(lambda db: db.execute(
            "SELECT chosen_language FROM players WHERE person = ?", (person,)).fetchone())
        return None if row is None else row[0]

    async def games(self, limit: int | None = None) -> list[GameSummary]:
        """The games kept, the latest first (all of them, or the last ``limit``)."""
        def query(db: sqlite3.Connection) -> list[GameSummary]:
            rows = db.execute(
                "SELECT id, table_name, rules, started, ended, finished FROM games "
                "ORDER BY id DESC LIMIT ?", (-1 if limit is None else limit,)).fetchall()
            return _summaries(db, rows)

        return await self._read(query)

    async def history(self, person: str, limit: int = 20) -> list[PastGame]:
        """The last ``limit`` games ``person`` sat at, the latest first."""
        def query(db: sqlite3.Connection) -> list[PastGame]:
            rows = db.execute(
                """SELECT g.id, g.table_name, g.rules, g.started, g.ended, g.finished,
                          s.seat, s.score, s.place
                   FROM seats s JOIN games g ON g.id = s.game_id
                   WHERE s.person = ? ORDER BY g.id DESC LIMIT ?""",
                (person, limit)).fetchall()
            games = _summaries(db, [row[:6] for row in rows])
            return [PastGame(game, *row[6:]) for game, row in zip(games, rows)]

        return await self._read(query)

    async def games_of(self, person: str) -> int:
        """How many games ``person`` sat at, finished or not (all of them, where
        :meth:`history` gives the last few)."""
        row = await self._read(lambda db: db.execute(
            "SELECT count(*) FROM seats WHERE person = ?", (person,)).fetchone())
        return int(row[0])

    async def standing_of(self, who: str) -> Standing | None:
        """``who``'s own line of the leaderboard, wherever it falls (its rank shared with
        equal ratings, as :meth:`leaderboard` shares it); None if they are not rated, or
        banned now."""
        now = _time(datetime.now(timezone.utc))

        def query(db: sqlite3.Connection) -> tuple | None:
            row = db.execute(
                f"""SELECT p.name, r.mu, r.sigma, r.games, r.wins FROM ratings r
                    LEFT JOIN players p ON p.person = r.who
                    WHERE r.who = ? AND r.{_NOT_BANNED}""", (who, now)).fetchone()
            if row is None:
                return None
            # Above it: every rating shown higher (beyond the rounding that makes equal
            # ratings share a place), banned keys left out as the leaderboard leaves them.
            above = db.execute(
                f"""SELECT count(*) FROM ratings
                    WHERE mu - 3 * sigma > ? + 1e-9 AND {_NOT_BANNED}""",
                (row[1] - 3 * row[2], now)).fetchone()[0]
            return (above + 1, *row)

        found = await self._read(query)
        if found is None:
            return None
        rank, name, mu, sigma, games, wins = found
        return _standing(rank, who, name, Rating(mu, sigma, games, wins))

    async def leaderboard(self, limit: int = 20) -> list[Standing]:
        """The best ``limit`` ratings (people and computer levels), by the estimate shown.

        A key banned now is left out (its games still count for the others): a public
        room does not show someone its admins have sent away at the top of its list."""
        now = _time(datetime.now(timezone.utc))
        rows = await self._read(lambda db: db.execute(
            f"""SELECT r.who, p.name, r.mu, r.sigma, r.games, r.wins, p.rowid
                FROM ratings r LEFT JOIN players p ON p.person = r.who
                WHERE r.{_NOT_BANNED}
                ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.who LIMIT ?""",
            (now, limit)).fetchall())
        standings: list[Standing] = []
        for place, (who, name, mu, sigma, games, wins, arrival) in enumerate(rows, start=1):
            rating = Rating(mu, sigma, games, wins)
            # Equal ratings share a place (1, 1, 3): the order of two equal lines is
            # only the order they are listed in, not a ranking.
            last = standings[-1] if standings else None
            rank = last.rank if last is not None and math.isclose(
                last.rating.shown, rating.shown, rel_tol=1e-9, abs_tol=1e-9) else place
            standings.append(_standing(rank, who, name, rating, arrival or 0))
        return standings


# --- the database's files ---------------------------------------------------------------

def database_file(target: Path, folder: Path) -> str | None:
    """Which of the files of the database in ``folder`` ``target`` is, if it is one
    (``the database``, ``the database's -wal file``...), else None.

    Compared as files, not as names: ``target`` may reach one of them by a relative path,
    a symbolic link to the file or to a folder above it, or a hard link. A companion file
    that does not exist yet is compared by its real path: SQLite may make it at any time.
    """
    database = Path(folder) / DATABASE
    candidates = [("the database", database)] + [
        (f"the database's {suffix} file", database.with_name(DATABASE + suffix))
        for suffix in COMPANIONS]
    resolved = os.path.realpath(target)
    for which, candidate in candidates:
        if resolved == os.path.realpath(candidate):
            return which
        try:
            if os.path.samefile(target, candidate):  # a hard link: another name, one file
                return which
        except OSError:
            pass  # one of them does not exist: not the same file
    return None


def refused_target(target: Path, which: str, database: Path,
                   role: str = "being copied") -> str:
    """Why a file (a backup, an exported game) cannot be written to ``target``, one of
    the files of ``database``; ``role`` says what the command does with the database."""
    return (f"{target} is {which} {role} ({database}): writing over it would lose "
            f"what the server saves; choose a file outside its data folder")


# --- helpers (run in the writer's or the reader's thread) -----------------------------------

def _statement(sql: str, parameters: tuple) -> Callable[[sqlite3.Connection], None]:
    """A write that is one statement."""
    def run(db: sqlite3.Connection) -> None:
        db.execute(sql, parameters)

    return run


_NOT_BANNED = """who NOT IN (SELECT 'key:' || value FROM bans
                             WHERE kind = 'key' AND (until IS NULL OR until > ?))"""
"""A rating's ``who`` is no key banned now (the time given as the parameter): the
leaderboard leaves those out."""


def _standing(rank: int, who: str, name: str | None, rating: Rating,
              arrival: int = 0) -> Standing:
    """A line of the leaderboard: a person under the name they were last seen with, a
    computer level under its own."""
    computer = who.startswith(BOT_PREFIX)
    shown = who.removeprefix(BOT_PREFIX) if computer else (name or who)
    return Standing(rank, who, shown, computer, rating, arrival)


def _ended(record: dict) -> str:
    """When a finished game ended, as its record's ``meta`` says, else now."""
    return record.get("meta", {}).get("ended") or _now()


def _kept_unmarked(db: sqlite3.Connection, kept_as: tuple[str, int], table: str,
                   started: str) -> tuple[int, int] | None:
    """The row (id, finished) in which a Diamant before schema 7 kept this game, if it
    did: known by no table, but by its table's name and its start (to the second; one
    table starts no two games in one). Marked as this game from now on, so that a table
    rebuilt from a save that Diamant made (at its final scores, or with the game saved
    as far as it went at its stop) ends or goes on in that row, not in a second one
    rated again."""
    row = db.execute("SELECT id, finished FROM games WHERE table_id IS NULL AND "
                     "table_name = ? AND started = ? ORDER BY id DESC LIMIT 1",
                     (table, started)).fetchone()
    if row is not None:
        db.execute("UPDATE games SET table_id = ?, number = ? WHERE id = ?",
                   (*kept_as, row[0]))
    return row


def _new_game(db: sqlite3.Connection, table: str, rules: str, started: str,
              sitters: Sequence[Sitter], record: dict | None,
              kept_as: tuple[str, int] | None = None) -> int:
    """Insert a game and its seats; returns its id."""
    table_id, number = kept_as if kept_as is not None else (None, None)
    game_id = db.execute(
        "INSERT INTO games (table_name, rules, started, record, table_id, number) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (table, rules, started, _json(record if record is not None else {}), table_id,
         number)).lastrowid
    assert game_id is not None
    db.executemany(
        "INSERT INTO seats (game_id, seat, name, person, computer) VALUES (?, ?, ?, ?, ?)",
        [(game_id, i, s.name, s.person, s.computer) for i, s in enumerate(sitters)])
    return game_id


def _finish(db: sqlite3.Connection, game_id: int, record: dict, places: Sequence[int],
            ended: str) -> None:
    """Finish a game not finished yet: its final record, each seat's place and score,
    and the ratings of its players changed."""
    scores = record.get("result", {}).get("scores", {})
    players = record.get("players", [])
    places = list(places)
    seats = db.execute("SELECT count(*) FROM seats WHERE game_id = ?", (game_id,)).fetchone()[0]
    if seats != len(places):
        raise StorageError(f"game {game_id} has {seats} seats, not {len(places)}")
    db.execute("UPDATE games SET record = ?, ended = ?, finished = 1 WHERE id = ?",
               (_json(record), ended, game_id))
    db.executemany(
        "UPDATE seats SET place = ?, score = ? WHERE game_id = ? AND seat = ?",
        [(place, scores.get(players[i]) if i < len(players) else None, game_id, i)
         for i, place in enumerate(places)])
    _rate(db, game_id)


def _unfinished(db: sqlite3.Connection, game_id: int) -> None:
    row = db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise StorageError(f"there is no game {game_id}")
    if row[0]:
        raise StorageError(f"game {game_id} has finished already")


def _rate(db: sqlite3.Connection, game_id: int) -> None:
    """Change the ratings of the players of finished game ``game_id``."""
    seats = db.execute("SELECT person, computer, place FROM seats WHERE game_id = ? "
                       "ORDER BY seat", (game_id,)).fetchall()
    if any(place is None for _, _, place in seats):
        return
    names = [rated_as(person, computer) for person, computer, _ in seats]
    current = {}
    for name in set(filter(None, names)):
        row = db.execute("SELECT mu, sigma, games, wins FROM ratings WHERE who = ?",
                         (name,)).fetchone()
        current[name] = Rating(*row) if row else None
    new = rate_game([(name, current.get(name)) for name in names],
                    [place for _, _, place in seats])
    db.executemany(
        """INSERT INTO ratings (who, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (who) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
               games = excluded.games, wins = excluded.wins""",
        [(name, r.mu, r.sigma, r.games, r.wins) for name, r in sorted(new.items())])


def _summaries(db: sqlite3.Connection, rows: list[tuple]) -> list[GameSummary]:
    """Game summaries from ``(id, table, rules, started, ended, finished)`` rows."""
    players: dict[int, list[str]] = {}
    ids = sorted({row[0] for row in rows})
    for start in range(0, len(ids), 500):  # SQLite allows only so many parameters
        part = ids[start:start + 500]
        marks = ", ".join("?" * len(part))
        for game_id, name in db.execute(
                f"SELECT game_id, name FROM seats WHERE game_id IN ({marks}) "
                f"ORDER BY game_id, seat", part):
            players.setdefault(game_id, []).append(name)
    return [GameSummary(i, t, r, s, e, bool(f), tuple(players.get(i, ())))
            for i, t, r, s, e, f in rows]


def _rename_new(temporary: Path, target: Path) -> None:
    """Give ``temporary`` the name ``target``, which must not exist (FileExistsError)."""
    try:
        os.link(temporary, target)  # refused if target exists, even if made meanwhile
    except FileExistsError:
        raise
    except OSError:
        # A file system without hard links: check, then rename (a narrow race).
        if target.exists():
            raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _time(when: datetime) -> str:
    if when.tzinfo is None:
        raise ValueError("times kept in the database must carry their time zone")
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _now() -> str:
    return _time(datetime.now(timezone.utc))
