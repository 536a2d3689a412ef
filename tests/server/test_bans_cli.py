"""`diamant bans`: the bans in force, listed from the host's shell, and one lifted there
while the server is stopped, which an admin whose own address is banned cannot do on the
admin screen."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import sys
from dataclasses import replace

import asyncssh
import pytest

from conftest import TEST_CONFIG
from diamant_tui.cli import main
from diamant_server.bans import ADDRESS, KEY, Bans
from diamant_server.server import GameServer
from diamant_server.storage import DATABASE, Storage, migrate

DIAMANT = [sys.executable, "-m", "diamant_tui"]


async def bans(*args: str) -> tuple[int, str, str]:
    """Run ``diamant bans`` as a process of its own, as a host does beside the server."""
    process = await asyncio.create_subprocess_exec(
        *DIAMANT, "bans", *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode, out.decode(), err.decode()


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def test_an_admin_who_banned_their_own_address_gets_back_in_once_it_is_lifted(
        tmp_path, players, make_key):
    admin_key = make_key()
    config = replace(TEST_CONFIG, data_dir=tmp_path, admins=fingerprint(admin_key))
    server = GameServer(config)
    await server.start()
    try:
        # The address every admin connects from, banned with a guest's (loopback here).
        ban = server.bans.make(ADDRESS, "127.0.0.1", "forever", "flood [b]x[/b]\x1b[31m",
                               fingerprint(admin_key))
        await server.bans.add(ban)
        with pytest.raises(asyncssh.DisconnectError, match="Banned from this server"):
            await players("boss").connect(server.port, key=admin_key)

        status, out, err = await bans("--data-dir", str(tmp_path))
        assert status == 0, err
        [head, row, advice] = out.splitlines()
        assert head.split() == ["KIND", "KEY", "OR", "ADDRESS", "UNTIL", "MADE", "BY", "REASON"]
        assert row.split()[:4] == ["address", "127.0.0.1", "for", "good"]
        assert fingerprint(admin_key) in row
        # What an admin typed is shown as text: no terminal code reaches the host's screen.
        assert row.endswith("flood [b]x[/b] [31m") and "\x1b" not in out
        assert advice == "To lift one, with the server stopped: diamant bans --lift KEY_OR_ADDRESS"

        # The running server holds its bans in memory: lifted under it, it would stay.
        status, out, err = await bans("--data-dir", str(tmp_path), "--lift", "127.0.0.1")
        assert status == 1 and out == ""
        assert err == (f"diamant bans: a Diamant server is running on {tmp_path}, and it "
                       f"keeps its bans in memory: lift the ban on its admin screen (a in "
                       f"the lobby), or stop the server, run this again, and start it\n")
        assert server.bans.of_address("127.0.0.1") is not None
    finally:
        await server.stop()

    # As IPv6 sees it: the same address.
    status, out, err = await bans("--data-dir", str(tmp_path), "--lift", "::ffff:127.0.0.1")
    assert status == 0, err
    assert out.startswith("Lifted the ban on the address 127.0.0.1 (made ")
    assert out.endswith(f" by {fingerprint(admin_key)}). It is gone at the server's next "
                        f"start.\n")
    status, out, err = await bans("--data-dir", str(tmp_path), "--lift", "127.0.0.1")
    assert (status, out) == (1, "")
    assert err.startswith("diamant bans: no ban in force on the address 127.0.0.1 in ")

    server = GameServer(config)  # the same data folder
    await server.start()
    try:
        boss = players("boss")
        await boss.connect(server.port, key=admin_key)
        await boss.wait_for("the lobby")
        assert server.bans.in_force() == []
    finally:
        await server.stop()


async def banned(folder, *keys: str) -> None:
    """Ban ``keys`` for a week in the database in ``folder``, as the admin screen does."""
    storage = Storage.open(folder)
    try:
        register = Bans(storage)
        for value in keys:
            await register.add(register.make(KEY, value, "week", "cheating", "SHA256:boss"))
    finally:
        storage.close()


def test_a_key_is_lifted_by_its_fingerprint_and_other_values_are_refused(
        tmp_path, make_key, capsys):
    kept = fingerprint(make_key())
    lifted = fingerprint(make_key())
    asyncio.run(banned(tmp_path, kept, lifted))

    assert main(["bans", "--data-dir", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert kept in listed and lifted in listed

    for wrong, said in (("SHA256:abc", "'SHA256:abc' is not a key fingerprint: give it as "
                                       "ssh-keygen -lf shows it"),
                        ("ann", "'ann' is neither a key fingerprint (SHA256:..., as "
                                "ssh-keygen -lf shows it) nor an IP address")):
        assert main(["bans", "--data-dir", str(tmp_path), "--lift", wrong]) == 1
        assert capsys.readouterr().err.startswith(f"diamant bans: --lift: {said}")

    # As a person's id (key:SHA256:...), as the server's log names people.
    assert main(["bans", "--data-dir", str(tmp_path), "--lift", "key:" + lifted]) == 0
    assert capsys.readouterr().out.startswith(f"Lifted the ban on the key {lifted} (made ")
    assert main(["bans", "--data-dir", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert kept in listed and lifted not in listed


def test_a_folder_without_a_database_is_said_so(tmp_path, capsys):
    assert main(["bans", "--data-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"diamant bans: there is no database {tmp_path / 'diamant.sqlite3'}; is {tmp_path} "
        f"the server's data folder (its --data-dir)?\n")


def test_no_bans_are_said_so(tmp_path, capsys):
    Storage.open(tmp_path).close()
    assert main(["bans", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"No bans in force in {tmp_path / 'diamant.sqlite3'}.\n"


async def test_a_database_from_before_bans_has_none_to_list_or_lift(tmp_path):
    """A host who upgraded Diamant but has not started the server again yet (it upgrades
    the database at its start) lists the bans of a database made before bans existed
    (schema 2): it has none, and says so, rather than an error about a missing table."""
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, upto=2)
    status, out, err = await bans("--data-dir", str(tmp_path))
    assert (status, out, err) == (0, f"No bans in force in {path}.\n", "")
    status, out, err = await bans("--data-dir", str(tmp_path), "--lift", "192.0.2.7")
    assert (status, out) == (1, "")
    assert err == (f"diamant bans: no ban in force on the address 192.0.2.7 in {path}; "
                   f"`diamant bans` lists those in force\n")
    with contextlib.closing(sqlite3.connect(path)) as db:  # read as it is: not upgraded
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
