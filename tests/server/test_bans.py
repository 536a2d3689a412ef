"""Bans as kept: the database's version 3 adds them, they are read at start-up and
written through, a ban whose time is over stops and is forgotten; and the ``admins``
setting names keys as OpenSSH shows them."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from diamant_server.bans import ADDRESS, KEY, Bans, normal_address, normal_key
from diamant_server.config import ConfigError, load
from diamant_server.storage import DATABASE, SCHEMA_VERSION, Storage, migrate
from test_ssh_server import parse

KEY_ONE = "SHA256:" + "A" * 43
KEY_TWO = "SHA256:" + "b+/9" * 10 + "xyz"


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 18, 45, 2, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def rows_as_before(db: sqlite3.Connection, table: str) -> list[tuple]:
    """The rows of ``table`` without the columns later versions added to them (version
    7: a game's table and number, a person's chosen language), as an upgrade from an
    earlier version should have kept them."""
    rows = db.execute(f"SELECT * FROM {table}").fetchall()
    added = {"games": 2, "players": 1}.get(table, 0)
    return [row[:len(row) - added] for row in rows]


def test_a_version_2_database_gets_a_bans_table_and_keeps_every_row(tmp_path):
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, upto=2)
        db.execute("INSERT INTO players VALUES ('key:SHA256:ann', 'ann', 'fr', "
                   "'2025-03-01T18:00:00Z', '2025-03-02T18:00:00Z')")
        db.execute("INSERT INTO ratings VALUES ('key:SHA256:ann', 25.0, 8.3, 1, 1)")
        before = {t: db.execute(f"SELECT * FROM {t}").fetchall() for t in ("players", "ratings")}
    Storage.open(tmp_path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        for table, rows in before.items():
            assert rows_as_before(db, table) == rows, table
        assert db.execute("SELECT * FROM bans").fetchall() == []


async def test_bans_are_written_through_and_read_again_at_start_up(tmp_path):
    clock = Clock()
    storage = Storage.open(tmp_path)
    bans = Bans(storage, clock=clock)
    await bans.add(bans.make(KEY, "key:" + KEY_ONE, "forever", "cheating  at\tcards", KEY_TWO))
    await bans.add(bans.make(ADDRESS, "::ffff:192.0.2.7", "hour", "flood", KEY_TWO))
    storage.close()

    storage = Storage.open(tmp_path)
    try:
        again = Bans(storage, clock=clock)
        assert await again.load() == 2
        key_ban = again.of_key(KEY_ONE)
        assert key_ban is not None and key_ban.until is None
        assert key_ban.reason == "cheating at cards" and key_ban.by == KEY_TWO
        assert key_ban.message() == "Banned from this server for good, reason: cheating at cards"
        address_ban = again.of_address("192.0.2.7")
        assert address_ban is not None and address_ban == again.of_address("::ffff:192.0.2.7")
        assert address_ban.message() == ("Banned from this server until 2025-03-01 19:45 UTC, "
                                         "reason: flood")
        assert again.of_key(KEY_TWO) is None and again.of_address("192.0.2.8") is None

        clock.now += timedelta(hours=1)  # the hour is over
        assert again.of_address("192.0.2.7") is None
        assert [ban.kind for ban in again.in_force()] == [KEY]
        lifted, write = again.remove(KEY, KEY_ONE)
        assert lifted == key_ban
        await write
        assert await storage.bans() == [], "both forgotten in the database too"
    finally:
        storage.close()


def test_what_cannot_be_banned_is_named():
    bans = Bans()
    for kind, value, words in ((KEY, "SHA256:short", "is not a key fingerprint"),
                               (ADDRESS, "example.org", "is not an IP address"),
                               ("name", "ann", "cannot be banned")):
        with pytest.raises(ValueError, match=words):
            bans.make(kind, value, "day", "", KEY_ONE)
    with pytest.raises(ValueError, match="'month' is not a ban's length: hour, day, week, "
                                         "forever"):
        bans.make(KEY, KEY_ONE, "month", "", KEY_ONE)
    assert normal_address(" [2001:DB8::7] ") == "2001:db8::7"
    assert normal_key(" key:" + KEY_ONE) == KEY_ONE


def test_admins_are_named_by_key_fingerprints_in_flags_files_and_the_environment(tmp_path):
    toml = tmp_path / "serve.toml"
    toml.write_text(f'admins = ["{KEY_ONE}", "{KEY_TWO}"]\n')
    assert load(parse(["--config", str(toml)]), {}).admin_list == (KEY_ONE, KEY_TWO)
    assert load(parse([]), {"DIAMANT_ADMINS": f"{KEY_TWO} , "}).admin_list == (KEY_TWO,)
    assert load(parse([]), {}).admin_list == ()
    with pytest.raises(ConfigError, match=r"admins: 'MD5:aa:bb' is not a key fingerprint; "
                                          r"give each as ssh-keygen -lf shows it"):
        load(parse(["--admins", f"{KEY_ONE},MD5:aa:bb"]), {})
