"""The server's log: one line per event, every line about a connection with its session
id, JSON lines for log collectors, and no chat text, key material or resume codes."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
from dataclasses import replace

import pytest

from conftest import TEST_CONFIG
from diamant_tui.table import TableSettings
from diamant_server.eventlog import fields_of
from diamant_server.server import GameServer
from diamant_server.storage import SCHEMA_VERSION
from harness import Player
from test_ssh_chat_abuse import say
from test_ssh_storage import play_to_the_end

DIAMANT = [sys.executable, "-m", "diamant_tui"]
CODE = re.compile(r"resume code is ([A-Z0-9]{6})")


async def until(test, timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds on the server side."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        assert loop.time() < end, "the server never reached the expected state"
        await asyncio.sleep(0.05)


def everything_logged(caplog) -> str:
    """Every line and every field the server logs, as one text to search. (asyncssh's own
    lines are not the server's: it keeps asyncssh to warnings, see ``setup_logging``.)"""
    return "\n".join(f"{r.getMessage()} {fields_of(r)} {r.exc_text or ''}"
                     for r in caplog.records if not r.name.startswith("asyncssh"))


async def test_every_line_about_a_visit_carries_its_session_id(server, players, make_key,
                                                               caplog):
    """From the connection to its end: connect, login, the session, a table opened, the
    session's end and the connection's; each line starts with the id and carries it."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --bots 2 --seats 3")
    await ann.wait_for("Your turn")
    (session,) = server.sessions
    await ann.close()
    await until(lambda: not server.connections and not server.sessions)
    ours = [r for r in caplog.records if getattr(r, "session", None) == session.id]
    events = [getattr(r, "event", None) for r in ours]
    for event in ("connect", "login", "session", "table_opened", "session_closed",
                  "disconnect"):
        assert event in events, (event, [r.getMessage() for r in ours])
    assert all(r.getMessage().startswith(f"{session.id}: ") for r in ours)
    # Every line of the connection's and the session's own loggers is about one session.
    for record in caplog.records:
        if record.name in ("diamant_server.auth", "diamant_server.session",
                           "diamant_server.app"):
            assert getattr(record, "session", None) == session.id, record.getMessage()
    started = [r for r in caplog.records if getattr(r, "event", None) == "game_started"]
    assert len(started) == 1 and started[0].table == "den"
    # Counted in words a host reads as written: one person, not "1 people".
    assert started[0].getMessage().endswith("game 1 started, 1 person and 2 computer players")


async def test_a_game_is_named_alike_from_its_start_to_its_keeping(server, players,
                                                                    make_key, caplog):
    """The line of a game's start names it by its number at the table, and so does the
    line that says it was kept, which adds the id `diamant export` knows it by: the
    second read "game 2 kept" of a table whose "game 1 started", and a log collector's
    `game` field meant one thing in one event and another in the next."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    first = server.lobby.create(TableSettings(name="den", seats=3, bots=("cards:2",) * 3,
                                              seed=1, pace=0), None)
    first.start()  # a game kept before: ids in the database and numbers at tables part
    await until(lambda: any(getattr(r, "event", None) == "game_saved"
                            for r in caplog.records))
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play cave --bots 2 --seats 3")
    await play_to_the_end(ann)
    await server.lobby.flush()
    [kept] = [game for game in await server.storage.games() if game.table == "cave"]
    [started] = [r for r in caplog.records if getattr(r, "event", None) == "game_started"]
    [saved] = [r for r in caplog.records
               if getattr(r, "event", None) == "game_saved" and r.table == "cave"]
    assert started.game == saved.game == 1 and saved.game_id == kept.id == 2
    assert started.getMessage() == ("table 'cave': game 1 started, 1 person and 2 "
                                    "computer players")
    assert saved.getMessage() == "table 'cave': game 1 kept, id 2 in the database"


async def test_two_visits_have_two_ids(server, players, make_key, caplog):
    caplog.set_level(logging.INFO, logger="diamant_server")
    for name in ("ann", "bob"):
        person = players(name)
        await person.connect(server.port, key=make_key())
        await person.wait_for("lobby")
        await person.close()
    await until(lambda: not server.sessions)
    logins = [r for r in caplog.records if getattr(r, "event", None) == "login"]
    assert [r.player for r in logins] == ["ann", "bob"]
    assert logins[0].session != logins[1].session


async def test_chat_text_is_not_logged_unless_the_host_asks(tmp_path, players, make_key,
                                                           caplog):
    """Off by default: the log says nothing of what players say. With ``log_chat`` on,
    each line said is logged once, with the session id of who said it."""
    for log_chat in (False, True):
        server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path / str(log_chat),
                                    log_chat=log_chat))
        await server.start()
        caplog.clear()
        try:
            with caplog.at_level(logging.DEBUG):
                server.lobby.create(TableSettings(name="den", seats=3,
                                                  bots=("carry:20",) * 2, seed=1,
                                                  pace=0.5), None)
                ann = players("ann")
                await ann.connect(server.port, key=make_key(), command="play den")
                await ann.wait_for("Your turn")
                assert await say(ann, "the-ruby-is-mine") is None
                await ann.wait_for("the-ruby-is-mine")
                (session,) = server.sessions
                await ann.close()
                await until(lambda: not server.sessions)
        finally:
            await server.stop()
        logged = everything_logged(caplog)
        if not log_chat:
            assert "the-ruby-is-mine" not in logged
        else:
            chat = [r for r in caplog.records if "the-ruby-is-mine" in r.getMessage()]
            assert len(chat) == 1 and chat[0].session == session.id
            assert chat[0].event == "chat" and chat[0].table == "den"


async def test_resume_codes_are_never_logged(server, players, caplog):
    """A code gives a seat: neither the one typed after ``resume`` on the command line,
    nor a wrong one typed in the lobby, reaches the log."""
    caplog.set_level(logging.DEBUG)
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2, seed=5,
                                      pace=0.5), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play den")
    code = CODE.search(await guest.wait_for(CODE.pattern))[1]
    await guest.close()
    back = players("gus")
    await back.connect(server.port, command=f"resume {code}")
    await back.wait_for(r"▶ gus")
    wrong = code[:5] + ("A" if code[5] != "A" else "B")  # one letter off
    guesser = players("eve")
    await guesser.connect(server.port)
    await guesser.wait_for("lobby")
    guesser.press("r")
    await guesser.wait_for("Your resume code")
    guesser.type(wrong)
    guesser.press("enter")
    await guesser.wait_for("No seat is waiting")
    logged = everything_logged(caplog)
    assert "with command resume ******" in logged
    assert code not in logged and wrong not in logged
    assert "wrong resume code from 127.0.0.1" in logged


async def test_json_lines_parse_and_follow_a_session(tmp_path, make_key):
    """``--log-format json``: each line one object, with time, level, logger, message,
    the session id and the line's fields."""
    proc = await asyncio.create_subprocess_exec(
        *DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path),
        "--log-format", "json", stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "DIAMANT_LOG_LEVEL": "info"})
    try:
        port = int((await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
                   .rsplit(" ", 1)[1])
        ann = Player("ann")
        await ann.connect(port, key=make_key())
        await ann.wait_for("lobby")
        await ann.close()
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0
    entries = [json.loads(line) for line in err.decode().splitlines()]
    for entry in entries:
        assert {"time", "level", "logger", "message"} <= set(entry), entry
    login = next(e for e in entries if e.get("event") == "login")
    assert login["player"] == "ann" and login["address"] == "127.0.0.1"
    assert login["key"].startswith("SHA256:")
    visit = [e for e in entries if e.get("session") == login["session"]]
    assert [e["event"] for e in visit if e.get("event") in ("connect", "login", "disconnect")
            ] == ["connect", "login", "disconnect"]
    # The id is a field: the message does not repeat it.
    assert not any(e["message"].startswith(login["session"] + ":") for e in visit)


def test_an_admin_action_is_one_warning_line_with_the_admins_session(caplog):
    """The hook the admin view will call: one line, whatever the log level."""
    from diamant_server.eventlog import admin_action

    caplog.set_level(logging.WARNING)
    admin_action("s7", "kick", target="s9", name="ann\x1b[2J")
    (record,) = caplog.records
    assert record.getMessage() == "s7: admin kick target=s9 name=ann\\x1b[2J"
    assert (record.session, record.event, record.action, record.target) == (
        "s7", "admin", "kick", "s9")


@pytest.mark.parametrize("command, logged", [
    ("resume ABC123", "resume ******"),
    ("'resume' ABC123", "resume ******"),
    ("RESUME abc123", "resume ******"),
    ("play den --bots 2", "play den --bots 2"),
])
def test_commands_are_logged_without_their_resume_code(command, logged):
    from diamant_server.commands import without_secrets

    assert without_secrets(command) == logged


async def test_the_start_and_the_stop_count_in_words_a_host_reads_as_written(
        tmp_path, players, make_key, caplog):
    """A new data folder's database is made, once, not "upgraded" seven times; one ban,
    one mute, one session are counted as one, not "1 bans", "1 mutes", "1 sessions"."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await server.start()
    try:
        await server.bans.add(server.bans.make("address", "192.0.2.7", "forever", "flood",
                                               "test"))
        await server.mutes.add(server.mutes.make("key", "SHA256:" + "A" * 43, "forever",
                                                 "rude", "test"))
        ann = players("ann")
        await ann.connect(server.port, key=make_key())
        await ann.wait_for("the lobby")
    finally:
        await server.stop()
    messages = [r.getMessage() for r in caplog.records]
    assert [m for m in messages if m.startswith("database ")] == [
        f"database made, version {SCHEMA_VERSION}"]
    assert "stopping: 1 session open" in messages
    caplog.clear()
    again = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await again.start()
    await again.stop()
    messages = [r.getMessage() for r in caplog.records]
    assert "1 ban in force" in messages and "1 mute in force" in messages
    assert not [m for m in messages if m.startswith("database ")], "nothing to upgrade"
