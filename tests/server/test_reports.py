"""Reports as kept: the database's version 6 adds them to a version 5 database without
touching anything else; a report is written through, read again at start-up while
open, and kept once dismissed; what one person may report is bounded (once about the
same person, five in all, within the hour)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from datetime import timedelta

import pytest

from diamant_server.identity import Identity
from diamant_server.reports import (GONE_KEPT, GONE_MOST, MOST, Departed, Departures,
                                    ReportRefused, Reports, clean_reason, known_as)
from diamant_server.storage import DATABASE, SCHEMA_VERSION, Storage, migrate
from test_bans import KEY_ONE, KEY_TWO, Clock, rows_as_before

TABLES = ("players", "open_tables", "games", "seats", "ratings", "bans", "mutes")
ANN = ("key", KEY_ONE)
GUESTS = ("guest", "192.0.2.7")


def test_a_version_5_database_gets_a_reports_table_and_keeps_every_row(tmp_path):
    path = tmp_path / DATABASE
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, upto=5)
        db.execute("INSERT INTO players VALUES ('key:SHA256:ann', 'ann', 'fr', "
                   "'2025-03-01T18:00:00Z', '2025-03-02T18:00:00Z')")
        db.execute("INSERT INTO open_tables VALUES ('t1', 'cave', '{}', '{}', "
                   "'2025-03-02T18:00:00Z', NULL)")
        db.execute("INSERT INTO games VALUES (1, 'cave', 'classic', '2025-03-01T18:00:00Z', "
                   "NULL, '{}', 0)")
        db.execute("INSERT INTO seats VALUES (1, 0, 'ann', 'key:SHA256:ann', NULL, NULL, NULL)")
        db.execute("INSERT INTO ratings VALUES ('key:SHA256:ann', 25.0, 8.3, 1, 1)")
        db.execute("INSERT INTO bans VALUES ('address', '192.0.2.7', NULL, 'flood', 'x', "
                   "'2025-03-01T18:00:00Z')")
        db.execute("INSERT INTO mutes VALUES ('guest', '192.0.2.8', NULL, 'rude', 'x', "
                   "'2025-03-01T18:00:00Z')")
        before = {t: db.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}
        assert db.execute("PRAGMA user_version").fetchone()[0] == 5
    Storage.open(tmp_path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        for table, rows in before.items():
            assert rows_as_before(db, table) == rows, table
        assert db.execute("SELECT * FROM reports").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError):  # a key or a guest's address only
            db.execute("INSERT INTO reports (made, table_name, reporter_name, reporter_kind, "
                       "reporter_value, reported_name, reported_kind, reported_value, "
                       "reason, evidence) VALUES ('2025-03-01T18:00:00Z', 'den', 'ann', "
                       "'name', 'ann', 'bob', 'key', 'x', '', '[]')")


async def test_a_report_is_written_read_again_while_open_and_kept_once_dismissed(tmp_path):
    clock = Clock()
    storage = Storage.open(tmp_path)
    reports = Reports(storage, clock=clock)
    first = await reports.file("den", "ann", ANN, "[b]bob", GUESTS, "insults\n [red]x[/red]",
                               ("l1", "l2", "l3", "l4", "l5", "[b]l6[/b]"))
    clock.now += timedelta(minutes=1)
    second = await reports.file("den", "ann", ANN, "cy", ("key", KEY_TWO), "", ())
    storage.close()

    storage = Storage.open(tmp_path)
    try:
        again = Reports(storage, clock=clock)
        assert await again.load() == 2
        assert [r.id for r in again.open()] == [second.id, first.id]  # newest first
        kept = again.open()[1]
        assert kept == first
        assert (kept.reporter, kept.reporter_as, kept.reported, kept.reported_as) == (
            "ann", ANN, "[b]bob", GUESTS)
        assert kept.reason == "insults [red]x[/red]"  # one line, as typed
        assert kept.evidence == ("l2", "l3", "l4", "l5", "[b]l6[/b]")  # the last five
        dismissed, write = again.dismiss(first.id, KEY_TWO)
        assert dismissed == first
        await write
        assert again.dismiss(first.id, KEY_TWO) == (None, None)
    finally:
        storage.close()
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE)) as db:
        rows = db.execute("SELECT id, dismissed IS NOT NULL, dismissed_by, evidence "
                          "FROM reports ORDER BY id").fetchall()
    assert [(r[0], r[1], r[2]) for r in rows] == [(first.id, 1, KEY_TWO),
                                                   (second.id, 0, None)]
    assert json.loads(rows[0][3]) == list(first.evidence)
    storage = Storage.open(tmp_path)
    try:
        assert [r.id for r in await storage.open_reports()] == [second.id]
    finally:
        storage.close()


async def test_one_report_about_the_same_person_and_five_in_all_each_hour():
    """A second report of ann about bob within the hour is refused (already sent); five
    about five people are taken, a sixth refused, saying when she may again; an hour
    after the first, she may. Others are counted apart."""
    clock = Clock()
    reports = Reports(clock=clock)
    await reports.file("den", "ann", ANN, "bob", ("key", KEY_TWO), "", ())
    with pytest.raises(ReportRefused) as refused:
        await reports.file("den", "ann", ANN, "bob", ("key", KEY_TWO), "again", ())
    assert refused.value.key == "report.already"
    for n in range(1, MOST):
        clock.now += timedelta(minutes=10)
        await reports.file("den", "ann", ANN, f"p{n}", ("guest", f"192.0.2.{n}"), "", ())
    with pytest.raises(ReportRefused) as refused:
        await reports.file("den", "ann", ANN, "zed", ("guest", "192.0.2.99"), "", ())
    assert (refused.value.key, refused.value.fmt) == ("report.too_many",
                                                      {"count": MOST, "minutes": 20})
    await reports.file("den", "gus", GUESTS, "zed", ("guest", "192.0.2.99"), "", ())
    clock.now += timedelta(minutes=20)  # an hour after her first report
    await reports.file("den", "ann", ANN, "zed", ("guest", "192.0.2.99"), "", ())
    assert len(reports.open()) == MOST + 2


async def test_the_limits_count_the_reports_made_before_a_restart(tmp_path):
    """Reports made within the hour before the server restarted, dismissed or not, still
    count: the same person again is refused, and so is a sixth report; one older than an
    hour does not count."""
    clock = Clock()
    storage = Storage.open(tmp_path)
    try:
        reports = Reports(storage, clock=clock)
        await reports.file("den", "ann", ANN, "old", ("guest", "192.0.2.50"), "", ())
        clock.now += timedelta(minutes=61)
        for n in range(MOST):
            await reports.file("den", "ann", ANN, f"p{n}", ("guest", f"192.0.2.{n}"), "", ())
            clock.now += timedelta(minutes=1)
        dismissed, write = reports.dismiss(reports.open()[0].id, KEY_TWO)
        await write
    finally:
        storage.close()

    storage = Storage.open(tmp_path)
    try:
        again = Reports(storage, clock=clock)
        assert await again.load() == MOST  # the oldest dismissed
        with pytest.raises(ReportRefused) as refused:
            again.check(ANN, ("guest", dismissed.reported_as[1]))
        assert refused.value.key == "report.already"
        with pytest.raises(ReportRefused) as refused:
            again.check(ANN, ("guest", "192.0.2.99"))
        assert refused.value.key == "report.too_many"
        assert refused.value.fmt["minutes"] == 60 - MOST
        clock.now += timedelta(minutes=60 - MOST)
        again.check(ANN, ("guest", "192.0.2.50"))  # an hour after the first of the five
    finally:
        storage.close()


def test_a_person_is_known_by_their_key_or_a_guest_by_their_address():
    assert known_as(Identity("key:" + KEY_ONE, "ann", guest=False,
                             address="192.0.2.7")) == ANN
    assert known_as(Identity("guest:7", "gus", guest=True,
                             address="::ffff:192.0.2.7")) == GUESTS
    assert clean_reason("a\x1b[31m \u200b b" + "x" * 300) == ("a [31m b" + "x" * 300)[:200]


class _Table:
    """Stands for a table: the departures only hold it weakly and compare it."""


def test_someone_who_left_is_found_for_half_an_hour_at_that_table_only():
    """bob, gone from den, is found there until GONE_KEPT has passed; not at another
    table, nor at a new table opened under den's name once the old one is gone; a later
    departure under his name replaces the first; a crowd coming and going is bounded."""
    now = [0.0]
    gone = Departures(clock=lambda: now[0])
    den, cave = _Table(), _Table()
    bob = Departed("s2", Identity("key:" + KEY_TWO, "bob", guest=False, address="192.0.2.2"))
    gone.note(den, "den", "bob", bob)
    assert gone.find(den, "den", "bob") == bob
    assert gone.find(cave, "cave", "bob") is None
    assert gone.find(den, "den", "ann") is None
    now[0] += GONE_KEPT - 1
    assert gone.find(den, "den", "bob") == bob
    now[0] += 1
    assert gone.find(den, "den", "bob") is None

    again = Departed("s3", bob.identity)
    gone.note(den, "den", "bob", again)
    del den
    assert gone.find(_Table(), "den", "bob") is None  # another table under the old name
    for n in range(GONE_MOST + 10):
        gone.note(cave, "cave", f"p{n}", again)
    assert len(gone._gone) == GONE_MOST
    assert gone.find(cave, "cave", "p9") is None and gone.find(cave, "cave", "p10") == again
