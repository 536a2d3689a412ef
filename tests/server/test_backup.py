"""`diamant backup FILE`: a consistent copy of the database while people play, which a
fresh server starts from; never over an existing file unless asked."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sqlite3
import sys
from dataclasses import replace

from conftest import TEST_CONFIG
from diamant_tui.cli import main
from diamant_tui.engine.record import read_record
from diamant_tui.table import TableStatus
from diamant_server.server import GameServer
from diamant_server.storage import DATABASE, Storage
from test_ssh_game import play_to_the_end, turn_of
from test_ssh_storage import finished_game

DIAMANT = [sys.executable, "-m", "diamant_tui"]


async def backup(*args: str) -> tuple[int, str, str]:
    """Run ``diamant backup`` as a process of its own (the server goes on meanwhile)."""
    process = await asyncio.create_subprocess_exec(
        *DIAMANT, "backup", *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode, out.decode(), err.decode()


async def test_a_backup_while_three_people_play_is_a_database_a_fresh_server_starts_from(
        tmp_path, players, make_key):
    data, copy = tmp_path / "data", tmp_path / "copy.sqlite3"
    server = GameServer(replace(TEST_CONFIG, data_dir=data))
    await server.start()
    try:
        people = [players(name) for name in ("ann", "bob", "cat")]
        for person in people:
            await person.connect(server.port, key=make_key(), command="play cave --seats 3")
        await asyncio.gather(*(play_to_the_end(person) for person in people))
        for person in people:
            person.press("r")  # a rematch: the second game goes on during the backup
        for person in people:
            await person.wait_for(lambda t: "Your turn" in t and turn_of(t) == (1, 1))
        table = server.lobby.get("cave")
        assert table is not None and table.status is TableStatus.PLAYING
        await server.lobby.flush()

        # The server writes the game in progress again and again (as it grows, and as a
        # stop keeps it) while the copy is made, and people go on playing.
        copying = asyncio.ensure_future(backup(str(copy), "--data-dir", str(data)))
        playing = [asyncio.ensure_future(go_on(person, turns=2)) for person in people]
        saves = 0
        while not copying.done():
            await server.lobby.save_game(table)
            saves += 1
        status, out, err = await copying
        await asyncio.gather(*playing)
        assert status == 0, err
        assert saves > 1, "the server wrote while the copy was made"
        assert f"Backed up {data / DATABASE} to {copy}: 2 games (1 finished)" in out
        assert f"cp {copy} {data / DATABASE}" in out and "stop the server" in out
    finally:
        await server.stop()

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(copy, fresh / DATABASE)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("copy")) == [
        "copy.sqlite3"], "one file, nothing left beside it"
    restored = GameServer(replace(TEST_CONFIG, data_dir=fresh))
    await restored.start()
    try:
        games = await restored.storage.games()
        assert [(g.table, g.finished) for g in games] == [("cave", False), ("cave", True)]
        assert all(g.players == ("ann", "bob", "cat") for g in games)
        for game in games:
            record = await restored.storage.game_record(game.id)
            read_record(json.dumps(record))  # whole records, the unfinished one too
        board = await restored.storage.leaderboard()
        assert sorted(s.name for s in board) == ["ann", "bob", "cat"]
        dan = players("dan")
        await dan.connect(restored.port, key=make_key())
        await dan.wait_for("the lobby")
    finally:
        await restored.stop()


async def go_on(person, turns: int) -> None:
    """Go deeper into the cave at the next ``turns`` turns."""
    answered = None
    for _ in range(turns):
        text = await person.wait_for(lambda t: "Your turn" in t and turn_of(t) != answered)
        answered = turn_of(text)
        person.press("c")


def made_database(folder) -> None:
    Storage.open(folder).close()


def test_backup_refuses_to_write_over_a_file_unless_forced(tmp_path, capsys):
    made_database(tmp_path / "data")
    target = tmp_path / "kept.sqlite3"
    target.write_text("an older backup")
    assert main(["backup", str(target), "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert err == (f"diamant backup: {target} exists already: choose another file, or add "
                   f"--force to write over it\n")
    assert target.read_text() == "an older backup"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []

    assert main(["backup", str(target), "--data-dir", str(tmp_path / "data"), "--force"]) == 0
    with contextlib.closing(sqlite3.connect(target)) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_backup_finds_the_database_as_serve_does_and_says_what_is_wrong(tmp_path, capsys,
                                                                       monkeypatch):
    data = tmp_path / "data"
    made_database(data)
    settings = tmp_path / "serve.toml"
    settings.write_text(f'data_dir = "{data}"\nport = 2222\n')
    assert main(["backup", str(tmp_path / "a.sqlite3"), "--config", str(settings)]) == 0
    assert f"Backed up {data / DATABASE}" in capsys.readouterr().out
    monkeypatch.setenv("DIAMANT_DATA_DIR", str(data))
    assert main(["backup", str(tmp_path / "b.sqlite3")]) == 0
    assert (tmp_path / "b.sqlite3").is_file()

    for argv, line in (
        (["backup", str(tmp_path / "c.sqlite3"), "--data-dir", str(tmp_path / "none")],
         f"there is no database {tmp_path / 'none' / DATABASE}; is {tmp_path / 'none'} "
         f"the server's data folder (its --data-dir)?"),
        (["backup", str(tmp_path / "no" / "d.sqlite3")],
         f"the folder {tmp_path / 'no'} does not exist: make it first"),
        (["backup", str(tmp_path)], f"{tmp_path} is a folder: give the name of the file "
                                    f"to write"),
        (["backup", str(tmp_path / "e.sqlite3"), "--config", str(tmp_path / "nope.toml")],
         f"cannot read {tmp_path / 'nope.toml'}: No such file or directory"),
    ):
        assert main(argv) == 1
        assert capsys.readouterr().err == f"diamant backup: {line}\n"


async def test_backup_never_writes_over_the_live_database_or_its_companions_even_forced(
        tmp_path):
    """A copy put over the database a server writes to would leave the server writing to
    files nobody can open again: everything it saves afterwards would be lost. So the
    database and its -wal and -shm files are refused as FILE, by whatever name they are
    given (relative, through a link to the file or to the folder, a hard link), even with
    --force, in one line; the server's files are left as they are."""
    data = tmp_path / "data"
    server = GameServer(replace(TEST_CONFIG, data_dir=data))
    await server.start()
    try:
        live = data / DATABASE
        assert (data / (DATABASE + "-wal")).exists() and (data / (DATABASE + "-shm")).exists()
        (tmp_path / "alias").symlink_to(data)
        (tmp_path / "link.sqlite3").symlink_to(live)
        os.link(live, tmp_path / "hard.sqlite3")
        before = {name: (data / name).stat().st_ino
                  for name in (DATABASE, DATABASE + "-wal", DATABASE + "-shm")}
        for target, which in (
            (str(live), "the database"),
            (str(data / (DATABASE + "-wal")), "the database's -wal file"),
            (str(data / (DATABASE + "-shm")), "the database's -shm file"),
            (str(data / (DATABASE + "-journal")), "the database's -journal file"),
            (str(tmp_path / "alias" / DATABASE), "the database"),
            (str(tmp_path / "link.sqlite3"), "the database"),
            (str(tmp_path / "hard.sqlite3"), "the database"),
            (f"{tmp_path}/data/../data/{DATABASE}", "the database"),
        ):
            status, out, err = await backup("--force", target, "--data-dir", str(data))
            assert (status, out) == (1, ""), (target, out)
            assert err == (f"diamant backup: {target} is {which} being copied ({live}): "
                           f"writing over it would lose what the server saves; choose a "
                           f"file outside its data folder\n"), target
        # The same refusal for a FILE given relative to the data folder, without --force.
        process = await asyncio.create_subprocess_exec(
            *DIAMANT, "backup", DATABASE, "--data-dir", ".", cwd=data,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await process.communicate()
        assert process.returncode == 1 and "is the database being copied" in err.decode()
        assert {name: (data / name).stat().st_ino for name in before} == before
        assert not [p for p in data.iterdir() if p.suffix == ".tmp"], "nothing left beside it"
        # The server's saves still reach the file on disk.
        await server.storage.seen("key:SHA256:after", "ann", "en")
        with contextlib.closing(sqlite3.connect(live)) as db:
            assert db.execute("SELECT name FROM players").fetchall() == [("ann",)]
    finally:
        await server.stop()


def test_backup_to_dash_writes_the_copy_to_standard_output_as_export_does(tmp_path):
    """`-` is standard output, as for `diamant export`: `diamant backup - | gzip > …` or
    `| ssh elsewhere 'cat > …'`. The copy is whole and checked before a byte of it is
    written; what it holds and how to restore it go to standard error, without a `cp -`
    line; nothing named `-` is made. A terminal is refused: a database is binary."""
    import subprocess

    data = tmp_path / "data"
    made_database(data)
    done = subprocess.run([*DIAMANT, "backup", "-", "--data-dir", str(data)],
                          capture_output=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    copy = tmp_path / "piped.sqlite3"
    copy.write_bytes(done.stdout)
    with contextlib.closing(sqlite3.connect(copy)) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    err = done.stderr.decode()
    assert err.startswith(f"Backed up {data / DATABASE} to standard output: 0 games")
    assert "cp -" not in err and "stop the server" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "piped.sqlite3"]

    master, terminal = os.openpty()
    try:
        done = subprocess.run([*DIAMANT, "backup", "-", "--data-dir", str(data)],
                              stdout=terminal, stderr=subprocess.PIPE, timeout=60, text=True)
    finally:
        os.close(terminal)
        os.close(master)
    assert done.returncode == 1
    assert done.stderr == ("diamant backup: standard output is a terminal, and the copy is "
                           "a binary file: send it to a file or a program (diamant backup - "
                           "| gzip > diamant.sqlite3.gz), or give the FILE to write\n")


def test_a_backup_of_one_game_counts_it_as_one(tmp_path, capsys):
    """"1 game (1 finished)", as a host reads it, not "1 games"; and none is "0 games"."""
    data = tmp_path / "data"
    asyncio.run(finished_game(data))
    assert main(["backup", str(tmp_path / "one.sqlite3"), "--data-dir", str(data)]) == 0
    assert f"to {tmp_path / 'one.sqlite3'}: 1 game (1 finished), " in capsys.readouterr().out
    empty = tmp_path / "empty"
    made_database(empty)
    assert main(["backup", str(tmp_path / "none.sqlite3"), "--data-dir", str(empty)]) == 0
    assert ": 0 games (0 finished), " in capsys.readouterr().out
