"""Reports over real SSH: a player types ``/report NAME why`` at a table; the report is
in the database, an admin online is told at once and reads it on the admin screen (who,
whom, where, why, the reported person's last lines), goes on from it to mute them, and
dismisses it (asked first). A repeat is refused; the reported person is told nothing.
Someone who left the table, or lost their connection, can still be reported there."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3

import pytest

from diamant_server.storage import DATABASE
from diamant_tui.table import TableSettings
from diamant_tui.i18n import Translator
from test_hosting_admin import (fingerprint, flowing, notice, open_admin_screen, session_of,
                                started)
from test_hosting_mutes import at_table, sent
from test_ssh_ignore import box_open, command

REASON = "triche [red]insultes[/red]"


@pytest.fixture
def admin_key(make_key):
    return make_key()


def reports_in(tmp_path) -> list[tuple]:
    """The reports the database holds, oldest first."""
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE)) as db:
        return db.execute(
            "SELECT table_name, reporter_name, reporter_kind, reporter_value, reported_name, "
            "reported_kind, reported_value, reason, evidence, dismissed IS NOT NULL, "
            "dismissed_by FROM reports ORDER BY id").fetchall()


async def test_a_report_reaches_the_admin_and_the_database_and_the_reported_sees_nothing(
        tmp_path, players, admin_key, make_key, caplog):
    """ann (in French) reports bob, who said two rude lines, with a reason in brackets:
    she is thanked, the admin in the lobby reads it on his note line, the database
    keeps it with bob's lines. Her second report of bob is refused. On the admin screen
    (80x24) the report is listed and read whole; s goes on to mute bob's session; d
    dismisses it once confirmed, and it is kept as dismissed. Once bob has left the
    table, a report of him is still his (refused again: already sent). bob's terminal
    never received a word of it."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = await started(tmp_path, admin_key)
    fr = Translator("fr")
    try:
        boss = players("boss")
        await boss.connect(server.port, key=admin_key)
        await boss.wait_for("the lobby")
        ann, bob = await at_table(server, players, make_key, ("ann", "fr_FR.UTF-8"),
                                  ("bob", "en_GB.UTF-8"))
        await ann.wait_for("À vous")
        await sent(bob, "en", "[b]you all stink[/b]")
        await sent(bob, "en", "losers")
        await ann.wait_for("» bob: losers")

        await command(ann, f"/report BOB {REASON}", fr("chat.reported", name="bob"))
        await boss.wait_for(lambda text: f"ann reported bob at den: {REASON}" in flowing(text))
        ann_key = session_of(server, "ann").identity.key[4:]
        bob_key = session_of(server, "bob").identity.key[4:]
        [row] = reports_in(tmp_path)
        assert row[:8] + row[9:] == ("den", "ann", "key", ann_key, "bob", "key", bob_key,
                                     REASON, 0, None)
        assert json.loads(row[8]) == ["[b]you all stink[/b]", "losers"]

        await command(ann, "/report bob encore", fr("report.already"))
        assert len(reports_in(tmp_path)) == 1

        await open_admin_screen(boss, "ann", "bob")
        await boss.wait_for(lambda text: "1 report open (r)" in text)
        boss.press("r")
        screen = await boss.wait_for(lambda text: "Players' reports · 1 open" in text
                                     and "» losers" in text)
        assert "ann → bob" in screen and f"Reason: {REASON}" in screen
        assert "bob's last lines at the table:" in screen and "» [b]you all stink[/b]" in screen
        assert "d dismiss" in screen.splitlines()[-1] or "d dismiss" in screen

        boss.press("s")  # on to the admin screen's mute, on bob's session
        await boss.wait_for("Mute bob in chat")
        boss.press("escape")
        await boss.wait_for(lambda text: "Mute bob" not in text)
        boss.press("r")
        await boss.wait_for("Players' reports · 1 open")
        boss.press("d")
        question = f"Dismiss the report of ann on bob at den, reason: {REASON}?"
        await boss.wait_for(lambda text: question in flowing(text))
        assert reports_in(tmp_path)[0][9] == 0, "nothing dismissed before the answer"
        boss.press("y")
        await notice(boss, "Dismissed: the report of ann on bob.")
        await boss.wait_for("No report is open.")
        [row] = reports_in(tmp_path)
        assert row[9:] == (1, fingerprint(admin_key))
        [logged] = [r for r in caplog.records if getattr(r, "action", None) == "dismiss_report"]
        assert logged.session == session_of(server, "boss").id

        bob.press("q")  # bob leaves the game: still him, reported already
        await bob.wait_for("Leave this table while the game goes on?")
        await bob.press_until("y", "the lobby")  # (a yes typed at once is not taken)
        await command(ann, "/report bob parti", fr("report.already"))
        assert len(reports_in(tmp_path)) == 1

        told_bob = bob.raw.decode(errors="replace")
        for word in ("triche", "insultes", "reported", "signal", "encore", "parti"):
            assert word not in told_bob, word
    finally:
        await server.stop()


@pytest.mark.parametrize("goes", ["leaves", "drops"])
async def test_someone_who_insults_the_table_and_goes_can_still_be_reported(
        tmp_path, players, admin_key, make_key, goes):
    """bob says a rude line, then leaves the table (or his connection drops). ann, in
    Ukrainian, reports him: she is thanked, and the report names bob by his key, with his
    line as evidence, as if he were still there."""
    server = await started(tmp_path, admin_key)
    uk = Translator("uk")
    try:
        ann, bob = await at_table(server, players, make_key, ("ann", "uk_UA.UTF-8"),
                                  ("bob", "en_GB.UTF-8"))
        await sent(bob, "en", "[b]you all stink[/b]")
        await ann.wait_for(lambda text: "» bob: [b]you all stink[/b]" in text)
        bob_key = session_of(server, "bob").identity.key[4:]
        if goes == "leaves":
            bob.press("q")
            await bob.wait_for("Leave this table while the game goes on?")
            await bob.press_until("y", "the lobby")
        else:
            await bob.close()
        for _ in range(200):  # until bob's member has left the table
            if not any(s.identity.name == "bob" and getattr(s.app, "member", None)
                       for s in server.sessions):
                break
            await asyncio.sleep(0.05)
        await command(ann, "/report bob [red]образи[/red]",
                      uk("chat.reported_later", name="bob"))
        [row] = reports_in(tmp_path)
        assert row[4:8] == ("bob", "key", bob_key, "[red]образи[/red]")
        assert json.loads(row[8]) == ["[b]you all stink[/b]"]
    finally:
        await server.stop()


def sanctions_in(tmp_path, table: str) -> list[tuple]:
    """The bans or mutes the database holds: kind, value, reason."""
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE)) as db:
        return db.execute(f"SELECT kind, value, reason FROM {table}").fetchall()


async def test_an_admin_mutes_and_bans_from_a_report_someone_who_has_left(
        tmp_path, players, admin_key, make_key):
    """bob insults the table and drops his connection; ann reports him. The admin, on
    the reports screen, cannot ban an address the report does not know (said why), but
    mutes bob's key and then bans it from the report, as if he were online: both are
    kept, and bob coming back is refused."""
    server = await started(tmp_path, admin_key)
    bob_key = make_key()
    try:
        boss = players("boss")
        await boss.connect(server.port, key=admin_key)
        await boss.wait_for("the lobby")
        server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
        ann, bob = players("ann"), players("bob")
        await ann.connect(server.port, key=make_key(), command="play den")
        await bob.connect(server.port, key=bob_key, command="play den")
        await sent(bob, "en", "[b]you all stink[/b]")
        await ann.wait_for(lambda text: "» bob: [b]you all stink[/b]" in text)
        await bob.close()
        await command(ann, "/report bob insults", "Reported bob to the hosts")

        await open_admin_screen(boss)
        await boss.wait_for(lambda text: "1 report open (r)" in text)
        boss.press("r")
        await boss.wait_for("Players' reports · 1 open")
        boss.press("a")
        await notice(boss, "report knows their key, not their")
        boss.press("s")
        await boss.wait_for(lambda text: f"Mute bob in chat: their key {fingerprint(bob_key)}"
                            in flowing(text))
        boss.type("[i]rude[/i]")
        boss.press("enter")
        await notice(boss, "Muted: ")
        assert sanctions_in(tmp_path, "mutes") == [("key", fingerprint(bob_key),
                                                    "[i]rude[/i]")]
        boss.press("r")
        await boss.wait_for("Players' reports · 1 open")
        boss.press("b")
        await boss.wait_for(lambda text: "Ban the key of bob" in flowing(text))
        boss.type("insults")
        boss.press("enter")
        await boss.wait_for("Bans in force: 1")
        assert sanctions_in(tmp_path, "bans") == [("key", fingerprint(bob_key), "insults")]

        again = players("bob")
        await again.connect(server.port, key=bob_key)
        await again.wait_closed()
        assert "Banned from this server until" in again.raw.decode()
        assert "reason: insults" in again.raw.decode()
    finally:
        await server.stop()


async def test_a_report_is_read_whole_at_80x24_its_reason_and_all_its_lines(
        tmp_path, players, admin_key, make_key):
    """The report chosen is read whole under the list: a reason as long as a chat line
    lets one be and the reported person's five last lines. The part under
    the list stopped at eight rows: the last of the lines it was there to show, the
    evidence, were cut off at 80x24."""
    server = await started(tmp_path, admin_key)
    reason = ("they flooded the table with insults for the whole game and kept at it "
              "after we asked them nicely to stop, then went on insulting spectators "
              "too, so please look at all their lines: -THE END")
    assert len(f"/report bob {reason}") == 200  # as long as a chat line may be
    try:
        ann, bob = await at_table(server, players, make_key, ("ann", "en_GB.UTF-8"),
                                  ("bob", "en_GB.UTF-8"))
        await ann.wait_for("Your turn")
        for number in range(1, 6):
            await sent(bob, "en", f"rude line {number}")
        await ann.wait_for("» bob: rude line 5")
        ann.press("t")
        await ann.wait_for(box_open)
        ann.type(f"/report bob {reason}")  # (longer than the box: its end is shown)
        await ann.wait_for("-THE END")
        ann.press("enter")
        await ann.wait_for(lambda text: not box_open(text))
        for _ in range(200):  # (kept once the server has written it)
            if reports_in(tmp_path):
                break
            await asyncio.sleep(0.05)
        [row] = reports_in(tmp_path)
        assert row[7] == reason
        boss = players("boss")  # (connected now: no notice of the report over the screen)
        await boss.connect(server.port, key=admin_key)
        await open_admin_screen(boss, "ann", "bob")
        boss.press("r")
        screen = await boss.wait_for("Players' reports · 1 open")
        screen = await boss.wait_for("» rude line 1")
        assert "-THE END" in screen
        for number in range(1, 6):
            assert f"» rude line {number}" in screen, (number, screen)
        assert "d dismiss" in screen.splitlines()[-1], "the keys still on the last line"
    finally:
        await server.stop()
