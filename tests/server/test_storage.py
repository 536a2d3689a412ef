"""The server's database (server/storage.py), on real SQLite files: made on first start,
upgraded from older versions, refused when damaged, newer or not writable, and every
write on disk before it is reported done."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from diamant_server.folder_lock import LOCK_NAME
from diamant_server.ratings import Rating, rate_game
from diamant_server.storage import (
    DATABASE,
    MIGRATIONS,
    SCHEMA_VERSION,
    SavedSanction,
    Sitter,
    Storage,
    StorageError,
    migrate,
)

DIAMANT = [sys.executable, "-m", "diamant_tui"]
STARTED = datetime(2025, 3, 1, 18, 45, 2, tzinfo=timezone.utc)


def finished(players: list[str], scores: list[int]) -> dict:
    """A record's ending as the storage reads it (players and result)."""
    best = max(scores)
    return {"format": "diamant-record/1", "rules": "classic", "players": players,
            "rounds": [], "result": {"scores": dict(zip(players, scores)),
                                     "winners": [p for p, s in zip(players, scores) if s == best]}}


def rows(path: Path, table: str) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()


def pragma(path: Path, name: str):
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(f"PRAGMA {name}").fetchone()[0]


# --- opening ----------------------------------------------------------------------------------

def test_the_database_is_made_on_first_start_in_wal_mode(tmp_path):
    folder = tmp_path / "new" / "data"
    Storage.open(folder).close()
    path = folder / DATABASE
    assert pragma(path, "journal_mode") == "wal"
    assert pragma(path, "user_version") == SCHEMA_VERSION == 7
    Storage.open(folder).close()  # and opened again as it is
    assert pragma(path, "user_version") == SCHEMA_VERSION


def test_a_version_1_database_is_upgraded_and_keeps_every_row(tmp_path):
    """Version 1 had players, tables and games; version 2 adds ratings, worked out from
    the games that had finished."""
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, upto=1)
        db.execute("INSERT INTO players VALUES ('key:SHA256:ann', 'ann', 'fr', "
                   "'2025-03-01T18:00:00Z', '2025-03-02T18:00:00Z')")
        db.execute("INSERT INTO open_tables VALUES ('t1', 'cave', '{\"seats\": 3}', "
                   "'{\"deck\": [\"T5\"]}', '2025-03-02T18:00:00Z')")
        for game, done in ((1, 1), (2, 0)):
            db.execute("INSERT INTO games VALUES (?, 'cave', 'classic', '2025-03-01T18:00:00Z', "
                       "?, '{\"format\": \"diamant-record/1\"}', ?)",
                       (game, "2025-03-01T18:30:00Z" if done else None, done))
            sitters = [("ann", "key:SHA256:ann", None), ("Ana", None, "carry:20"),
                       ("gus", None, None)]
            for seat, (name, person, computer) in enumerate(sitters):
                db.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (game, seat, name, person, computer,
                            (9, 4, 4)[seat] if done else None, (1, 2, 2)[seat] if done else None))
    assert pragma(path, "user_version") == 1
    before = {table: rows(path, table) for table in ("players", "open_tables", "games", "seats")}

    Storage.open(tmp_path).close()

    assert pragma(path, "user_version") == SCHEMA_VERSION
    for table, kept in before.items():
        if table == "open_tables":  # with no choices saved since their snapshots
            kept = [row + (None,) for row in kept]
        if table == "games":  # not known as a table's game (version 7)
            kept = [row + (None, None) for row in kept]
        if table == "players":  # no language chosen (version 7)
            kept = [row + (None,) for row in kept]
        assert rows(path, table) == kept, table
    expected = rate_game([("key:SHA256:ann", None), ("bot:carry", None), (None, None)], [1, 2, 2])
    assert rows(path, "ratings") == [
        (who, r.mu, r.sigma, r.games, r.wins) for who, r in sorted(expected.items())]


def test_a_migration_that_fails_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, upto=1)

    def broken(db: sqlite3.Connection) -> None:
        MIGRATIONS[1](db)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr("diamant_server.storage.MIGRATIONS", (MIGRATIONS[0], broken))
    with pytest.raises(StorageError, match="disk I/O error"):
        Storage.open(tmp_path)
    assert pragma(path, "user_version") == 1
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'ratings'").fetchall()


def serve(data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*DIAMANT, "serve", "--data-dir", str(data), "--port", "0",
                           "--host", "127.0.0.1"], capture_output=True, text=True, timeout=60)


def test_a_damaged_database_is_refused_in_one_line_and_left_as_it_was(tmp_path):
    path = tmp_path / DATABASE
    garbage = bytes(range(256)) * 64
    path.write_bytes(garbage)
    with pytest.raises(StorageError) as refused:
        Storage.open(tmp_path)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)
    assert "restore it from a backup or move it away" in str(refused.value)
    bad = serve(tmp_path)
    assert bad.returncode == 1
    [line] = bad.stderr.strip().splitlines()
    assert line.startswith(f"Error starting server: the database {path} cannot be used")
    assert path.read_bytes() == garbage
    # Nothing made beside it but the lock a server holds on its folder while it runs.
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([DATABASE, LOCK_NAME])


def test_a_database_from_a_newer_version_is_refused(tmp_path):
    Storage.open(tmp_path).close()
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    kept = path.read_bytes()
    with pytest.raises(StorageError, match=rf"the database {path} was made by a newer version "
                                           rf"of Diamant \(schema version {SCHEMA_VERSION + 1}; "
                                           rf"this one knows up to {SCHEMA_VERSION}\); "
                                           rf"upgrade Diamant"):
        Storage.open(tmp_path)
    assert path.read_bytes() == kept


def test_another_programs_sqlite_database_is_refused(tmp_path):
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StorageError, match="an SQLite database but not a Diamant one"):
        Storage.open(tmp_path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["notes"]


@contextlib.contextmanager
def read_only(where: Path):
    """A folder or file that cannot be written while inside: by its mode, or for root
    (whom modes do not stop) by the immutable attribute, where the file system has it."""
    if os.geteuid() != 0:
        mode = where.stat().st_mode
        where.chmod(0o500 if where.is_dir() else 0o400)
        undo = lambda: where.chmod(mode)  # noqa: E731
    else:
        if shutil.which("chattr") is None or subprocess.run(
                ["chattr", "+i", str(where)], capture_output=True).returncode:
            pytest.skip("root writes anywhere here (no immutable attribute)")
        undo = lambda: subprocess.run(["chattr", "-i", str(where)], check=True)  # noqa: E731
    try:
        yield
    finally:
        undo()


def test_a_data_folder_that_cannot_be_written_is_refused(tmp_path):
    empty, used = tmp_path / "empty", tmp_path / "used"
    empty.mkdir()
    Storage.open(used).close()
    with read_only(empty), read_only(used):
        for folder in (empty, used):
            with pytest.raises(StorageError, match=rf"the data folder {folder} cannot be "
                                                   rf"written .*--data-dir"):
                Storage.open(folder)
        bad = serve(empty)
    assert bad.returncode == 1
    [line] = bad.stderr.strip().splitlines()
    assert f"the data folder {empty} cannot be written" in line
    assert list(empty.iterdir()) == []


def test_a_database_file_that_cannot_be_written_is_refused(tmp_path):
    Storage.open(tmp_path).close()
    path = tmp_path / DATABASE
    kept = path.read_bytes()
    with read_only(path):
        with pytest.raises(StorageError, match=rf"the database {path} cannot be written "
                                               rf"\(attempt to write a readonly database\); "
                                               rf"make it writable"):
            Storage.open(tmp_path)
    assert path.read_bytes() == kept



def test_a_database_in_a_folder_that_cannot_be_written_is_not_called_damaged(tmp_path):
    """SQLite writes beside a database (its -wal and -shm files) even to read it, so
    `diamant export` or `diamant backup` run by a user who may not write in the data
    folder cannot open it: they said it "cannot be used" and to restore it from a backup
    or move it away, advice that loses a good database. They say what to check instead,
    and leave it as it is."""
    data = tmp_path / "data"
    Storage.open(data).close()
    kept = (data / DATABASE).read_bytes()
    with read_only(data):
        with pytest.raises(StorageError) as refused:
            Storage.open(data, create=False)
        done = subprocess.run([*DIAMANT, "export", "--data-dir", str(data), "--list"],
                              capture_output=True, text=True, timeout=60)
    said = str(refused.value)
    assert said == (f"the database {data / DATABASE} cannot be opened (unable to open "
                    f"database file): SQLite writes its -wal and -shm files beside it even "
                    f"to read it; check that this user may read it and write in {data} (the "
                    f"user the server runs as may), or start with another --data-dir")
    assert "backup" not in said
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"diamant export: {said}\n"
    assert (data / DATABASE).read_bytes() == kept

# --- writing ------------------------------------------------------------------------------------

async def test_writes_from_many_tasks_all_land_each_reported_only_once_on_disk(tmp_path):
    storage = Storage.open(tmp_path)
    path = tmp_path / DATABASE
    other = sqlite3.connect(path)  # another connection sees only what is committed
    seen_early = []

    def check(table_id: str):
        def done(future: asyncio.Future) -> None:
            row = other.execute("SELECT snapshot FROM open_tables WHERE id = ?",
                                (table_id,)).fetchone()
            if row is None:
                seen_early.append(table_id)
        return done

    async def one(n: int) -> None:
        await asyncio.sleep(0)
        write = storage.save_table(f"t{n}", f"cave-{n}", {"seats": 3}, {"n": n, "name": "Ærø"})
        write.add_done_callback(check(f"t{n}"))
        await write

    try:
        before = storage.transactions
        await asyncio.gather(*(one(n) for n in range(200)))
        assert seen_early == [], "reported done before it was committed"
        assert other.execute("SELECT count(*) FROM open_tables").fetchone()[0] == 200
        assert storage.transactions - before < 20, "queued writes share transactions"
        saved = await storage.tables_in_progress()
        assert [(t.id, t.snapshot) for t in saved] == [
            (f"t{n}", {"n": n, "name": "Ærø"}) for n in range(200)]
    finally:
        other.close()
        storage.close()


async def test_a_write_that_fails_fails_alone(tmp_path):
    storage = Storage.open(tmp_path)
    try:
        first = storage.save_table("a", "cave-a", {}, {"step": 1})
        wrong = storage.save_game(404, {"format": "diamant-record/1"})
        second = storage.save_table("b", "cave-b", {}, {"step": 1})
        await first
        with pytest.raises(StorageError, match="there is no game 404"):
            await wrong
        await second
        assert [t.id for t in await storage.tables_in_progress()] == ["a", "b"]
    finally:
        storage.close()


async def test_closing_writes_everything_queued(tmp_path):
    storage = Storage.open(tmp_path)
    writes = [storage.save_table(f"t{n}", "cave", {}, {"n": n}) for n in range(50)]
    storage.close()
    await asyncio.gather(*writes)
    with pytest.raises(StorageError, match="is closed"):
        await storage.drop_table("t1")
    assert len(rows(tmp_path / DATABASE, "open_tables")) == 50


async def test_a_tables_choices_are_kept_with_its_snapshot_until_the_next_one(tmp_path):
    storage = Storage.open(tmp_path)
    try:
        await storage.save_table_choices("t0", {"pending": {"0": "leave"}})  # no such table
        await storage.save_table("t1", "cave", {}, {"step": 1})
        [one] = await storage.tables_in_progress()
        assert one.choices is None
        await storage.save_table_choices("t1", {"turn": [0, 1, 1], "pending": {"0": "leave"}})
        await storage.save_table_choices("t1", {"turn": [0, 1, 1],
                                                "pending": {"0": "leave", "2": "continue"}})
        [one] = await storage.tables_in_progress()
        assert (one.id, one.snapshot) == ("t1", {"step": 1})
        assert one.choices == {"turn": [0, 1, 1], "pending": {"0": "leave", "2": "continue"}}
        # The next snapshot holds them: they go with it.
        await storage.save_table("t1", "cave", {}, {"step": 2})
        [one] = await storage.tables_in_progress()
        assert (one.snapshot, one.choices) == ({"step": 2}, None)
    finally:
        storage.close()


async def test_a_table_is_saved_in_place_given_back_as_given_and_dropped(tmp_path):
    storage = Storage.open(tmp_path)
    try:
        await storage.save_table("t1", "cave", {"rules": "relics"}, {"deck": ["T5", "R"]})
        await storage.save_table("t1", "cave", {"rules": "relics"}, {"deck": ["R"], "made": [1]})
        await storage.save_table("t2", "den", {}, [])
        [one, two] = await storage.tables_in_progress()
        assert (one.id, one.name, one.settings, one.snapshot) == (
            "t1", "cave", {"rules": "relics"}, {"deck": ["R"], "made": [1]})
        assert (two.id, two.snapshot) == ("t2", [])
        await storage.drop_table("t1")
        assert [t.id for t in await storage.tables_in_progress()] == ["t2"]
    finally:
        storage.close()


async def test_players_are_noted_when_they_come_and_come_back(tmp_path):
    storage = Storage.open(tmp_path)
    try:
        await storage.seen("key:SHA256:ann", "ann", "en")
        await storage.seen("key:SHA256:ann", "anna", "uk")
        assert await storage.chosen_language("key:SHA256:ann") is None, "seen, not chosen"
        await storage.choose_language("key:SHA256:ann", "anna", "es")
        await storage.seen("key:SHA256:ann", "anna", "fr")  # a French terminal, later
        assert await storage.chosen_language("key:SHA256:ann") == "es"
        assert await storage.chosen_language("key:SHA256:bob") is None
    finally:
        storage.close()
    [(person, name, language, first, last, chosen)] = rows(tmp_path / DATABASE, "players")
    assert (person, name, language, chosen) == ("key:SHA256:ann", "anna", "fr", "es")
    assert first <= last


# --- games, history and the leaderboard ----------------------------------------------------

ANN, BOB, CY = "key:SHA256:ann", "key:SHA256:bob", "key:SHA256:cy"


async def play(storage: Storage, seats: list[Sitter], scores: list[int], places) -> int:
    game = await storage.start_game("cave", "classic", STARTED, seats,
                                    {"format": "diamant-record/1", "rounds": []})
    await storage.save_game(game, {"format": "diamant-record/1", "rounds": [{"cards": ["T5"]}]})
    await storage.finish_game(game, finished([s.name for s in seats], scores), places)
    return game


async def test_history_and_leaderboard_after_games_with_ties(tmp_path):
    storage = Storage.open(tmp_path)
    try:
        for person, name in ((ANN, "ann"), (BOB, "bob"), (CY, "cy")):
            await storage.seen(person, name, "en")
        people = [Sitter("ann", ANN), Sitter("bob", BOB), Sitter("cy", CY)]
        # Game 1: ann and bob, equal newcomers, tie for first.
        one = await play(storage, people, [12, 12, 3], [1, 1, 3])
        board = {s.who: s for s in await storage.leaderboard()}
        assert board[ANN].rating == board[BOB].rating, "a tie: equal changes to equal players"
        assert board[ANN].rating.wins == board[BOB].rating.wins == 1
        assert board[CY].rating.mu < Rating().mu < board[ANN].rating.mu
        # Game 2: a guest and two computer players of one level join ann.
        two = await play(storage, [Sitter("ann", ANN), Sitter("gus"),
                                   Sitter("Ana", computer="carry:20"),
                                   Sitter("Bruno", computer="carry:30")],
                         [5, 9, 9, 0], [3, 1, 1, 4])
        # Game 3: cy wins alone.
        three = await play(storage, people, [1, 2, 30], [3, 2, 1])
        board = await storage.leaderboard()
        assert [s.rank for s in board] == [1, 2, 3, 4]
        assert {s.who for s in board} == {ANN, BOB, CY, "bot:carry"}, "guests are not rated"
        shown = [s.rating.shown for s in board]
        assert shown == sorted(shown, reverse=True)
        carry = next(s for s in board if s.computer)
        assert (carry.name, carry.rating.games, carry.rating.wins) == ("carry", 1, 1)
        assert {s.who: (s.rating.games, s.rating.wins) for s in board if not s.computer} == {
            ANN: (3, 1), BOB: (2, 1), CY: (2, 1)}
        assert {s.who: s.name for s in board} == {ANN: "ann", BOB: "bob", CY: "cy",
                                                  "bot:carry": "carry"}

        history = await storage.history(ANN)
        assert [(h.game.id, h.seat, h.score, h.place) for h in history] == [
            (three, 0, 1, 3), (two, 0, 5, 3), (one, 0, 12, 1)]
        assert history[1].game.players == ("ann", "gus", "Ana", "Bruno")
        assert all(h.game.finished and h.game.table == "cave" for h in history)
        assert await storage.history("key:SHA256:nobody") == []
        assert (await storage.game_record(two))["result"]["scores"]["gus"] == 9
        with pytest.raises(StorageError, match="has finished already"):
            await storage.finish_game(one, finished(["ann", "bob", "cy"], [1, 1, 1]), [1, 1, 1])
    finally:
        storage.close()


async def test_equal_ratings_share_their_place_on_the_leaderboard(tmp_path):
    """Ann and bob, newcomers who tie for first, have the same rating: they share the
    first place (they read 1 and 2 before, the order of two equal lines taken for a
    ranking); cy, behind them, is third."""
    storage = Storage.open(tmp_path)
    try:
        people = [Sitter("ann", ANN), Sitter("bob", BOB), Sitter("cy", CY)]
        await play(storage, people, [12, 12, 3], [1, 1, 3])
        board = await storage.leaderboard()
        assert [(s.rank, s.who) for s in board] == [(1, ANN), (1, BOB), (3, CY)]
    finally:
        storage.close()


async def test_anyone_rated_reads_their_own_line_as_the_leaderboard_ranks_it(tmp_path):
    """Each person's own line, wherever it falls, is their line of the leaderboard
    (equal ratings sharing a place); nobody unrated, nor a key banned now, has one."""
    storage = Storage.open(tmp_path)
    try:
        people = [Sitter("ann", ANN), Sitter("bob", BOB), Sitter("cy", CY)]
        await play(storage, people, [12, 12, 3], [1, 1, 3])
        await play(storage, [Sitter("cy", CY), Sitter("carry", computer="carry:20")],
                   [9, 2], [1, 2])
        board = await storage.leaderboard()
        assert len(board) == 4
        for standing in board:
            assert await storage.standing_of(standing.who) == standing
        assert await storage.standing_of("key:SHA256:nobody") is None
        await storage.save_ban(SavedSanction("key", BOB.removeprefix("key:"), None, "x",
                                             "admin", STARTED.strftime("%Y-%m-%dT%H:%M:%SZ")))
        assert await storage.standing_of(BOB) is None
        for standing in await storage.leaderboard():  # the places without bob
            assert await storage.standing_of(standing.who) == standing
    finally:
        storage.close()


async def test_a_game_not_finished_is_in_the_history_without_a_place(tmp_path):
    storage = Storage.open(tmp_path)
    try:
        game = await storage.start_game("den", "relics", STARTED, [Sitter("ann", ANN)],
                                        {"format": "diamant-record/1", "rounds": []})
        [past] = await storage.history(ANN)
        assert (past.game.id, past.game.finished, past.place, past.score) == (
            game, False, None, None)
        assert past.game.started == "2025-03-01T18:45:02Z"
        assert await storage.leaderboard() == []
    finally:
        storage.close()


# --- a kill in the middle of a burst ----------------------------------------------------------

WRITER = """
import asyncio, sys
from datetime import datetime, timezone
from pathlib import Path
from diamant_server.storage import Sitter, Storage

async def main():
    storage = Storage.open(Path(sys.argv[1]))
    game = await storage.start_game("cave", "classic", datetime.now(timezone.utc),
                                    [Sitter("ann", "key:a")], {"rounds": []})
    step = 0
    while True:
        step += 1
        snapshot = {"step": step, "deck": ["T5"] * 30}
        await asyncio.gather(
            *(storage.save_table(f"t{n}", "cave", {}, snapshot) for n in range(100)),
            storage.save_game(game, {"rounds": [{"cards": ["T5"] * step}]}))
        print(step, flush=True)

asyncio.run(main())
"""


async def test_a_kill_during_a_burst_of_writes_leaves_a_whole_database(tmp_path):
    """Everything reported written is there after SIGKILL, and the file is whole."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WRITER, str(tmp_path), stdout=asyncio.subprocess.PIPE)
    try:
        durable = 0
        while durable < 30:
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line, "the writer stopped"
            durable = int(line)
    finally:
        proc.kill()
        await proc.wait()
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    storage = Storage.open(tmp_path)
    try:
        tables = await storage.tables_in_progress()
        assert len(tables) == 100
        assert min(t.snapshot["step"] for t in tables) >= durable
        record = await storage.game_record(1)
        assert len(record["rounds"][0]["cards"]) >= durable
    finally:
        storage.close()


async def test_a_key_banned_now_is_left_off_the_leaderboard(tmp_path):
    """While a ban on their key is in force a person is not listed (the others rank on
    without them); a ban that is over, or on an address, leaves them listed."""
    storage = Storage.open(tmp_path)
    try:
        people = [Sitter("ann", ANN), Sitter("bob", BOB), Sitter("cy", CY)]
        await play(storage, people, [30, 12, 3], [1, 2, 3])
        assert [s.who for s in await storage.leaderboard()] == [ANN, BOB, CY]
        await storage.save_ban(SavedSanction("key", "SHA256:ann", None, "cheat", "x", "2026-01-01T00:00:00Z"))
        await storage.save_ban(SavedSanction("key", "SHA256:bob", "2999-01-01T00:00:00Z", "spam", "x",
                                        "2026-01-01T00:00:00Z"))
        await storage.save_ban(SavedSanction("key", "SHA256:cy", "2000-01-01T00:00:00Z", "old", "x",
                                        "1999-01-01T00:00:00Z"))
        await storage.save_ban(SavedSanction("address", "key:SHA256:cy", None, "odd", "x",
                                        "2026-01-01T00:00:00Z"))
        board = await storage.leaderboard()
        assert [(s.rank, s.who) for s in board] == [(1, CY)]
        await storage.drop_ban("key", "SHA256:ann")
        assert [s.who for s in await storage.leaderboard()] == [ANN, CY]
    finally:
        storage.close()
