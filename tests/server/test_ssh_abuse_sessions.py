"""One rude client cannot hold what others need: sessions, tables, idle connections, the
server's stop, and a data folder that cannot be written.

Every test uses real asyncssh clients over loopback; while the rude client does its worst,
a bystander still reaches the lobby or plays.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace

import asyncssh
import pytest

from conftest import TEST_CONFIG
from harness import Player
from diamant_tui.table import TableSettings
from diamant_server.folder_lock import FolderLockError
from diamant_server.limits import ConnectionLimits
from diamant_server.server import GameServer
from diamant_server.storage import DATABASE, StorageError

DIAMANT = [sys.executable, "-m", "diamant_tui"]


async def start(tmp_path, **settings) -> GameServer:
    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, **settings))
    await server.start()
    return server


async def until(test, timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds (a generous bound, never a timing assertion)."""
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "condition never met"
        await asyncio.sleep(0.02)


def squash(text: str) -> str:
    """``text`` without whitespace and toast edges (▌): lines may wrap, columns are padded."""
    return "".join(text.replace("▌", " ").split())


def shows(words: str):
    """A test on the screen: ``words`` appear, however the lines wrap."""
    return lambda text: squash(words) in squash(text)


def messages(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records]


# --- settings -------------------------------------------------------------------------------

def test_the_new_limits_are_settings_named_in_help_and_checked():
    from diamant_server.config import ConfigError, ServerConfig, load
    from test_ssh_server import parse

    config = load(parse(["--max-tables", "50", "--max-tables-per-person", "2",
                         "--max-sessions-per-person", "4", "--empty-table-timeout", "60",
                         "--waiting-timeout", "600", "--stop-grace", "1"]), {})
    assert (config.max_tables, config.max_tables_per_person, config.max_sessions_per_person,
            config.empty_table_timeout, config.waiting_timeout, config.stop_grace) == (
        50, 2, 4, 60.0, 600.0, 1.0)
    assert ServerConfig().max_tables == 200
    with pytest.raises(ConfigError, match="max_tables_per_person: must be more than 0"):
        load(parse(["--max-tables-per-person", "0"]), {})
    out = subprocess.run([*DIAMANT, "serve", "--help"], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    out = " ".join(out.split())
    for flag in ("--max-sessions-per-person", "--max-tables ", "--max-tables-per-person",
                 "--empty-table-timeout", "--waiting-timeout", "--stop-grace"):
        assert flag in out


# --- connections and sessions -------------------------------------------------------------

async def test_an_address_that_keeps_connecting_is_dropped_without_an_error(tmp_path, caplog):
    """The limiter's "hammering" branch closes at once, and nothing fails in it."""
    server = await start(tmp_path, connect_rate=0.001, connect_burst=1)
    try:
        with caplog.at_level(logging.INFO, logger="diamant_server"):
            writers = []
            for attempt in range(4):
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writers.append(writer)
                if attempt >= 2:  # admitted, refused (told at log-in), then dropped at once
                    await asyncio.wait_for(reader.read(), 10)
            for writer in writers:
                writer.close()
            await until(lambda: sum("dropped a connection" in m for m in messages(caplog)) >= 2)
        assert not [m for m in messages(caplog) if "has no attribute" in m], messages(caplog)
    finally:
        await server.stop()


async def test_one_session_per_connection_and_a_few_per_person(
        tmp_path, players, make_key, caplog):
    server = await start(tmp_path, max_sessions_per_person=2)
    try:
        key = make_key()
        first = players("ann")
        await first.connect(server.port, key=key)
        await first.wait_for("lobby")
        # A second channel on the same connection: refused, the reason reaches the client.
        with caplog.at_level(logging.WARNING, logger="diamant_server"):
            with pytest.raises(asyncssh.ChannelOpenError, match="at most 1 session per connection"):
                await first.conn.create_session(asyncssh.SSHClientSession, "", term_type="xterm",
                                                encoding=None)
        assert any("refused a session channel beyond 1" in m for m in messages(caplog))
        second = players("ann")
        await second.connect(server.port, key=key)
        await second.wait_for("lobby")
        # A third session of the same person (same key, another connection): told why.
        third = players("ann")
        with caplog.at_level(logging.WARNING, logger="diamant_server"):
            await third.connect(server.port, key=key, env={"LANG": "fr_FR.UTF-8"})
            await third.wait_closed()
        assert "autant de sessions ouvertes qu'une personne peut en avoir (2)" in \
            third.raw.decode()
        assert any("limit.person_sessions" in m for m in messages(caplog))
        # Someone else is not counted with ann, and ann gets a session back once one ends.
        bob = players("bob")
        await bob.connect(server.port, key=make_key())
        await bob.wait_for("lobby")
        await second.close()
        await until(lambda: server.limits._person_sessions[f"key:{key.get_fingerprint()}"] < 2)
        again = players("ann")
        await again.connect(server.port, key=key)
        await again.wait_for("lobby")
    finally:
        await server.stop()


GUEST_LIMIT_SAYS = {  # a few words of each language's refusal of one guest too many
    "en": ("This address already has as many guest sessions open as it may (3)",
           "SSH key of your own", "close another guest session"),
    "fr": ("Cette adresse a déjà autant de sessions d'invité ouvertes qu'elle peut en avoir (3)",
           "votre propre clé SSH", "fermez une autre session d'invité"),
    "es": ("Esta dirección ya tiene abiertas todas las sesiones de invitado que se permiten (3)",
           "clave SSH propia", "cierra otra sesión de invitado"),
    "uk": ("З цієї адреси вже відкрито найбільше гостьових сеансів, скільки дозволено (3)",
           "власним SSH-ключем", "закрийте інший гостьовий сеанс"),
}


async def test_a_guest_over_the_guests_of_an_address_is_told_what_applies(
        server, players, make_key):
    """Guests are counted by their address: the fourth guest from one address is told
    that this address has its guest sessions (not that they, one person, have too many),
    and what to do, in their language; someone with a key from that address still comes in."""
    for name in ("gus", "gina", "gil"):
        guest = players(name)
        await guest.connect(server.port)
        await guest.wait_for("lobby")
    for lang, words in GUEST_LIMIT_SAYS.items():
        extra = players("guy")
        await extra.connect(server.port, env={"LANG": f"{lang}_XX.UTF-8"})
        await extra.wait_closed()
        said = " ".join(extra.raw.decode().split())
        assert all(word in said for word in words), said
        assert "personne" not in said and "one person" not in said, said
        assert extra.chan.get_exit_status() == 2
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")


def test_the_limits_per_address_and_in_all_count_sessions():
    limits = ConnectionLimits(3, 2, rate=1.0, burst=10, max_per_person=5)
    assert limits.open_session("a", "p1") is None
    assert limits.open_session("a", "p2") is None
    assert limits.open_session("a", "p3") == ("limit.address_sessions", 2)
    assert limits.open_session("b", "p3") is None
    assert limits.open_session("c", "p4") == ("limit.server_sessions", 3)
    limits.close_session("a", "p1")
    assert limits.open_session("d", "guest@d", guest=True) is None
    assert limits.sessions == 3
    limits.close_session("d", "guest@d")
    assert limits.sessions == 2
    assert limits.open_session("c", "p4") is None


async def test_a_connection_without_a_session_is_closed_after_the_login_time(
        tmp_path, players, make_key, caplog):
    server = await start(tmp_path, login_timeout=0.5)
    try:
        ann = players("ann")
        await ann.connect(server.port, key=make_key())
        await ann.wait_for("lobby")
        with caplog.at_level(logging.INFO, logger="diamant_server"):
            conn = await asyncssh.connect("127.0.0.1", server.port, username="lurker",
                                          client_keys=[make_key()], known_hosts=None,
                                          agent_path=None)
            await asyncio.wait_for(conn.wait_closed(), 10)
        assert any("no session open for 0.5 seconds" in m for m in messages(caplog))
        # A session channel opened, but no shell or command ever asked for: the same.
        mute = await asyncssh.connect("127.0.0.1", server.port, username="mute",
                                      client_keys=[make_key()], known_hosts=None,
                                      agent_path=None)
        channel = asyncssh.SSHClientChannel(mute, asyncio.get_running_loop(), "strict",
                                            None, "strict", 2 ** 21, 32768)
        await channel._open(b"session")  # what create_session does before its requests
        await asyncio.wait_for(mute.wait_closed(), 10)
        # ann, whose session is open, keeps her connection (she connected earlier).
        assert not ann.closed.is_set()
        ann.press("n")
        await ann.wait_for("Open a table")
        # Once her session has ended, the connection (good for nothing more) is closed too.
        ann.press("escape")
        await ann.wait_for(lambda t: "Open a table" not in t)
        ann.press("q")
        await ann.wait_closed()
        await asyncio.wait_for(ann.conn.wait_closed(), 10)
    finally:
        await server.stop()


def rss_mib() -> float:
    """The resident memory of this process (the server runs in it), in MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def test_many_channels_on_many_connections_make_one_app_each(tmp_path, make_key):
    """15 connections asking for 3 session channels each: 15 apps, not 45."""
    server = await start(tmp_path)
    conns = []
    try:
        bystander = Player("by")
        await bystander.connect(server.port, key=make_key())
        await bystander.wait_for("lobby")
        before = rss_mib()
        refused = 0
        for i in range(15):
            conn = await asyncssh.connect("127.0.0.1", server.port, username=f"m{i}",
                                          client_keys=[make_key()], known_hosts=None,
                                          agent_path=None)
            conns.append(conn)
            for _ in range(3):
                try:
                    await conn.create_session(asyncssh.SSHClientSession, "", encoding=None,
                                              term_type="xterm", term_size=(80, 24))
                except asyncssh.ChannelOpenError:
                    refused += 1
        await until(lambda: all(s.app is not None and s.app.is_running
                                for s in server.sessions))
        grown = rss_mib() - before
        assert refused == 30
        assert len(server.sessions) == 16
        # A fresh person still reaches the lobby, promptly (about 0.3 s on an idle machine).
        began = time.monotonic()
        fresh = Player("fresh")
        await fresh.connect(server.port, key=make_key())
        await fresh.wait_for("lobby", timeout=10)
        joined = time.monotonic() - began
        await fresh.close()
        assert joined < 3, f"a fresh join took {joined:.1f} s"
        # About 1.3 MiB an app: 15 apps stay well under 45 MiB, 45 apps would not.
        assert grown < 45, f"the server grew by {grown:.0f} MiB"
    finally:
        for conn in conns:
            conn.close()
        await bystander.close()
        await server.stop()


# --- tables ---------------------------------------------------------------------------------

async def test_one_person_cannot_fill_the_servers_tables(tmp_path, players, make_key, caplog):
    server = await start(tmp_path, max_tables=3, max_tables_per_person=2)
    try:
        key = make_key()
        ann = f"key:{key.get_fingerprint()}"
        # Two tables ann opened earlier, still going on (e.g. played for her by computers).
        for name in ("t1", "t2"):
            server.lobby.create(TableSettings(name=name, seats=3), ann, owner=ann)
        lobby = players("ann")
        await lobby.connect(server.port, key=key)
        await lobby.wait_for("lobby")
        with caplog.at_level(logging.WARNING, logger="diamant_server"):
            lobby.press("n")
            await lobby.wait_for(shows("as many tables open as one person may (2)"))
        assert "Open a table" not in lobby.text
        assert any("a table refused to key:" in m for m in messages(caplog))
        # Someone else still finds room.
        bob = players("bob")
        await bob.connect(server.port, key=make_key(), command="play b1")
        await bob.wait_for("Waiting|waiting")
        assert set(server.lobby.tables) == {"t1", "t2", "b1"}
    finally:
        await server.stop()


async def test_guests_from_one_address_count_as_one_person(tmp_path, players):
    server = await start(tmp_path, max_tables_per_person=1)
    try:
        first = players("gus")
        await first.connect(server.port, command="play g1")
        await first.wait_for("Waiting|waiting")
        other = players("gil")  # another guest, same address
        await other.connect(server.port, command="play g2")
        await other.wait_for(shows("as many tables open as one person may (1)"))
        assert "g2" not in server.lobby.tables
    finally:
        await server.stop()


async def test_an_empty_table_is_closed_after_a_while(tmp_path, players, make_key, caplog):
    caplog.set_level(logging.INFO, logger="diamant_server")
    server = await start(tmp_path, empty_table_timeout=0.4)
    try:
        server.lobby.create(TableSettings(name="ghost", seats=3), "x")
        server.lobby.create(TableSettings(name="kept", seats=3), "x")
        ann = players("ann")
        await ann.connect(server.port, key=make_key(), command="play kept")
        await ann.wait_for("Waiting|waiting")
        await until(lambda: "ghost" not in server.lobby.tables)
        assert any("table 'ghost' closed: nobody at it" in m for m in messages(caplog))
        assert "kept" in server.lobby.tables
    finally:
        await server.stop()


async def test_a_session_waiting_at_a_table_too_long_is_closed(tmp_path, players, make_key,
                                                               caplog):
    server = await start(tmp_path, waiting_timeout=0.6)
    try:
        ann = players("ann")
        with caplog.at_level(logging.INFO, logger="diamant_server"):
            await ann.connect(server.port, key=make_key(), command="play den")
            await ann.wait_closed()  # (she sat at den: the message names it)
        assert "at table den with no game going on" in " ".join(ann.raw.decode().split())
        assert any("with no game going on; closed" in m for m in messages(caplog))
        await until(lambda: "den" not in server.lobby.tables)
    finally:
        await server.stop()


# --- stopping -------------------------------------------------------------------------------

async def test_sigterm_ends_the_server_within_seconds_after_a_key_flood(tmp_path, make_key):
    """A flood leaves the apps a backlog that holds the event loop; the process still ends
    within its deadline after SIGTERM (and says so on the host's terminal)."""
    grace = 0.5
    proc = await asyncio.create_subprocess_exec(
        *DIAMANT, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path),
        "--stop-grace", str(grace), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "DIAMANT_LOG_LEVEL": "error"})
    rude = []
    try:
        port = int((await asyncio.wait_for(proc.stdout.readline(), 60)).decode().split("port ")[1])
        for i in range(3):
            player = Player(f"rude{i}")
            await player.connect(port, key=make_key())
            await player.wait_for("lobby")
            rude.append(player)
        keys = b"jkjkjk\x1b[A\x1b[B" * 25  # 250 bytes every 10 ms each: under the allowance
        end = time.monotonic() + 5
        while time.monotonic() < end:
            for player in rude:
                player.send(keys)
            await asyncio.sleep(0.01)  # pacing the attack, not synchronisation
        began = time.monotonic()
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 60)
        took = time.monotonic() - began
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        for player in rude:
            try:
                await player.close()
            except Exception:
                pass
    # The deadline is three graces and 5 s (servecli.stop_deadline); a little more for the
    # signal to arrive and the process to be gone.
    assert took < 3 * grace + 5 + 3, f"the server took {took:.1f} s to end after SIGTERM"


# --- the data folder ------------------------------------------------------------------------

async def test_a_data_folder_under_a_file_stops_the_start(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    server = GameServer(replace(TEST_CONFIG, data_dir=blocked / "data"))
    with pytest.raises(FolderLockError, match=f"{blocked} is a file, not a folder"):
        await server.start()
    bad = subprocess.run([*DIAMANT, "serve", "--data-dir", str(blocked / "data"), "--port",
                          "0", "--host", "127.0.0.1"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 1
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1, bad.stderr
    assert str(blocked / "data") in lines[0] and "--data-dir" in lines[0]
    assert "Traceback" not in bad.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only folder")
def test_a_read_only_data_folder_stops_the_start(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o500)
    try:
        bad = subprocess.run([*DIAMANT, "serve", "--data-dir", str(data), "--port", "0",
                              "--host", "127.0.0.1"], capture_output=True, text=True,
                             timeout=60)
    finally:
        data.chmod(0o700)
    assert bad.returncode == 1
    assert f"the data folder {data} cannot be written" in bad.stderr
    assert "Traceback" not in bad.stderr


async def test_a_failed_save_is_shown_to_the_host(tmp_path, players, make_key, capfd):
    server = await start(tmp_path)
    server.lobby.create(TableSettings(name="cave", seats=3, bots=("carry:20",) * 2, seed=1,
                                      pace=0.02), None)
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play cave")
    await ann.wait_for("Your turn")
    # The database refuses every new game from now on (as it would on a full disk; this
    # way works as root too).
    database = tmp_path / DATABASE
    with sqlite3.connect(database) as db:
        for change in ("INSERT", "UPDATE"):
            db.execute(f"CREATE TRIGGER no_room_{change} BEFORE {change} ON open_tables "
                       "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    assert await server.stop() == []
    err = capfd.readouterr().err
    assert (f"Could not save table 'cave' in the database {database}: could not "
            f"write to the database {database}: database or disk is full") in err
    assert "the game at that table is lost" in err


# --- spectators ---------------------------------------------------------------------------------


async def busy_table(server, players, make_key, keys):
    """Table ``busy`` playing, with bob at his turn and a spectator for each of ``keys``
    (``w0``, ``w1``...); returns bob and the spectators."""
    server.lobby.create(TableSettings(name="busy", seats=3, bots=("carry:20",) * 2,
                                      seed=5, pace=0.02), "test")
    bob = players("bob")
    await bob.connect(server.port, key=make_key(), command="play busy")
    await bob.wait_for("Your turn")
    watchers = [players(f"w{i}") for i in range(len(keys))]
    for person, key in zip(watchers, keys):
        await person.connect(server.port, key=key, command="watch busy")
        await person.wait_for("You are watching")
    return bob, watchers


async def test_a_table_takes_a_bounded_number_of_spectators(tmp_path, players, make_key, caplog):
    """Every update of a table is a redraw for each spectator: past ``max_watchers`` a new
    one is told why (in their language) and stays in the lobby; someone already watching
    may come back, and the game goes on for its player."""
    server = await start(tmp_path, max_watchers=2)
    try:
        keys = [make_key() for _ in range(2)]
        bob, first = await busy_table(server, players, make_key, keys)
        with caplog.at_level(logging.WARNING, logger="diamant_server"):
            late = players("late")
            await late.connect(server.port, key=make_key(), command="watch busy",
                               env={"LANG": "fr_FR.UTF-8"})
            await late.wait_for(shows("autant de spectateurs qu'une table peut en avoir (2)"))
            await late.wait_for("Salon|salon")  # in the lobby, not at the table
        assert any("a spectator refused, 2 watching already" in m for m in messages(caplog))
        assert server.lobby.get("busy").watchers == ("w0", "w1")
        # One of the two comes back on a new connection: still welcome.
        await first[0].close()
        again = players("w0")
        await again.connect(server.port, key=keys[0], command="watch busy")
        await again.wait_for("You are watching")
        bob.press("c")
        await bob.wait_for(lambda text: "You chose" in text or "card 2" in text)
        for person in (bob, first[1], late, again):
            await person.close()
    finally:
        await server.stop()


async def test_asking_again_and_again_for_a_table_that_takes_nobody_costs_no_screens(
        tmp_path, players, make_key, caplog):
    """A table playing with all the spectators it may have: Enter on it in the lobby says
    so at once (no screen offering to watch it, which would only lead to that refusal),
    and asking again while the note is on screen rings the bell instead of stacking the
    same note again (each note is a new layout of the screen) or logging it again."""
    server = await start(tmp_path, max_watchers=1)
    try:
        bob, (watcher,) = await busy_table(server, players, make_key, [make_key()])
        late = players("late")
        await late.connect(server.port, key=make_key())
        await late.wait_for(lambda text: "lobby" in text and "busy" in text)
        refusal = "Table busy has as many spectators as a table may (1)"
        with caplog.at_level(logging.WARNING, logger="diamant_server"):
            late.press("enter")
            await late.wait_for(shows(refusal))
            bells = late.raw.count(b"\x07")
            late.press(*["enter", "w"] * 4)
            await until(lambda: late.raw.count(b"\x07") >= bells + 8)
        assert squash(late.text).count(squash(refusal)) == 1
        assert "has already begun" not in late.text  # no screen in between
        assert sum("a spectator refused" in m for m in messages(caplog)) == 1
        bob.press("c")  # the game went on all along
        await bob.wait_for(lambda text: "You chose" in text or "card 2" in text)
        for person in (bob, watcher, late):
            await person.close()
    finally:
        await server.stop()
