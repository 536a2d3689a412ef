"""Admins of a public room, over real SSH: the admin screen, kicks, bans that hold across
restarts, closed tables, messages to everyone; and nobody else can reach any of it."""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import timezone
from dataclasses import replace

import asyncssh
import pytest
from rich.cells import cell_len

from conftest import TEST_CONFIG
from diamant_server.admin import AdminError
from diamant_server.server import GameServer
from harness import Player
from test_hosting_logs import until

ADMIN_SCREEN = r"Admin · \d+ sessions? open"


def toasts(text: str) -> str:
    """The words of the notices on a screen, in one line: a notice's lines start with
    its edge, ``▌``, with whatever the screen shows beside it on their left."""
    return " ".join(" ".join(line.partition("▌")[2].split())
                    for line in text.splitlines() if "▌" in line)


async def notice(person: Player, words: str) -> str:
    """Wait for a notice (a toast) saying ``words`` on ``person``'s screen."""
    return await person.wait_for(lambda text: words in toasts(text))


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def started(tmp_path, *admins: asyncssh.SSHKey) -> GameServer:
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path,
                                admins=", ".join(fingerprint(key) for key in admins)))
    await server.start()
    return server


@pytest.fixture
def admin_key(make_key):
    return make_key()


@pytest.fixture
async def room(tmp_path, admin_key):
    """A server with one admin (``admin_key``)."""
    server = await started(tmp_path, admin_key)
    yield server
    await server.stop()


def session_of(server: GameServer, name: str):
    [session] = [s for s in server.sessions if s.identity.name == name]
    return session


async def open_admin_screen(admin: Player, *names: str) -> str:
    """From the lobby: the admin screen, once it lists the sessions of ``names``."""
    await admin.wait_for("the lobby")
    admin.press("a")
    return await admin.wait_for(lambda text: "sessions open" in text
                                and all(name in text for name in names))


async def choose_row(admin: Player, name: str) -> None:
    """Move the cursor of the sessions list to ``name``'s row (the list is in the order
    the sessions opened: the admin's own first)."""
    rows = [line for line in admin.text.splitlines() if line.strip().startswith("s")]
    index = next(i for i, line in enumerate(rows) if f" {name} " in line)
    for _ in range(index):
        admin.press("down")


async def test_an_admin_sees_every_session_and_kicks_one_with_a_reason(room, players,
                                                                      admin_key, make_key,
                                                                      caplog):
    caplog.set_level(logging.INFO, logger="diamant_server")
    boss = players("boss", size=(100, 30))
    await boss.connect(room.port, key=admin_key)
    await boss.wait_for("the lobby")
    bob_key = make_key()
    bob = players("bob")
    await bob.connect(room.port, key=bob_key, command="play cave --seats 3")
    await bob.wait_for("Waiting")
    text = await open_admin_screen(boss, "bob")
    bob_session = session_of(room, "bob")
    [row] = [line for line in text.splitlines() if " bob " in line]
    # Session, name, the start of the key, the address, the table, since, idle.
    assert bob_session.id in row and fingerprint(bob_key)[:15] in row
    assert "127.0.0.1" in row and "cave" in row
    await choose_row(boss, "bob")
    boss.press("k")
    await boss.wait_for("Reason")
    boss.type("spam [b]again[/b]")
    boss.press("enter")
    await bob.wait_closed()
    said = " ".join(bob.raw.decode(errors="replace").split())
    assert "An admin closed your session. Reason: spam [b]again[/b]" in said
    await notice(boss, "has been kicked")
    await until(lambda: all(s.identity.name != "bob" for s in room.sessions))
    [line] = [r for r in caplog.records if getattr(r, "action", None) == "kick"]
    assert line.name == "diamant_server.admin" and line.target == bob_session.id
    assert line.session == session_of(room, "boss").id and line.reason == "spam [b]again[/b]"


def said_after_the_app(person: Player) -> list[str]:
    """The lines the server wrote to ``person``'s terminal once the app had given it
    back (after the escape sequences that leave the app's screen)."""
    after = bytes(person.raw).rpartition(b"\x1b[?1004l")[2].decode()
    assert after.endswith("\r\n") and "\n" not in after.replace("\r\n", "")
    return after.removesuffix("\r\n").split("\r\n")


async def test_a_kicked_person_reads_why_in_lines_broken_between_words(room, players,
                                                                      admin_key, make_key):
    """The reason is written on the person's terminal once the game has gone, in lines
    that fit its width in cells (a wide character takes two), each broken between two
    words: a line longer than the terminal was broken at its edge, mid-word."""
    boss = players("boss", size=(100, 30))
    await boss.connect(room.port, key=admin_key)
    await boss.wait_for("the lobby")
    oksana = players("oksana")
    await oksana.connect(room.port, key=make_key(), env={"LANG": "uk_UA.UTF-8"})
    await oksana.wait_for("зала")
    reason = ("ви надсилали одне й те саме повідомлення в чат знову і знову, "
              "попри прохання припинити 请不要在聊天里反复发送同样的消息 дякуємо")
    room.admin.kick(session_of(room, "boss"), session_of(room, "oksana").id, reason)
    await oksana.wait_closed()
    lines = said_after_the_app(oksana)
    assert len(lines) > 1 and all(cell_len(line) <= 80 for line in lines), lines
    told = "Адміністратор закрив ваш сеанс. Причина: " + reason
    assert " ".join(lines).split(" ") == told.split(" ")  # no word cut in two


async def test_a_banned_key_is_refused_in_one_line_also_after_a_restart(tmp_path, players,
                                                                       admin_key, make_key,
                                                                       caplog):
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = await started(tmp_path, admin_key)
    bob_key = make_key()
    try:
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        bob = players("bob")
        await bob.connect(server.port, key=bob_key)
        await bob.wait_for("the lobby")
        await open_admin_screen(boss, "bob")
        await choose_row(boss, "bob")
        boss.press("b")
        await boss.wait_for("How long: ◀ 1 day ▶")
        boss.press("down", "down")  # a week, then for good
        await boss.wait_for("How long: ◀ for good ▶")
        boss.type("cheating")
        boss.press("enter")
        await bob.wait_closed()
        assert "Banned from this server for good, reason: cheating" in bob.raw.decode()
        await notice(boss, "1 session closed")
        await boss.wait_for("Bans in force: 1")
        again = players("bob")
        await again.connect(server.port, key=bob_key, env={"LANG": "fr_FR.UTF-8"})
        await again.wait_closed()
        [line] = [line for line in again.raw.decode().splitlines() if line.strip()]
        assert line.strip() == "Banni définitivement de ce serveur, motif : cheating"
        assert all(s.app is None for s in server.sessions if s.identity.name == "bob")
        [logged] = [r for r in caplog.records if getattr(r, "action", None) == "ban"]
        assert (logged.kind, logged.value, logged.until) == ("key", fingerprint(bob_key),
                                                            "forever")
    finally:
        await server.stop()

    server = await started(tmp_path, admin_key)  # the same data folder
    try:
        later = players("bob")
        await later.connect(server.port, key=bob_key)
        await later.wait_closed()
        assert "Banned from this server for good, reason: cheating" in later.raw.decode()
        # Someone else, from the same address, plays on.
        ann = players("ann")
        await ann.connect(server.port, key=make_key())
        await ann.wait_for("the lobby")
    finally:
        await server.stop()


async def test_an_address_ban_refuses_new_connections_from_it(tmp_path, players, admin_key,
                                                              make_key):
    """Loopback is the only address here: the admin bans it, and is told they will be
    cut off too."""
    server = await started(tmp_path, admin_key)
    try:
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        bob = players("bob")
        await bob.connect(server.port)  # a guest: only their address can be banned
        await bob.wait_for("the lobby")
        await open_admin_screen(boss, "bob")
        await choose_row(boss, "bob")
        boss.press("b")
        await notice(boss, "A guest has no key to ban")
        boss.press("a")
        await boss.wait_for("This is your own address too")
        boss.press("up")
        await boss.wait_for("How long: ◀ 1 hour ▶")
        boss.type("flood")
        boss.press("enter")
        await asyncio.gather(bob.wait_closed(), boss.wait_closed())
        assert "Banned from this server until " in bob.raw.decode()
        [ban] = server.bans.in_force()
        assert (ban.kind, ban.value, ban.reason) == ("address", "127.0.0.1", "flood")
        with pytest.raises(asyncssh.DisconnectError,
                           match=rf"Banned from this server until {ban.until_text()}, "
                                 rf"reason: flood"):
            await players("cat").connect(server.port, key=make_key())
    finally:
        await server.stop()

    server = await started(tmp_path, admin_key)
    try:
        with pytest.raises(asyncssh.DisconnectError, match="reason: flood"):
            await players("cat").connect(server.port, key=make_key())
        lifted, write = server.bans.remove("address", "127.0.0.1")
        await write
        assert lifted == ban
        cat = players("cat")
        await cat.connect(server.port, key=make_key())
        await cat.wait_for("the lobby")
    finally:
        await server.stop()
    server = await started(tmp_path, admin_key)  # lifted for good: written through
    try:
        assert server.bans.in_force() == []
    finally:
        await server.stop()


async def test_a_non_admin_has_no_admin_key_and_the_actions_refuse_them(room, players,
                                                                        admin_key, make_key,
                                                                        caplog):
    caplog.set_level(logging.INFO, logger="diamant_server")
    boss = players("boss")
    await boss.connect(room.port, key=admin_key)
    text = await boss.wait_for("the lobby")
    assert "a Admin" in text, "an admin sees the key"
    assert "f1 Rules" in text, "and the key bar keeps its last key at 80 columns"
    bob, guest = players("bob"), players("gus")
    await bob.connect(room.port, key=make_key())
    await guest.connect(room.port)
    for person in (bob, guest):
        text = await person.wait_for("the lobby")
        assert "Admin" not in text
        person.press("a", "g")  # the admin key, then the language key
        text = await person.wait_for("le salon")
        # (Not "session": a guest's own header says "session d'invité" in French.)
        assert "sessions ouvertes" not in text and "Admin" not in text
    # Asked directly, the actions refuse them too (and leave everything as it was).
    boss_session, bob_session = session_of(room, "boss"), session_of(room, "bob")
    desk = room.admin
    for who in (bob_session, session_of(room, "gus")):
        refused = [
            lambda: desk.sessions(who),
            lambda: desk.bans_in_force(who),
            lambda: desk.kick(who, boss_session.id, "mine now"),
            lambda: desk.broadcast(who, "hello"),
        ]
        for action in refused:
            with pytest.raises(AdminError) as error:
                action()
            assert error.value.key == "admin.refused"
        for action in (lambda: desk.ban(who, "key", fingerprint(admin_key), "forever"),
                       lambda: desk.unban(who, "address", "127.0.0.1"),
                       lambda: desk.close_table(who, "cave")):
            with pytest.raises(AdminError, match="Only the server's admins may do that"):
                await action()
    assert room.bans.in_force() == [] and boss_session in room.sessions
    assert not boss.closed.is_set()
    refusals = [r for r in caplog.records if getattr(r, "reason", None) == "not_admin"]
    assert len(refusals) == 14 and {r.session for r in refusals} == {
        bob_session.id, session_of(room, "gus").id}
    assert not [r for r in caplog.records if r.name == "diamant_server.admin"
                and getattr(r, "event", None) == "admin"]


async def test_a_message_to_everyone_shows_on_every_screen(room, players, admin_key,
                                                           make_key):
    boss = players("boss", size=(100, 30))
    await boss.connect(room.port, key=admin_key)
    ann, bob = players("ann"), players("bob")
    await ann.connect(room.port, key=make_key())  # in the lobby
    await bob.connect(room.port, key=make_key(), command="play cave --seats 3 --bots 2")
    await ann.wait_for("the lobby")
    await bob.wait_for("Your turn")  # at a table, a game going on
    await open_admin_screen(boss, "ann", "bob")
    boss.press("m")
    await boss.wait_for("shown on every screen")
    boss.press("enter")  # nothing typed: not sent
    await boss.wait_for("Type a message first")
    boss.type("Restart at [b]noon[/b]")
    boss.press("enter")
    said = "Message from the server: Restart at [b]noon[/b]"
    for person in (ann, boss):
        await person.wait_for(lambda text: said in toasts(text))
    # At a table, among the round's lines under the cave, where the chat is read: a
    # toast stood over the newest of them (the banner) for its 30 seconds.
    text = await bob.wait_for(lambda text: said in text)
    assert not toasts(text), text
    await notice(boss, "Message shown to 3 sessions")
    bob.press("g")  # and kept in the game's log
    await bob.wait_for(lambda text: "Game log" in text and said in text)


async def test_a_guest_reads_the_resume_code_where_it_covers_nothing_of_the_game(room,
                                                                                 players):
    """A guest who sits down (here the last one: the game begins at once) is told the
    code that gives the seat back among the round's lines under the cave, and in the
    log: a toast stood over the round's newest lines (the banner) for ten seconds."""
    zoe = players("zoe")
    await zoe.connect(room.port, command="play cave --seats 4 --bots 3",
                      env={"LANG": "uk_UA.UTF-8"})
    text = await zoe.wait_for(lambda text: "код повернення" in text)
    assert not toasts(text), text
    code = re.search(r"код повернення ([A-Z0-9]{6})", text)[1]
    said = " ".join(text.split())
    assert f"ssh -t -p {room.port} zoe@127.0.0.1 resume {code}" in said
    # The banner's lines stand whole over the decision, the round's first among them.
    assert "Починається раунд 1: усі заходять у печеру." in text, text


async def test_a_message_of_invisible_characters_is_refused_in_its_dialog(room, players,
                                                                         admin_key):
    """A pasted zero-width space or control character is no message: the dialog says so
    and stays open, as for nothing typed, rather than closing on a notice."""
    boss = players("boss")
    await boss.connect(room.port, key=admin_key)
    await boss.wait_for("the lobby")
    boss.press("a")
    await boss.wait_for("1 session open")
    boss.press("m")
    await boss.wait_for("shown on every screen")
    boss.send("\x1b[200~\u200b\u00ad\x07\x1b[201~".encode())  # a bracketed paste
    boss.press("enter")
    await boss.wait_for(lambda text: "Type a message first" in text
                        and "shown on every screen" in text)
    boss.type("Back in five")
    boss.press("enter")
    await notice(boss, "Message from the server:")


async def test_closing_a_table_sends_its_people_back_to_the_lobby(room, players, admin_key,
                                                                 make_key):
    boss = players("boss", size=(100, 30))
    await boss.connect(room.port, key=admin_key)
    cat, dan = players("cat"), players("dan")
    await cat.connect(room.port, key=make_key(), command="play cave --seats 3 --bots 2")
    await cat.wait_for("Your turn")
    await dan.connect(room.port, key=make_key(), command="watch cave")
    await dan.wait_for("You are watching")
    await open_admin_screen(boss, "cat", "dan")
    await choose_row(boss, "cat")
    boss.press("c")
    await boss.wait_for("Close table cave")
    boss.type("maintenance")
    boss.press("enter")
    for person in (cat, dan):
        await person.wait_for(lambda t: "the lobby" in t and "An admin closed table cave "
                              "(reason: maintenance)" in toasts(t))
    await notice(boss, "2 sessions went back to the lobby")
    assert room.lobby.get("cave") is None
    await room.lobby.flush()
    [game] = await room.storage.games()
    assert game.table == "cave" and not game.finished, "kept as far as it went"
    # Back in the lobby, they can play on.
    cat.press("n")
    await cat.wait_for("Open a table")


async def test_an_admin_cannot_shut_out_an_admin_key_nor_kick_their_own_session(
        tmp_path, players, admin_key, make_key):
    """Banned, an admin's key could never come back to the one screen that lifts bans,
    and kicking one's own session closes that screen: the screen says so at once (before
    asking for a reason), in the admin's language, and the desk refuses both when asked
    directly. Another admin's key is refused as well; a person's key is still banned."""
    other_admin = make_key()
    server = await started(tmp_path, admin_key, other_admin)
    try:
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        deputy, bob, bob_key = players("deputy"), players("bob"), make_key()
        await deputy.connect(server.port, key=other_admin)
        await bob.connect(server.port, key=bob_key)
        await open_admin_screen(boss, "boss", "deputy", "bob")
        for name in ("boss", "deputy"):
            await choose_row(boss, name)
            boss.press("b")
            await notice(boss, "That is an admin's key: it cannot be banned while it is in "
                               "the server's admins setting.")
            assert "Reason" not in boss.text  # nothing asked
            boss.press("up", "up", "up")  # back to the first row, the admin's own
        boss.press("k")  # the cursor on the admin's own row
        await notice(boss, "That is your own session: Esc takes you back to the lobby.")
        assert "Reason" not in boss.text
        desk, own = server.admin, session_of(server, "boss")
        for key in (admin_key, other_admin):
            with pytest.raises(AdminError) as error:
                await desk.ban(own, "key", fingerprint(key), "forever")
            assert error.value.key == "admin.error.admin_key"
        with pytest.raises(AdminError) as error:
            desk.kick(own, own.id, "oops")
        assert error.value.key == "admin.error.own_session"
        assert server.bans.in_force() == [] and not boss.closed.is_set()
        assert not deputy.closed.is_set()
        # A person's key is banned as before.
        made, closed = await desk.ban(own, "key", fingerprint(bob_key), "hour")
        assert closed == 1
        await bob.wait_closed()
    finally:
        await server.stop()


def flowing(text: str) -> str:
    """``text``'s words in one line, however a dialog wrapped them (its edges left out)."""
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize("lang, asked", [
    ("en", "Lift this ban: key {key}, for good, reason: cheating [b]again[/b]?"),
    ("uk", "Зняти цей бан: ключ {key}, назавжди, причина: cheating [b]again[/b]?"),
], ids=["en", "uk"])
async def test_lifting_a_ban_is_asked_first_naming_the_ban_and_escape_keeps_it(
        room, players, admin_key, make_key, lang, asked):
    """``u`` on a ban asks first, as a ban does, naming it whole (the key, until when, the
    reason as written); Escape keeps it, ``y`` lifts it. It was lifted at once: a key
    pressed on the wrong row let someone back in."""
    bob_key = fingerprint(make_key())
    ban = room.bans.make("key", bob_key, "forever", "cheating [b]again[/b]", "test")
    await room.bans.add(ban)
    boss = players("boss", size=(100, 30))
    locale = {"en": "en_GB.UTF-8", "uk": "uk_UA.UTF-8"}[lang]
    await boss.connect(room.port, key=admin_key, env={"LANG": locale})
    await boss.wait_for(lambda text: "Admin" in text or "Адмін" in text)
    boss.press("a")
    await boss.wait_for(lambda text: bob_key[:15] in text)  # as written: a key holds "+"
    boss.press("tab", "u")  # the list of bans, its only row
    question = flowing(asked.format(key=bob_key))
    await boss.wait_for(lambda text: question in flowing(text))
    assert room.bans.in_force() == [ban], "nothing lifted before the answer"
    boss.press("escape")
    await boss.wait_for(lambda text: question not in flowing(text))
    assert room.bans.in_force() == [ban], "Escape keeps the ban"
    boss.press("u")
    await boss.wait_for(lambda text: question in flowing(text))
    boss.press("y")
    await until(lambda: room.bans.in_force() == [])


async def test_a_refused_person_asking_for_help_or_without_a_terminal_is_told_why(
        room, players, make_key):
    """``ssh -T host`` and ``ssh host help`` answer without the game's screens: a banned
    key was told to add -t, or given the list of commands, and learnt it was banned only
    once it did; a refused name likewise. Each is told why, in its language, first."""
    banned = make_key()
    ban = room.bans.make("key", fingerprint(banned), "forever", "cheating", "SHA256:boss")
    await room.bans.add(ban)
    for command, pty, lang, said in (
            (None, False, "en", "Banned from this server for good, reason: cheating"),
            ("help", True, "fr", "Banni définitivement de ce serveur, motif : cheating"),
            ("help", False, "en", "Banned from this server for good, reason: cheating")):
        person = players("bob")
        await person.connect(room.port, key=banned, command=command, pty=pty,
                             env={"LANG": f"{lang}_XX.UTF-8"})
        await person.wait_closed()
        text = person.raw.decode()
        assert said in text, text
        assert "ssh -t" not in text and "commands" not in text and "commandes" not in text
        assert person.chan.get_exit_status() == 2
    root = players("root")
    await root.connect(room.port, key=make_key(), pty=False)
    await root.wait_closed()
    text = root.raw.decode()
    assert "The name root is kept for the server and its staff" in text, text
    assert "Diamant needs a terminal" not in text


async def test_a_name_in_wide_characters_leaves_every_column_in_sight(room, players,
                                                                      admin_key, make_key):
    """A name of 16 CJK characters takes 32 columns: the sessions list took them all and
    pushed since when and how long idle off a 100-column screen, as no name of 16 Latin
    letters does."""
    boss = players("boss", size=(100, 30))
    await boss.connect(room.port, key=admin_key)
    wide = "山田太郎左衛門右衛門之助介様与一"
    person = players(wide)
    await person.connect(room.port, key=make_key(),
                         command="play 黄金洞窟探検隊の秘密基地へようこそ皆")
    await person.wait_for("Waiting")
    text = await open_admin_screen(boss, "山田太郎")
    [row] = [line for line in text.splitlines() if "山田太郎" in line]
    assert re.search(r"山田太郎.*… +SHA256:.* 127\.0\.0\.1 +黄金洞窟.*… +"
                     r"\d\d-\d\d \d\d:\d\d +\d+ s",
                     row), row


async def test_the_admin_screen_dates_a_session_as_its_language_writes_dates(room, players,
                                                                            admin_key):
    """"12-08 01:06" reads as the 12th of August to a French admin: they see "08/12 01:06",
    a Ukrainian one "08.12 01:06", as My games writes its dates."""
    admin = players("ann")
    await admin.connect(room.port, key=admin_key, env={"LANG": "fr_FR.UTF-8"})
    await admin.wait_for("le salon")
    admin.press("a")
    text = await admin.wait_for("session ouverte")
    since = session_of(room, "ann").opened.astimezone(timezone.utc)
    assert since.strftime("%d/%m %H:%M") in text, text
    assert since.strftime("%m-%d %H:%M") not in text or since.day == since.month
