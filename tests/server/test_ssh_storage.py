"""A game played over SSH is kept in the server's database: its record, who sat where,
the places, the ratings; and `diamant export` gives it back as a file `diamant replay` reads."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sqlite3
import stat
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from rich.cells import cell_len
from conftest import TEST_CONFIG
from diamant_tui.cli import main
from diamant_tui.engine.record import PERSON, read_record
from diamant_tui.table import TableSettings
from diamant_server.lobby import Lobby, default_bot
from diamant_server.ratings import places_from_scores, rated_as
from diamant_server.server import GameServer
from diamant_server.storage import DATABASE, Storage, migrate

DIAMANT = [sys.executable, "-m", "diamant_tui"]
TURN = re.compile(r"Round \d/5 · card \d+")


async def play_to_the_end(player) -> None:
    """Leave at every decision until the final scores show."""
    answered = None
    while True:
        text = await player.wait_for(lambda t: "Final scores" in t or (
            "Your turn" in t and TURN.search(t)[0] != answered))
        if "Final scores" in text:
            return
        answered = TURN.search(text)[0]
        player.press("l")


async def test_a_game_played_over_ssh_is_kept_with_its_places_and_ratings(server, players,
                                                                         make_key):
    key = make_key()
    ann, gus = players("ann"), players("gus")
    await ann.connect(server.port, key=key, command="play solo --seats 3 --bots 1")
    await ann.wait_for("Waiting")
    await gus.connect(server.port, command="play solo")  # a guest: kept, never rated
    await asyncio.gather(play_to_the_end(ann), play_to_the_end(gus))
    await server.lobby.flush()

    person = "key:" + key.get_fingerprint("sha256")
    [past] = await server.storage.history(person)
    assert past.game.finished and past.game.table == "solo" and past.seat == 0
    record = await server.storage.game_record(past.game.id)
    replay = read_record(json.dumps(record))  # a whole, valid record
    scores = record["result"]["scores"]
    assert replay.outcome()["scores"] == scores
    names = record["players"]
    assert past.game.players == tuple(names)
    assert past.score == scores[names[0]]
    assert past.place == places_from_scores([scores[n] for n in names])[0]
    assert record["meta"]["table"] == "solo"
    assert list(record["meta"]["seats"].values()) == [PERSON, PERSON, default_bot()]

    board = {s.who: s for s in await server.storage.leaderboard()}
    computer = rated_as(None, default_bot())
    assert set(board) == {person, computer}, "the guest is not rated"
    assert board[person].name == "ann", "noted as seen when logging in"
    assert board[person].rating.games == board[computer].rating.games == 1
    assert board[person].rating.wins == (past.place == 1)


async def finished_game(folder, name: str = "den") -> int:
    """Play a game of computer players at a real table; returns its id in the database."""
    storage = Storage.open(folder)
    lobby = Lobby(folder, storage=storage)
    try:
        table = lobby.create(TableSettings(name=name, seats=3, bots=("cards:2",) * 3,
                                           seed=7, pace=0), None)
        table.start()
        while table.ended is None:
            await asyncio.sleep(0.01)
        await lobby.flush()
        [game] = await storage.games()
        assert game.finished
        return game.id
    finally:
        await lobby.close()
        storage.close()


def test_the_list_of_games_keeps_its_columns_under_a_table_name_in_wide_letters(
        tmp_path, capsys):
    """A CJK letter takes two columns: the list padded the table's name by its letters,
    and the rules, state and players stood further right than their headings."""
    data = tmp_path / "data"
    asyncio.run(finished_game(data, "黄金洞窟"))
    assert main(["export", "--data-dir", str(data), "--list"]) == 0
    header, line = capsys.readouterr().out.splitlines()
    for heading, word in (("RULES", "classic"), ("STATE", "finished"), ("PLAYERS", "Ana")):
        at = header.index(heading)
        assert cell_len(line[:line.index(word)]) == at, (header, line)


def diamant(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*DIAMANT, *args], capture_output=True, text=True, timeout=60)


def test_export_writes_a_record_that_replay_reads(tmp_path, capsys, monkeypatch):
    data = tmp_path / "data"
    game = asyncio.run(finished_game(data))
    assert main(["export", "--data-dir", str(data), "--list"]) == 0
    header, line = capsys.readouterr().out.splitlines()
    assert header.split()[:3] == ["ID", "STARTED", "(UTC)"]
    assert re.match(rf" *{game}  \d{{4}}-\d\d-\d\d \d\d:\d\d  den +classic +finished +"
                    rf"Ana, Bruno, Chiara$", line), line

    out = tmp_path / "out" / "den.json"
    out.parent.mkdir()
    written = diamant("export", "--data-dir", str(data), str(game), "-o", str(out))
    assert written.returncode == 0, written.stderr
    assert [p.name for p in out.parent.iterdir()] == ["den.json"], "no temporary file left"
    replayed = diamant("replay", str(out), "--json")
    assert replayed.returncode == 0, replayed.stderr
    record = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(replayed.stdout)["scores"] == record["result"]["scores"]
    assert record["meta"]["table"] == "den" and record["meta"]["seed"] == 7

    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["export", "--data-dir", str(data), str(game)]) == 0
    assert json.loads((tmp_path / f"game-{game}.json").read_text(encoding="utf-8")) == record
    assert main(["export", "--data-dir", str(data), str(game)]) == 1, "never written over"
    assert capsys.readouterr().err.endswith(
        f"diamant export: game-{game}.json exists already; choose another file with -o FILE\n")
    # An empty -o (a variable left unset in a script) is no file: it wrote over that one.
    (tmp_path / f"game-{game}.json").write_text("mine", encoding="utf-8")
    for empty in ("", " "):
        assert main(["export", "--data-dir", str(data), str(game), "-o", empty]) == 1
        assert capsys.readouterr().err == ("diamant export: -o needs the name of the file to "
                                           "write (or - for standard output)\n")
    assert (tmp_path / f"game-{game}.json").read_text(encoding="utf-8") == "mine"


def test_export_says_what_is_wrong(tmp_path, capsys):
    data = tmp_path / "data"

    def export(*args: str) -> str:
        """What ``diamant export`` says on standard error, once it has refused."""
        capsys.readouterr()
        assert main(["export", "--data-dir", str(data), *args]) == 1
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and err.startswith("diamant export: ")
        return err.removeprefix("diamant export: ").rstrip("\n")

    assert export("--list") == (f"there is no database {data / 'diamant.sqlite3'}; is {data} "
                                f"the server's data folder (its --data-dir)?")
    assert not data.exists(), "nothing made where there was nothing"
    Storage.open(data).close()
    assert main(["export", "--data-dir", str(data), "--list"]) == 0
    assert capsys.readouterr().out.startswith("No games kept in")
    assert export("7").startswith(f"there is no game 7 in {data / 'diamant.sqlite3'}; ")
    assert export("x1") == "'x1' is not a game id: give the number --list shows"
    assert export().startswith("give either GAME_ID")
    assert export("1", "--list").startswith("give either GAME_ID")


@pytest.mark.parametrize("game", ["9223372036854775807", "9223372036854775808",
                                  "99999999999999999999999", "1" + "0" * 400])
def test_export_of_an_id_past_any_game_says_there_is_no_such_game(tmp_path, game):
    """SQLite's ids stop at 2**63 - 1: a bigger one names no game, it is no crash."""
    data = tmp_path / "data"
    Storage.open(data).close()
    done = diamant("export", "--data-dir", str(data), game)
    assert (done.returncode, done.stdout) == (1, "")
    shown = game if len(game) <= 30 else game[:20] + "..."
    assert done.stderr == (f"diamant export: there is no game {shown} in {data / DATABASE}; "
                           f"`diamant export --list` lists the games kept\n")
    assert list(tmp_path.iterdir()) == [data], "no file written"


@pytest.mark.parametrize("argv, env, source", [
    (["--data-dir", ""], {}, "command line"),
    ([], {"DIAMANT_DATA_DIR": ""}, "environment"),
])
def test_export_and_backup_refuse_an_empty_data_folder(tmp_path, argv, env, source):
    """An empty value would have meant the current folder (export's flag) or the default
    one (export's variable), where `diamant serve` refuses it: all three refuse it alike,
    naming where it came from."""
    for command, refused in ((["export", "--list"], f"diamant export: {source}: "),
                             (["backup", str(tmp_path / "copy.sqlite3")],
                              f"diamant backup: {source}: ")):
        done = subprocess.run([*DIAMANT, *command, *argv], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path, env={**os.environ, **env})
        assert done.returncode == 1 and done.stdout == "", done.stdout
        assert done.stderr.startswith(refused), done.stderr
        assert "the path is empty; give the data folder's path" in done.stderr
        assert len(done.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_export_reads_a_database_without_changing_it(tmp_path, capsys):
    """Export reads the games of an older version's database as they are: upgrading is
    the server's business, and the database may be another user's."""
    data = tmp_path / "data"
    data.mkdir()
    with contextlib.closing(sqlite3.connect(data / DATABASE, isolation_level=None)) as db:
        migrate(db, upto=1)
        db.execute("INSERT INTO games VALUES (1, 'old', 'relics', '2024-01-02T03:04:05Z', NULL, "
                   "'{\"format\": \"diamant-record/1\"}', 0)")
        db.execute("INSERT INTO seats VALUES (1, 0, 'ann', NULL, NULL, NULL, NULL)")
    assert main(["export", "--data-dir", str(data), "--list"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split() == [
        "1", "2024-01-02", "03:04", "old", "relics", "unfinished", "ann"]
    with contextlib.closing(sqlite3.connect(data / DATABASE)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_export_finds_the_database_as_serve_and_backup_do(tmp_path, capsys, monkeypatch):
    """A host whose settings are in a file (`--config`, or `DIAMANT_CONFIG` as the systemd
    unit names it) finds the games there, as `diamant backup` finds the database: export
    looked in the default folder, and said there was no database."""
    data = tmp_path / "data"
    game = asyncio.run(finished_game(data))
    settings = tmp_path / "serve.toml"
    settings.write_text(f'data_dir = "{data}"\nport = 2222\n')
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
    monkeypatch.chdir(tmp_path)
    assert main(["export", "--config", str(settings), "--list"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[0] == str(game)
    monkeypatch.setenv("DIAMANT_CONFIG", str(settings))
    assert main(["export", str(game)]) == 0
    assert json.loads((tmp_path / f"game-{game}.json").read_text())["meta"]["table"] == "den"
    # The flag and the variable still come before the file, as for `diamant serve`.
    monkeypatch.setenv("DIAMANT_DATA_DIR", str(tmp_path / "none"))
    assert main(["export", "--list"]) == 1
    assert f"there is no database {tmp_path / 'none' / DATABASE}" in capsys.readouterr().err


async def test_export_never_writes_over_the_live_database_or_its_companions(tmp_path):
    """`-o` naming the database a server is writing to (or its -wal or -shm file, by any
    name) is refused, as `diamant backup` refuses it: the record put in its place would
    leave the server writing to a file no longer in the folder, and the next start would
    find a JSON file where the games, ratings and bans were."""
    data = tmp_path / "data"
    game = await finished_game(data)
    server = GameServer(replace(TEST_CONFIG, data_dir=data))
    await server.start()
    try:
        live = data / DATABASE
        (tmp_path / "alias").symlink_to(data)
        before = {name: (data / name).stat().st_ino
                  for name in (DATABASE, DATABASE + "-wal", DATABASE + "-shm")}
        for target, which in (
            (str(live), "the database"),
            (str(data / (DATABASE + "-wal")), "the database's -wal file"),
            (str(data / (DATABASE + "-shm")), "the database's -shm file"),
            (str(tmp_path / "alias" / DATABASE), "the database"),
        ):
            process = await asyncio.create_subprocess_exec(
                *DIAMANT, "export", "--data-dir", str(data), str(game), "-o", target,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await process.communicate()
            assert (process.returncode, out) == (1, b""), target
            assert err.decode() == (
                f"diamant export: {target} is {which} the games are read from ({live}): "
                f"writing over it would lose what the server saves; choose a file outside "
                f"its data folder\n"), target
        assert {name: (data / name).stat().st_ino for name in before} == before
        assert [kept.id for kept in await server.storage.games()] == [game]
    finally:
        await server.stop()


def read_fifo_while(fifo, command: list[str]) -> tuple[subprocess.CompletedProcess, bytes]:
    """Run ``command`` while reading what it writes to the named pipe ``fifo``; returns
    how it ended and what came through the pipe."""
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader there before the writer
    chunks = []
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        while True:
            try:
                chunk = os.read(reader, 1 << 16)
            except BlockingIOError:  # a writer, with nothing written yet
                chunk = None
            if chunk:
                chunks.append(chunk)
            elif chunk == b"" and process.poll() is not None:
                break  # no writer any more, and none to come
            else:
                time.sleep(0.01)
        out, err = process.communicate(timeout=60)
    finally:
        os.close(reader)
    return subprocess.CompletedProcess(command, process.returncode, out, err), b"".join(chunks)


def test_export_to_a_pipe_or_a_device_writes_into_it_and_leaves_it_there(tmp_path):
    """`-o /dev/stdout`, `-o /dev/null` or a named pipe is written into, as a shell's
    redirection writes: the record was written beside it and renamed over it, which put a
    regular file in the place of a pipe, and, run as root, of /dev/null itself."""
    data = tmp_path / "data"
    game = asyncio.run(finished_game(data))
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done, came = read_fifo_while(fifo, [*DIAMANT, "export", "--data-dir", str(data),
                                        str(game), "-o", str(fifo)])
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode), "still the pipe"
    assert json.loads(came)["meta"]["table"] == "den"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "pipe"], "nothing beside"


def test_backup_refuses_a_pipe_or_a_device_even_forced_and_says_to_use_dash(tmp_path):
    """A backup is a file of its own; `--force` put it in the place of a pipe or a device
    (of /dev/null itself, run as root), and without it the refusal advised `--force`."""
    data = tmp_path / "data"
    Storage.open(data).close()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for force in ([], ["--force"]):
        done = diamant("backup", str(fifo), "--data-dir", str(data), *force)
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == (f"diamant backup: {fifo} is not a regular file (a device or "
                               f"a pipe): the copy is a file of its own; give - to send it "
                               f"to standard output (diamant backup - > {fifo})\n")
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "pipe"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_export_says_in_one_line_that_standard_output_could_not_be_written(tmp_path):
    """A full disk behind `> file`, or a pipe closed early: one line that says so, not a
    traceback, and a status that is not 0."""
    data = tmp_path / "data"
    game = asyncio.run(finished_game(data))
    for args in (["--list"], [str(game), "-o", "-"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([*DIAMANT, "export", "--data-dir", str(data), *args],
                                  stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        assert done.returncode == 1
        assert done.stderr == ("diamant export: cannot write to standard output: No space "
                               "left on device\n"), done.stderr


def test_a_link_given_as_the_file_is_followed_and_stays_a_link(tmp_path):
    """`-o /dev/stdout` with standard output sent to a file is a link (to that file): the
    file written beside it and renamed over it replaced the link itself, which, run as
    root, put a regular file in /dev in the place of /dev/stdout. The file a link names
    is written, for export as for backup, and the link stays."""
    data = tmp_path / "data"
    game = asyncio.run(finished_game(data))
    out = tmp_path / "out"
    out.mkdir()
    for command, name in ((["export", "--data-dir", str(data), str(game), "-o"], "g.json"),
                          (["backup", "--force", "--data-dir", str(data)], "b.sqlite3")):
        (out / name).write_text("old")
        link = tmp_path / ("link-" + name)
        link.symlink_to(out / name)
        done = diamant(*command, str(link))
        assert done.returncode == 0, done.stderr
        assert link.is_symlink() and os.readlink(link) == str(out / name), "still the link"
        assert (out / name).read_bytes() != b"old", "the file it names written"
    assert json.loads((out / "g.json").read_text())["meta"]["table"] == "den"
    with contextlib.closing(sqlite3.connect(out / "b.sqlite3")) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert sorted(p.name for p in out.iterdir()) == ["b.sqlite3", "g.json"]
