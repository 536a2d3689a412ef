"""A mute that runs out, over real SSH: its person is told at once, wherever they are and
in their language, as for a lifted mute, and their next line goes through; a mute lifted
or replaced before its end is not told as run out (a replaced one is told once, at its new
end), and no end is told once the server has stopped.

The admin's dialog offers an hour at least: these mutes, of a second or two, are put in
force straight into the server's register, as the desk puts those it makes."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta, timezone

import pytest

from diamant_server.identity import Identity
from diamant_server.mutes import Mute, muted_as
from diamant_server.storage import Storage
from harness import Player
from test_hosting_admin import fingerprint, session_of, started, toasts
from test_hosting_logs import until
from test_hosting_mutes import at_table, sent

ENDED = {
    "en": "Your chat mute has ended: you can chat again.",
    "fr": "Le temps sans parole fixé par l'hôte est écoulé : vous pouvez de nouveau écrire "
          "dans la discussion.",
    "es": "Tu silencio en el chat ha terminado: ya puedes volver a chatear.",
    "uk": "Термін заборони писати в чат минув: ви знову можете писати в чат.",
}
"""What a person whose mute ran out reads, in each language."""


@pytest.fixture
def admin_key(make_key):
    return make_key()


def flowing(text: str) -> str:
    """``text``'s words in one line, however the screen wrapped them."""
    return " ".join(text.replace("│", " ").split())


def short_mute(identity: Identity, seconds: float, reason: str = "flood") -> Mute:
    """A mute on ``identity``'s person that runs out ``seconds`` from now."""
    kind, value = muted_as(identity)
    now = datetime.now(timezone.utc)
    return Mute(kind, value, now + timedelta(seconds=seconds), reason, "SHA256:admin", now)


async def put_in_force(server, mute: Mute) -> None:
    """Put ``mute`` in force as the desk does, written through."""
    write = server.mutes.add(mute)
    if write is not None:
        await write


async def told_ended(person: Player, lang: str) -> str:
    """Wait until ``person``'s screen says their mute ran out, in ``lang``."""
    return await person.wait_for(lambda screen: flowing(ENDED[lang]) in flowing(screen))


async def forgotten_in_the_database(server) -> None:
    """Wait until the database keeps no mute (the register forgets one over at once, and
    its write follows)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while await server.storage.mutes():
        assert loop.time() < end, "a mute over was kept in the database"
        await asyncio.sleep(0.05)


def ends_logged(caplog) -> list[tuple[str, str]]:
    """The mutes the server logged as run out, in order: (kind, value)."""
    return [(r.kind, r.value) for r in caplog.records
            if getattr(r, "event", None) == "mute_over"]


async def test_a_mute_that_runs_out_is_told_at_once_and_the_next_line_goes_through(
        tmp_path, players, admin_key, make_key, caplog):
    """Ann, muted while she plays, reads in French among the round's lines that her
    mute is over as it ends, without typing; Dan, in the lobby, reads it in Spanish on
    the lobby's note line. Ann's next line reaches Bob, and the mutes are forgotten in
    the database too. (Before, nobody was told: a person found out by trying.)"""
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = await started(tmp_path, admin_key)
    try:
        ann, bob = await at_table(server, players, make_key, ("ann", "fr_FR.UTF-8"),
                                  ("bob", "en_GB.UTF-8"))
        dan = players("dan")
        await dan.connect(server.port, key=make_key(), env={"LANG": "es_ES.UTF-8"})
        await ann.wait_for("À vous")
        await dan.wait_for("la sala")
        ann_mute = short_mute(session_of(server, "ann").identity, 1.0)
        dan_mute = short_mute(session_of(server, "dan").identity, 1.0)
        await put_in_force(server, ann_mute)
        await put_in_force(server, dan_mute)
        assert server.mutes.of(session_of(server, "ann").identity) == ann_mute

        await told_ended(ann, "fr")
        screen = await told_ended(dan, "es")
        assert ENDED["es"] not in toasts(screen), "on the note line, not in a toast"
        await sent(ann, "fr", "pardon")
        await bob.wait_for("» ann: pardon")
        assert server.mutes.in_force() == []
        await until(lambda: len(ends_logged(caplog)) == 2)
        assert sorted(ends_logged(caplog)) == sorted(
            [(ann_mute.kind, ann_mute.value), (dan_mute.kind, dan_mute.value)])
        await forgotten_in_the_database(server)
        assert "mute" not in flowing(bob.raw.decode(errors="replace")).lower()
    finally:
        await server.stop()


async def test_a_lifted_mute_is_not_told_as_over_and_a_replaced_one_once_at_its_end(
        tmp_path, players, admin_key, make_key, caplog):
    """Bob's mute is lifted before its end: he reads that it was lifted, never that it
    ran out. Ann's is replaced, before its end, by a longer one: she is told once, as
    the new one ends, and may chat then. A guest mute on 127.0.0.1, ending between the
    two ends of Ann's, is told to both guests from there (Gus watching, in Ukrainian;
    Zed in the lobby), and not to Vic, with a key from that address."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = await started(tmp_path, admin_key)
    try:
        ann, bob = await at_table(server, players, make_key, ("ann", "en_GB.UTF-8"),
                                  ("bob", "en_GB.UTF-8"))
        gus, zed, vic = players("gus"), players("zed"), players("vic")
        await gus.connect(server.port, command="watch den", env={"LANG": "uk_UA.UTF-8"})
        await zed.connect(server.port)
        await vic.connect(server.port, key=make_key())
        await gus.wait_for("Ви спостерігаєте")
        await zed.wait_for("the lobby")
        await vic.wait_for("the lobby")
        boss = players("boss")
        await boss.connect(server.port, key=admin_key)
        await boss.wait_for("the lobby")
        ann_id, bob_id = session_of(server, "ann").identity, session_of(server, "bob").identity

        first = short_mute(ann_id, 0.5)
        await put_in_force(server, first)
        replaced = short_mute(ann_id, 2.5, reason="flood again")
        await put_in_force(server, replaced)
        bob_mute = short_mute(bob_id, 0.5)
        await put_in_force(server, bob_mute)
        await server.admin.unmute(session_of(server, "boss"), bob_mute.kind, bob_mute.value)
        await bob.wait_for(lambda screen: "The host has lifted your mute: you can chat again."
                           in flowing(screen))
        guests = short_mute(session_of(server, "gus").identity, 1.5)
        await put_in_force(server, guests)
        assert (guests.kind, guests.value) == ("guest", "127.0.0.1")

        await told_ended(gus, "uk")
        await told_ended(zed, "en")
        await told_ended(ann, "en")
        # Told as it ended, not while the new one held: her line goes through at once.
        await sent(ann, "en", "free again")
        await bob.wait_for("» ann: free again")
        # In the order they ended: Ann's first mute and Bob's, ended before the guests',
        # would be told first; Ann's is told once, after the guests'.
        assert ends_logged(caplog) == [(guests.kind, guests.value),
                                       (replaced.kind, replaced.value)]
        assert server.mutes.in_force() == []
        for other in (bob, vic, boss):
            assert flowing(ENDED["en"]) not in flowing(other.raw.decode(errors="replace"))
    finally:
        await server.stop()


async def test_a_mute_read_at_start_up_is_told_as_it_ends(tmp_path, players, admin_key,
                                                          make_key, caplog):
    """A mute kept in the database, still in force when the server starts, gets its
    timer too: Oksana, connected in the lobby, reads in Ukrainian that it ended, and it
    is forgotten in the database."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    oksana_key = make_key()
    oksana_id = Identity("key:" + fingerprint(oksana_key), "oksana", guest=False,
                         address="127.0.0.1")
    # Long enough to outlast her login on a busy machine (three seconds did not).
    mute = short_mute(oksana_id, 8.0)
    storage = Storage.open(tmp_path)
    try:
        await storage.save_mute(mute.saved())
    finally:
        storage.close()
    server = await started(tmp_path, admin_key)
    try:
        oksana = players("oksana")
        await oksana.connect(server.port, key=oksana_key, env={"LANG": "uk_UA.UTF-8"})
        await oksana.wait_for("зала")
        # Still in force as she came (the mute's seconds had not run out).
        assert server.mutes.of(session_of(server, "oksana").identity) is not None
        await told_ended(oksana, "uk")
        assert ends_logged(caplog) == [(mute.kind, mute.value)]
        await forgotten_in_the_database(server)
    finally:
        await server.stop()


async def test_no_end_is_told_once_the_server_has_stopped(tmp_path, players, admin_key,
                                                          make_key, caplog):
    """A mute whose end comes after the server stopped is told by nobody: its timer was
    cancelled with the server (and it is still kept, for the next start)."""
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = await started(tmp_path, admin_key)
    try:
        ann = players("ann")
        await ann.connect(server.port, key=make_key())
        await ann.wait_for("the lobby")
        mute = short_mute(session_of(server, "ann").identity, 1.5)
        await put_in_force(server, mute)
    finally:
        await server.stop()
    assert ends_logged(caplog) == [], "it ended before the server stopped"
    loop = asyncio.get_running_loop()
    past_its_end = loop.create_future()
    left = (mute.until - datetime.now(timezone.utc)).total_seconds()  # type: ignore[operator]
    loop.call_later(max(left, 0) + 0.3, past_its_end.set_result, None)
    await past_its_end
    assert ends_logged(caplog) == []
    storage = Storage.open(tmp_path)
    try:
        assert [saved.value for saved in await storage.mutes()] == [mute.value]
    finally:
        storage.close()
