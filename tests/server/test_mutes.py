"""Mutes as kept: the database's version 5 adds them to a version 4 database without
touching anything else, they are read at start-up and written through, one whose time is
over stops and is forgotten; a key is muted by its fingerprint, a guest by the address
they connect from."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import timedelta

import pytest

from diamant_server.bans import KEY
from diamant_server.identity import Identity
from diamant_server.mutes import GUEST, Mutes
from diamant_server.storage import DATABASE, SCHEMA_VERSION, Storage, migrate
from test_bans import KEY_ONE, KEY_TWO, Clock, rows_as_before

TABLES = ("players", "open_tables", "games", "seats", "ratings", "bans")


def test_a_version_4_database_gets_a_mutes_table_and_keeps_every_row(tmp_path):
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, upto=4)
        db.execute("INSERT INTO players VALUES ('key:SHA256:ann', 'ann', 'fr', "
                   "'2025-03-01T18:00:00Z', '2025-03-02T18:00:00Z')")
        db.execute("INSERT INTO open_tables VALUES ('t1', 'cave', '{}', '{}', "
                   "'2025-03-02T18:00:00Z', '{\"0\": \"continue\"}')")
        db.execute("INSERT INTO games VALUES (1, 'cave', 'classic', '2025-03-01T18:00:00Z', "
                   "NULL, '{}', 0)")
        db.execute("INSERT INTO seats VALUES (1, 0, 'ann', 'key:SHA256:ann', NULL, NULL, NULL)")
        db.execute("INSERT INTO ratings VALUES ('key:SHA256:ann', 25.0, 8.3, 1, 1)")
        db.execute("INSERT INTO bans VALUES ('address', '192.0.2.7', NULL, 'flood', 'x', "
                   "'2025-03-01T18:00:00Z')")
        before = {t: db.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4
    Storage.open(tmp_path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        for table, rows in before.items():
            assert rows_as_before(db, table) == rows, table
        assert db.execute("SELECT * FROM mutes").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError):  # only a key or guests' address
            db.execute("INSERT INTO mutes VALUES ('name', 'ann', NULL, '', 'x', "
                       "'2025-03-01T18:00:00Z')")


async def test_mutes_are_written_through_and_read_again_at_start_up(tmp_path):
    clock = Clock()
    storage = Storage.open(tmp_path)
    mutes = Mutes(storage, clock=clock)
    await mutes.add(mutes.make(KEY, "key:" + KEY_ONE, "forever", "insults  [b]x[/b]", KEY_TWO))
    await mutes.add(mutes.make(GUEST, "::ffff:192.0.2.7", "hour", "", KEY_TWO))
    storage.close()

    storage = Storage.open(tmp_path)
    try:
        again = Mutes(storage, clock=clock)
        assert await again.load() == 2
        ann = Identity("key:" + KEY_ONE, "ann", guest=False, address="192.0.2.7")
        key_mute = again.of(ann)  # by the key, though guests from that address are too
        assert key_mute is not None and (key_mute.kind, key_mute.until) == (KEY, None)
        assert key_mute.reason == "insults [b]x[/b]" and key_mute.by == KEY_TWO
        assert key_mute.message() == "The host has muted you for good, reason: insults [b]x[/b]"
        guest = Identity("guest:7", "gus", guest=True, address="::ffff:192.0.2.7")
        guest_mute = again.of(guest)
        assert guest_mute is not None and guest_mute.value == "192.0.2.7"
        assert guest_mute.message() == ("The host has muted you until 2025-03-01 19:45 UTC, "
                                        "reason: none given")
        # A person with a key at that address is their key; a guest elsewhere is free.
        bob = Identity("key:" + KEY_TWO, "bob", guest=False, address="192.0.2.7")
        assert again.of(bob) is None
        assert again.of(Identity("guest:8", "zoe", guest=True, address="192.0.2.8")) is None

        clock.now += timedelta(hours=1)  # the hour is over
        assert again.of(guest) is None
        assert [mute.kind for mute in again.in_force()] == [KEY]
        lifted, write = again.remove(KEY, KEY_ONE)
        assert lifted == key_mute
        await write
        assert await storage.mutes() == [], "both forgotten in the database too"
    finally:
        storage.close()


def test_what_cannot_be_muted_is_named():
    mutes = Mutes()
    for kind, value, words in ((KEY, "SHA256:short", "is not a key fingerprint"),
                               (GUEST, "example.org", "is not an IP address"),
                               ("address", "192.0.2.7", "cannot be muted")):
        with pytest.raises(ValueError, match=words):
            mutes.make(kind, value, "day", "", KEY_ONE)
    with pytest.raises(ValueError, match="'month' is not a mute's length: hour, day, week, "
                                         "forever"):
        mutes.make(KEY, KEY_ONE, "month", "", KEY_ONE)


async def test_a_mute_found_over_before_its_timer_is_told_once_and_a_lifted_one_never(
        tmp_path):
    """A mute whose end is come across (a chat line, the admin's list) before its timer
    fires is forgotten and told then, once; one lifted, or replaced and then lifted, is
    never told as over, and a mute for good is told of by nothing."""
    clock, told = Clock(), []
    storage = Storage.open(tmp_path)
    try:
        mutes = Mutes(storage, clock=clock, on_over=told.append)
        ann = Identity("key:" + KEY_ONE, "ann", guest=False, address="192.0.2.7")
        gus = Identity("guest:7", "gus", guest=True, address="192.0.2.7")
        ann_mute = mutes.make(KEY, KEY_ONE, "hour", "", KEY_TWO)
        await mutes.add(ann_mute)
        await mutes.add(mutes.make(GUEST, "192.0.2.7", "hour", "", KEY_TWO))
        await mutes.add(mutes.make(GUEST, "192.0.2.7", "day", "", KEY_TWO))  # replaced
        await mutes.add(mutes.make(KEY, KEY_TWO, "forever", "", KEY_ONE))
        await mutes.remove(GUEST, "192.0.2.7")[1]
        clock.now += timedelta(days=2)
        assert mutes.of(ann) is None and mutes.of(gus) is None
        assert [mute.kind for mute in mutes.in_force()] == [KEY]
        assert told == [ann_mute]
        mutes.stop_timers()
    finally:
        storage.close()  # once what is queued is written, ann's mute forgotten with it
    storage = Storage.open(tmp_path)
    try:
        assert [mute.value for mute in await storage.mutes()] == [KEY_TWO]
    finally:
        storage.close()
