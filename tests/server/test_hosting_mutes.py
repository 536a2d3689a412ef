"""Mutes, over real SSH: an admin mutes a person from the admin screen, and every chat
line of theirs is refused (told in their language, kept in the box) and reaches nobody,
at once, across restarts, until the mute is lifted; nobody else can mute."""

from __future__ import annotations

import asyncio
import logging

import pytest

from diamant_server.admin import AdminError
from diamant_server.lobby_screen import MUTE_NOTE_SHOWN
from diamant_tui.i18n import Translator
from diamant_tui.table import TableSettings
from harness import Player
from test_hosting_admin import (choose_row, fingerprint, flowing, notice, open_admin_screen,
                                session_of, started, toasts)
from test_hosting_logs import until
from test_ssh_chat_abuse import in_chat_box, say, squash


@pytest.fixture
def admin_key(make_key):
    return make_key()


async def at_table(server, players, make_key, *people: tuple[str, str]) -> list[Player]:
    """``people`` (name, locale) seated with a key at table ``den``, with computer
    players in the other seats of three: the game starts once they are all in."""
    bots = max(1, 3 - len(people))
    server.lobby.create(TableSettings(name="den", seats=len(people) + bots,
                                      bots=("carry:20",) * bots), "x")
    seated = []
    for name, locale in people:
        person = players(name)
        await person.connect(server.port, key=make_key(), command="play den",
                             env={"LANG": locale})
        seated.append(person)
    return seated


async def refused(person: Player, lang: str, text: str, told: str) -> str:
    """Send ``text`` as a chat line (the screen in ``lang``) and wait until the screen
    says ``told`` (wherever a refusal is told) with the line still in the box; returns
    that screen."""
    person.press("t")
    await person.wait_for(Translator(lang)("chat.placeholder"))
    person.type(text)
    await person.wait_for(in_chat_box(text))
    person.press("enter")
    return await person.wait_for(lambda screen: "".join(told.split()) in squash(screen)
                                 and in_chat_box(text)(screen))


async def sent(person: Player, lang: str, text: str) -> None:
    """Send ``text`` as a chat line (the screen in ``lang``); return once the table took
    it (the box closes: a refused line would stay in it)."""
    person.press("t")
    await person.wait_for(Translator(lang)("chat.placeholder"))
    person.type(text)
    await person.wait_for(in_chat_box(text))
    person.press("enter")
    await person.wait_for(lambda screen: not in_chat_box(text)(screen))


async def mute_from_the_screen(admin: Player, name: str, reason: str, *,
                               forever: bool = False) -> None:
    """On the admin screen: choose ``name``'s session, press s, give a reason (a day,
    or for good) and wait until it is done."""
    await choose_row(admin, name)
    admin.press("s")
    await admin.wait_for(f"Mute {name} in chat")
    if forever:
        admin.press("down", "down")
        await admin.wait_for("How long: ◀ for good ▶")
    admin.type(reason)
    admin.press("enter")
    await notice(admin, "Muted: ")


async def test_a_muted_player_is_refused_at_once_in_their_language_and_nobody_sees_it(
        tmp_path, players, admin_key, make_key, caplog):
    """Muted while seated in a game, ann's next line is refused: she reads why in
    French (the host, until when, the reason as written), the line stays in her box, and
    bob never receives it. Lifted (asked first), her next line reaches bob."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = await started(tmp_path, admin_key)
    try:
        ann, bob = await at_table(server, players, make_key, ("ann", "fr_FR.UTF-8"),
                                  ("bob", "en_GB.UTF-8"))
        await ann.wait_for("À vous")
        await bob.wait_for("Your turn")
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        await open_admin_screen(boss, "ann", "bob")
        await mute_from_the_screen(boss, "ann", "insults [b]again[/b]")
        [mute] = server.mutes.in_force()
        assert (mute.kind, mute.value) == ("key", session_of(server, "ann").identity.key[4:])
        await boss.wait_for(lambda text: "mute: key " + mute.value[:15] in text
                            and "insults [b]again[/b]" in text)

        told = (f"Pas encore envoyé (gardé dans la saisie). L'hôte vous a retiré la parole "
                f"jusqu'au {mute.until_text()}, motif : insults [b]again[/b]")
        await refused(ann, "fr", "salut", told)
        ann.press("escape")
        await ann.wait_for(lambda screen: not in_chat_box("salut")(screen))
        [logged] = [r for r in caplog.records if getattr(r, "action", None) == "mute"]
        assert logged.name == "diamant_server.admin"
        assert (logged.kind, logged.value, logged.reason) == ("key", mute.value,
                                                             "insults [b]again[/b]")
        assert logged.session == session_of(server, "boss").id

        boss.press("tab", "u")  # the list of bans and mutes, its only row
        question = flowing(f"Lift this mute: key {mute.value}, until {mute.until_text()}, "
                           f"reason: insults [b]again[/b]?")
        await boss.wait_for(lambda text: question in flowing(text))
        assert server.mutes.in_force() == [mute], "nothing lifted before the answer"
        boss.press("y")
        await notice(boss, "No longer muted: key")
        assert server.mutes.in_force() == []
        await sent(ann, "fr", "pardon")
        await bob.wait_for("» ann: pardon")
        assert "salut" not in bob.raw.decode(errors="replace"), "the muted line went nowhere"
        [logged] = [r for r in caplog.records if getattr(r, "action", None) == "unmute"]
        assert (logged.kind, logged.value) == ("key", mute.value)
    finally:
        await server.stop()
    server = await started(tmp_path, admin_key)  # lifted for good: written through
    try:
        assert server.mutes.in_force() == []
    finally:
        await server.stop()


async def test_a_mute_survives_a_restart_and_is_told_in_ukrainian(tmp_path, players,
                                                                 admin_key, make_key):
    """A mute for good is kept in the database: after a restart the same key, seated
    again, is still refused (in Ukrainian), and a line sent meanwhile by another reaches
    the table."""
    server = await started(tmp_path, admin_key)
    oksana_key = make_key()
    try:
        oksana = players("oksana")
        await oksana.connect(server.port, key=oksana_key, env={"LANG": "uk_UA.UTF-8"})
        await oksana.wait_for("зала")
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        await open_admin_screen(boss, "oksana")
        await mute_from_the_screen(boss, "oksana", "спам", forever=True)
    finally:
        await server.stop()

    server = await started(tmp_path, admin_key)
    try:
        [mute] = server.mutes.in_force()
        assert (mute.value, mute.until, mute.reason) == (fingerprint(oksana_key), None, "спам")
        server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
        oksana, cat = players("oksana"), players("cat")
        await oksana.connect(server.port, key=oksana_key, command="play den",
                             env={"LANG": "uk_UA.UTF-8"})
        await cat.connect(server.port, key=make_key(), command="play den")
        await cat.wait_for("Your turn")
        await refused(oksana, "uk", "привіт", "Ще не надіслано (лишається в полі). Власник сервера "
                                        "назавжди заборонив вам писати в чат, причина: спам")
        assert await say(cat, "hello") is None
        await oksana.wait_for("» cat: hello")
        assert "привіт" not in cat.raw.decode(errors="replace")
    finally:
        await server.stop()


async def test_a_guest_is_muted_by_address_and_a_spectator_with_a_key_there_is_not(
        tmp_path, players, admin_key, make_key):
    """A guest is a new identity at every connection: muted, every guest from their
    address is muted (here as a spectator, told on their note line), while a person
    with a key from that same address chats on."""
    server = await started(tmp_path, admin_key)
    try:
        [ann] = await at_table(server, players, make_key, ("ann", "en_GB.UTF-8"))
        await ann.wait_for("Your turn")
        gus, vic = players("gus"), players("vic")
        await gus.connect(server.port, command="watch den", env={"LANG": "es_ES.UTF-8"})
        await vic.connect(server.port, key=make_key(), command="watch den")
        await gus.wait_for("Estás mirando")
        await vic.wait_for("You are watching")
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        await open_admin_screen(boss, "gus", "vic")
        await choose_row(boss, "gus")
        boss.press("s")
        await boss.wait_for("Mute gus in chat: guests from 127.0.0.1")
        assert "every guest connecting from it is muted" in flowing(boss.text)
        boss.type("trolling")
        boss.press("enter")
        await notice(boss, "Muted: guests from 127.0.0.1")
        [mute] = server.mutes.in_force()
        assert (mute.kind, mute.value) == ("guest", "127.0.0.1")

        await refused(gus, "es", "hola", f"El anfitrión te ha silenciado hasta el "
                                   f"{mute.until_text()}, motivo: trolling")
        gus.press("escape")
        assert await say(vic, "still here") is None
        await ann.wait_for(lambda text: "» vic (watching): still here" in text)
        # Another guest from that address, a new identity, is muted as well.
        zed = players("zed")
        await zed.connect(server.port, command="watch den")
        await zed.wait_for("You are watching")
        await refused(zed, "en", "me too", "The host has muted you until")
        assert "hola" not in ann.raw.decode() and "me too" not in ann.raw.decode()
    finally:
        await server.stop()


async def test_nobody_but_an_admin_mutes_and_no_admin_mutes_themselves_or_an_admin(
        tmp_path, players, admin_key, make_key, caplog):
    """The desk refuses a mute or an unmute asked by a person who is not an admin (and
    logs it); an admin is told at once, before any reason is asked, that they cannot
    mute themselves nor another admin's key, and the desk refuses both when asked
    directly."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    other_admin = make_key()
    server = await started(tmp_path, admin_key, other_admin)
    try:
        boss, deputy, bob = players("boss", size=(100, 30)), players("deputy"), players("bob")
        await boss.connect(server.port, key=admin_key)
        await deputy.connect(server.port, key=other_admin)
        await bob.connect(server.port, key=make_key())
        await bob.wait_for("the lobby")
        desk = server.admin
        own, bob_session = session_of(server, "boss"), session_of(server, "bob")
        with pytest.raises(AdminError) as error:
            desk.mutes_in_force(bob_session)
        assert error.value.key == "admin.refused"
        for action in (lambda: desk.mute(bob_session, own.id, "forever", "mine now"),
                       lambda: desk.unmute(bob_session, "key", fingerprint(admin_key))):
            with pytest.raises(AdminError, match="Only the server's admins may do that"):
                await action()
        refusals = [r for r in caplog.records if getattr(r, "reason", None) == "not_admin"]
        assert [r.action for r in refusals] == ["mutes", "mute", "unmute"]
        assert {r.session for r in refusals} == {bob_session.id}

        await open_admin_screen(boss, "boss", "deputy", "bob")
        boss.press("s")  # the cursor on the admin's own row
        await notice(boss, "You cannot mute yourself.")
        assert "Reason" not in boss.text
        await choose_row(boss, "deputy")
        boss.press("s")
        await notice(boss, "That is an admin's key: it cannot be muted while it is in the "
                           "server's admins setting.")
        assert "Reason" not in boss.text
        with pytest.raises(AdminError) as error:
            await desk.mute(own, own.id, "hour")
        assert error.value.key == "admin.error.mute_self"
        with pytest.raises(AdminError) as error:
            await desk.mute(own, session_of(server, "deputy").id, "hour")
        assert error.value.key == "admin.error.mute_admin"
        assert server.mutes.in_force() == []
        mute, covered = await desk.mute(own, bob_session.id, "hour", "spam")
        assert covered == 1 and server.mutes.in_force() == [mute]
        await until(lambda: "Bans in force: 0 · mutes: 1" in boss.text)
    finally:
        await server.stop()


async def test_a_muted_person_is_told_at_once_where_they_are_and_nobody_else(
        tmp_path, players, admin_key, make_key):
    """Muted from the admin screen while she plays, Ann reads it at once among the
    round's lines, in French, until when and the reason as written (brackets and all),
    without typing a line; Dan, in the lobby, reads his on the lobby's note line in
    Spanish. Lifted, each reads that they may chat again. Bob, at Ann's table, and Eve,
    in the lobby, read nothing of it. (They were told only at their next chat line.)"""
    server = await started(tmp_path, admin_key)
    try:
        ann, bob = await at_table(server, players, make_key, ("ann", "fr_FR.UTF-8"),
                                  ("bob", "en_GB.UTF-8"))
        await ann.wait_for("À vous")
        await bob.wait_for("Your turn")
        dan, eve = players("dan"), players("eve")
        await dan.connect(server.port, key=make_key(), env={"LANG": "es_ES.UTF-8"})
        await eve.connect(server.port, key=make_key())
        await dan.wait_for("la sala")
        await eve.wait_for("the lobby")
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        await open_admin_screen(boss, "ann", "bob", "dan", "eve")
        await mute_from_the_screen(boss, "ann", "insults [b]again[/b]")
        [mute] = server.mutes.in_force()
        told = (f"L'hôte vous a retiré la parole jusqu'au {mute.until_text()}, "
                f"motif : insults [b]again[/b]")
        await ann.wait_for(lambda screen: flowing(told) in flowing(screen))
        assert "À vous" in ann.text  # her turn goes on

        desk, own = server.admin, session_of(server, "boss")
        dan_mute, covered = await desk.mute(own, session_of(server, "dan").id, "forever",
                                            "spam <3")
        assert covered == 1
        lobby_told = "El anfitrión te ha silenciado para siempre, motivo: spam <3"
        await dan.wait_for(lambda screen: lobby_told in flowing(screen))
        assert lobby_told not in toasts(dan.text), "on the note line, not in a toast"

        await desk.unmute(own, mute.kind, mute.value)
        await ann.wait_for(lambda screen: flowing("L'hôte vous a rendu la parole : vous "
                                                  "pouvez de nouveau écrire dans la "
                                                  "discussion.") in flowing(screen))
        await desk.unmute(own, dan_mute.kind, dan_mute.value)
        await dan.wait_for(lambda screen: "El anfitrión te ha quitado el silencio: ya "
                                          "puedes volver a chatear." in flowing(screen))
        await sent(ann, "fr", "pardon")
        await bob.wait_for("» ann: pardon")
        for other in (bob, eve):
            seen = flowing(other.raw.decode(errors="replace"))
            assert "insults" not in seen and "spam" not in seen and "muted" not in seen
            assert "chat again" not in seen
    finally:
        await server.stop()


async def test_a_guest_mute_is_told_to_every_guest_from_the_address_and_no_one_else(
        tmp_path, players, admin_key, make_key):
    """A guest is muted by their address: Gus, watching a game, and Zed, another guest
    in the lobby, are both told at once; Vic, with a key from that same address, is not.
    A reason too long for the lobby's note line is told whole in a notice there."""
    server = await started(tmp_path, admin_key)
    try:
        [ann] = await at_table(server, players, make_key, ("ann", "en_GB.UTF-8"))
        await ann.wait_for("Your turn")
        gus, zed, vic = players("gus"), players("zed"), players("vic")
        await gus.connect(server.port, command="watch den", env={"LANG": "uk_UA.UTF-8"})
        await zed.connect(server.port)
        await vic.connect(server.port, key=make_key())
        await gus.wait_for("Ви спостерігаєте")
        await zed.wait_for("the lobby")
        await vic.wait_for("the lobby")
        boss = players("boss", size=(100, 30))
        await boss.connect(server.port, key=admin_key)
        await open_admin_screen(boss, "gus", "zed", "vic")
        reason = "flooding the chat with the same line again and again, " * 3
        mute, covered = await server.admin.mute(session_of(server, "boss"),
                                                session_of(server, "gus").id, "hour", reason)
        assert covered == 2 and (mute.kind, mute.value) == ("guest", "127.0.0.1")
        uk = f"Власник сервера заборонив вам писати в чат до {mute.until_text()}, причина: "
        en = f"The host has muted you until {mute.until_text()}, reason: {mute.reason}"
        # Both at once: each is told for a while only, and waiting for one first could
        # outlast the other on a busy machine.
        await asyncio.gather(
            gus.wait_for(lambda screen: flowing(uk + mute.reason) in flowing(screen)),
            zed.wait_for(lambda screen: en in toasts(screen)))
        await server.admin.unmute(session_of(server, "boss"), mute.kind, mute.value)
        await asyncio.gather(
            gus.wait_for(lambda screen: "Власник сервера знову дозволив вам писати в чат."
                         in flowing(screen)),
            # Told at once, not once the toast saying Zed was muted has had its time
            # (it hid the note line, and with it the lifting, for MUTE_NOTE_SHOWN s).
            zed.wait_for(lambda screen: "The host has lifted your mute: you can chat again."
                         in flowing(screen) and "muted you" not in flowing(screen),
                         timeout=MUTE_NOTE_SHOWN / 2))
        for other in (vic, ann):
            seen = flowing(other.raw.decode(errors="replace"))
            assert "flooding" not in seen and "muted" not in seen and "chat again" not in seen
    finally:
        await server.stop()


async def muted_now(server, key) -> None:
    """Mute ``key``'s person for an hour, as the admin screen's ``s`` does."""
    written = server.mutes.add(server.mutes.make("key", fingerprint(key), "hour", "slurs",
                                                 "test"))
    if written is not None:
        await written


async def test_a_muted_person_opens_a_public_table_under_a_name_of_the_servers(
        tmp_path, players, make_key):
    """A public table's name is read by everyone in the lobby: one a muted person opens
    (here with ``play NAME``) takes a name of the server's, and they are told so at the
    table in their language; a private table keeps the name they gave (only those who
    type it read it). Before, the name a muted person typed was listed to everyone."""
    server = await started(tmp_path)
    try:
        key = make_key()
        await muted_now(server, key)
        mal = players("mal")
        await mal.connect(server.port, key=key, command="play insulte --seats 3",
                          env={"LANG": "fr_FR.UTF-8"})
        said = Translator("fr")("admin.muted_table_name", name="cave-1")
        await mal.wait_for(lambda text: flowing(said) in flowing(text))
        assert [row.name for row in server.lobby.summaries()] == ["cave-1"]
        assert "insulte" not in mal.text
        await mal.close()
        await until(lambda: server.lobby.get("cave-1") is None)  # the seat given up

        again = players("mal")
        await again.connect(server.port, key=key, command="play entre-nous --private")
        await again.wait_for("entre-nous")
        assert server.lobby.get("entre-nous") is not None
        # Someone not muted names their table as they like.
        ann = players("ann")
        await ann.connect(server.port, key=make_key(), command="play salon")
        await ann.wait_for("salon")
        assert server.lobby.get("salon") is not None
    finally:
        await server.stop()
