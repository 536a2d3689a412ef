"""A game is kept once, whatever stops the server: saved as far as it went at a stop and
finished after the restart, ended before a crash that came ahead of its table's last
save, or ended again after a crash that came ahead of the table's last save but after
the game's; and a table stopped at its final scores waits for its people. Real tables,
a real lobby, a real SQLite file."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from contextlib import closing

import pytest

from diamant_server import lobby as lobby_module
from diamant_server.lobby import Lobby
from diamant_server.storage import DATABASE, SCHEMA_VERSION, Storage, StorageError, migrate
from diamant_tui.engine.view import Decision
from diamant_tui.table import Table, TableSettings, TableStatus
from test_ssh_restart import until

BOTS = ("cards:2",) * 3


def games_in(folder) -> list[tuple]:
    """Every game row: finished or not, and how many seats were rated."""
    with closing(sqlite3.connect(folder / DATABASE)) as db:
        return db.execute("SELECT id, finished FROM games ORDER BY id").fetchall()


def rated_games(folder) -> int:
    """The games the computer players' rating counts."""
    with closing(sqlite3.connect(folder / DATABASE)) as db:
        return db.execute("SELECT games FROM ratings WHERE who = 'bot:cards'").fetchone()[0]


def opened(folder, pace: float = 0) -> tuple[Storage, Lobby, Table]:
    """The server's storage and lobby on ``folder``, with a table of computer players
    whose game has begun."""
    storage = Storage.open(folder)
    lobby = Lobby(folder, storage=storage)
    table = lobby.create(TableSettings(name="den", seats=3, bots=BOTS, seed=7, pace=pace),
                         None)
    table.start()
    return storage, lobby, table


async def restarted_and_kept_once(folder) -> None:
    """Open the server's storage and lobby again on ``folder``, its tables rebuilt; let
    the game go on to its end, if it had not; then the game is one finished row, and
    the computer players' rating counts it once."""
    storage = Storage.open(folder)
    lobby = Lobby(folder, storage=storage)
    try:
        await lobby.restore_tables(0)
        table = lobby.tables.get("den")
        if table is not None:
            await until(lambda: table.status is TableStatus.FINISHED)
        await lobby.flush()
    finally:
        await lobby.close()
        storage.close()
    assert games_in(folder) == [(1, 1)]
    assert rated_games(folder) == 1


async def test_a_game_saved_at_a_stop_and_finished_after_it_is_one_game(tmp_path):
    """Stopped in round 3 (the game saved as far as it went), started again: the game
    ends and is one finished row, rated once, not a finished row beside its copy."""
    storage, lobby, table = opened(tmp_path, pace=0.02)
    await until(lambda: table.game is not None and table.game.round >= 3)
    await lobby.close()
    storage.close()
    assert games_in(tmp_path) == [(1, 0)]
    await restarted_and_kept_once(tmp_path)


async def test_a_game_whose_write_never_landed_is_kept_when_its_table_comes_back(tmp_path):
    """The game ended and its table was saved finished, but the server died before the
    game was written: when it starts again, the game is kept, finished and rated."""
    lost = []

    def lose(*args, **kwargs):  # the write a crash cut short
        lost.append(args)
        return asyncio.sleep(0, result=0)

    storage, lobby, table = opened(tmp_path)
    storage.keep_game = lose  # type: ignore[method-assign]
    await until(lambda: table.status is TableStatus.FINISHED)
    await lobby.flush()
    await asyncio.sleep(0.1)  # the table's own saves, the finished one last
    storage.close()  # a crash: nothing more is written
    assert lost and games_in(tmp_path) == []
    await restarted_and_kept_once(tmp_path)


async def test_a_game_ended_again_after_a_crash_is_kept_once(tmp_path):
    """The game was written finished, but the server died before its table's last saves
    (the table is rebuilt as it was in the middle of the game): when it starts again,
    the game ends again, and is still one row, rated once."""
    saved: list[tuple] = []
    storage, lobby, table = opened(tmp_path)
    save_table = storage.save_table

    def note(*args):
        saved.append(args)
        return save_table(*args)

    storage.save_table = note  # type: ignore[method-assign]
    await until(lambda: table.status is TableStatus.FINISHED)
    await lobby.flush()
    await asyncio.sleep(0.1)
    assert games_in(tmp_path) == [(1, 1)]
    playing = [args for args in saved if args[3]["table"]["status"] == "playing"]
    await save_table(*playing[len(playing) // 2])  # as if the later saves never landed
    storage.close()
    await restarted_and_kept_once(tmp_path)


def test_a_version_6_database_keeps_its_games_known_by_no_table(tmp_path):
    """Version 7 adds to each game which table's game it is: the games kept before are
    known by none, and keep every column; two games cannot claim the same table's game."""
    path = tmp_path / DATABASE
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, upto=6)
        db.execute("INSERT INTO games VALUES (1, 'cave', 'classic', '2025-03-01T18:00:00Z', "
                   "NULL, '{}', 0)")
        before = db.execute("SELECT * FROM games").fetchall()
    Storage.open(tmp_path).close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        assert db.execute("SELECT * FROM games").fetchall() == [before[0] + (None, None)]
        db.execute("INSERT INTO games (table_name, rules, started, record, table_id, number) "
                   "VALUES ('den', 'classic', '2025-03-02T18:00:00Z', '{}', 't1', 0)")
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("INSERT INTO games (table_name, rules, started, record, table_id, "
                       "number) VALUES ('den', 'classic', '2025-03-02T18:00:00Z', '{}', "
                       "'t1', 0)")


async def stopped_at_the_final_scores(folder) -> None:
    """A server on ``folder`` stopped at the final scores of table ``den``, whose game
    ann played to its end with two computer players, its last save made."""
    storage = Storage.open(folder)
    lobby = Lobby(folder, storage=storage)
    table = lobby.create(TableSettings(name="den", seats=3, bots=("cards:2",) * 2, seed=7,
                                       pace=0), None)
    ann = table.sit("ann", "key:ann")
    while table.status is not TableStatus.FINISHED:
        view = table.game.view_for(ann.seat) if table.game else None
        if view is not None and view.decision_due and view.my_decision is None:
            ann.decide(Decision.LEAVE)
        await asyncio.sleep(0.005)
    await lobby.flush()
    await asyncio.sleep(0.1)  # the table's last save
    await lobby.close()
    storage.close()


async def stopped_waiting(folder) -> None:
    """A server on ``folder`` stopped while ann and bob waited at table ``hall`` (four
    seats, opened by ann) for its game, its last save made."""
    storage = Storage.open(folder)
    lobby = Lobby(folder, storage=storage)
    table = lobby.create(TableSettings(name="hall", seats=4, bots=(), seed=7, pace=0),
                         "key:ann")
    table.sit("ann", "key:ann")
    table.sit("bob", "key:bob")
    await lobby.flush()
    await table.saved()
    await lobby.close()
    storage.close()


async def test_a_table_rebuilt_at_its_final_scores_waits_for_its_people(tmp_path):
    """Stopped while its people decided on a rematch, the table is rebuilt finished and
    waits for them as a game does (``restore_wait``), listed in the lobby; then, with
    nobody back, it is forgotten. Before, nobody being connected yet, it was forgotten
    at once and the rematch with it."""
    await stopped_at_the_final_scores(tmp_path)

    now = [1000.0]
    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage, clock=lambda: now[0])
    try:
        assert await lobby.restore_tables(120) == ["den"]
        assert [t.name for t in lobby.summaries()] == ["den"]
        now[0] += 119
        assert [t.name for t in lobby.summaries()] == ["den"]
        now[0] += 1
        assert lobby.summaries() == []
    finally:
        await lobby.close()
        storage.close()


async def test_a_waiting_table_nobody_comes_back_to_is_forgotten_after_the_wait(tmp_path):
    """Stopped while people waited for its game, the table is rebuilt with their seats
    kept, listed in the lobby for ``restore_wait``; with nobody back by then, it is
    forgotten, and not rebuilt at the next start. (It stayed listed for ever, seats
    held for people who never came.)"""
    await stopped_waiting(tmp_path)

    now = [1000.0]
    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage, clock=lambda: now[0])
    try:
        assert await lobby.restore_tables(120) == ["hall"]
        assert [(t.name, t.people) for t in lobby.summaries()] == [("hall", 2)]
        now[0] += 119
        assert [t.name for t in lobby.summaries()] == ["hall"]
        now[0] += 1
        assert lobby.summaries() == []
        await lobby.flush()
    finally:
        await lobby.close()
        storage.close()
    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage)
    try:
        assert await lobby.restore_tables(120) == []
    finally:
        await lobby.close()
        storage.close()


async def test_a_waiting_table_someone_came_back_to_stays(tmp_path):
    """One person back at the rebuilt waiting table keeps it open past the wait."""
    await stopped_waiting(tmp_path)

    now = [1000.0]
    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage, clock=lambda: now[0])
    try:
        await lobby.restore_tables(120)
        lobby.tables["hall"].sit("bob", "key:bob")
        now[0] += 500
        assert [t.name for t in lobby.summaries()] == ["hall"]
    finally:
        await lobby.close()
        storage.close()


async def test_a_table_rebuilt_at_its_final_scores_does_not_log_its_game_kept_again(
        tmp_path, caplog):
    """Its game was kept as it ended: rebuilt at its final scores after a restart, the
    table ends it again (in case the stop came between the table's save and the game's),
    and the log says it was kept already, not "game 1 kept" a second time with the
    event a log collector counts."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    await stopped_at_the_final_scores(tmp_path)
    kept = [r for r in caplog.records if getattr(r, "event", None) == "game_saved"]
    assert len(kept) == 1

    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage)
    try:
        assert await lobby.restore_tables(120) == ["den"]
        await lobby.flush()
        kept = [r for r in caplog.records if getattr(r, "event", None) == "game_saved"]
        assert len(kept) == 1, [r.getMessage() for r in kept]
        assert "table 'den': game 1 was kept already, id 1 in the database" in caplog.text
        assert len(games_in(tmp_path)) == 1
    finally:
        await lobby.close()
        storage.close()


async def test_a_game_going_on_after_a_restart_is_not_logged_as_started_again(tmp_path,
                                                                             caplog):
    """Its start was logged once, as it began: rebuilt after a restart (its table's own
    line says so), the game is not "started" a second time in the log, which a log
    collector counting the games begun counted twice."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage)
    table = lobby.create(TableSettings(name="den", seats=3, bots=BOTS[:2], seed=7, pace=0),
                         None)
    table.sit("ann", "key:ann")  # the last seat: the game begins
    await until(lambda: table.game is not None)
    lobby.game_seen(table)
    lobby.keep_tables()
    await lobby.flush()
    await lobby.close_tables()
    storage.close()

    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage)
    try:
        await lobby.restore_tables(30)
        again = lobby.tables["den"]
        again.sit("ann", "key:ann")
        lobby.game_seen(again)
    finally:
        await lobby.close()
        storage.close()
    started = [r for r in caplog.records if getattr(r, "event", None) == "game_started"]
    assert [r.game for r in started] == [1]



async def test_a_game_the_database_could_not_take_is_kept_once_it_can(tmp_path, monkeypatch):
    """A crash loses nothing, nor does a disk that fails for a while (full, or another
    process holding the database): a game that ends meanwhile is written as soon as it
    can be (the host is told meanwhile), finished and rated once, not lost with the
    server running on."""
    monkeypatch.setattr(lobby_module, "KEEP_RETRY", 0.05)
    storage = Storage.open(tmp_path)
    await storage._write(lambda db: db.execute("PRAGMA busy_timeout = 50"))
    lobby = Lobby(tmp_path, storage=storage)
    table = lobby.create(TableSettings(name="den", seats=3, bots=BOTS, seed=7, pace=0), None)
    blocker = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")  # every write of the server's fails now
        table.start()
        await until(lambda: table.status is TableStatus.FINISHED)
        await asyncio.sleep(0.3)  # tried again, and still nothing written
        blocker.execute("ROLLBACK")
        assert games_in(tmp_path) == []
        await until(lambda: games_in(tmp_path) == [(1, 1)])
    finally:
        blocker.close()
        await lobby.close()
        storage.close()
    assert games_in(tmp_path) == [(1, 1)]
    assert rated_games(tmp_path) == 1


async def test_a_write_on_a_full_disk_says_the_disk_is_full(tmp_path):
    """What the host reads names what is wrong: SQLite's "database or disk is full",
    not the savepoint that undoing the write tripped over."""
    storage = Storage.open(tmp_path)
    try:
        pages = await storage._write(
            lambda db: db.execute("PRAGMA page_count").fetchone()[0])
        # No page more for the server's database; another writer took every free one.
        await storage._write(lambda db: db.execute(f"PRAGMA max_page_count = {pages + 1}"))
        with closing(sqlite3.connect(tmp_path / DATABASE)) as db, db:
            db.execute("CREATE TABLE filler (x BLOB)")
            db.execute("INSERT INTO filler VALUES (randomblob(400000))")
        with pytest.raises(StorageError) as failed:
            await storage.save_table("t1", "den", {}, {"big": "x" * 20000})
        assert str(failed.value).endswith("database or disk is full")
    finally:
        storage.close()


def kept_by_an_older_diamant(folder) -> None:
    """Leave the games in ``folder`` as a Diamant before schema 7 kept them: known by no
    table (the upgrade to version 7 leaves them so), their tables saved as they were."""
    with closing(sqlite3.connect(folder / DATABASE, isolation_level=None)) as db:
        db.execute("UPDATE games SET table_id = NULL, number = NULL")


async def test_a_table_at_its_final_scores_when_an_older_diamant_stopped_is_not_kept_again(
        tmp_path):
    """A host upgrades while people read a table's final scores: the older Diamant had
    kept the game, and this one, rebuilding the table finished, ends it again. It is the
    same game: one row in everyone's "My games", rated once (before, a second row, and
    every player's rating moved twice)."""
    await stopped_at_the_final_scores(tmp_path)
    kept_by_an_older_diamant(tmp_path)
    assert games_in(tmp_path) == [(1, 1)] and rated_games(tmp_path) == 1
    storage = Storage.open(tmp_path)
    lobby = Lobby(tmp_path, storage=storage)
    try:
        assert await lobby.restore_tables(120) == ["den"]
        await lobby.flush()
    finally:
        await lobby.close()
        storage.close()
    assert games_in(tmp_path) == [(1, 1)]
    assert rated_games(tmp_path) == 1


async def test_a_game_an_older_diamant_saved_at_its_stop_goes_on_in_its_row(tmp_path):
    """Stopped in round 3 by a Diamant before schema 7 (the game saved as far as it went,
    known by no table), the game goes on after the upgrade and ends in that row: one
    game in "My games", rated once, not a finished row beside an unfinished copy."""
    storage, lobby, table = opened(tmp_path, pace=0.02)
    await until(lambda: table.game is not None and table.game.round >= 3)
    await lobby.close()
    storage.close()
    kept_by_an_older_diamant(tmp_path)
    assert games_in(tmp_path) == [(1, 0)]
    await restarted_and_kept_once(tmp_path)
