"""Private tables: whoever opens a table may make it private (the lobby's form, or
`play NAME --private`). It is listed in no stranger's lobby and play now never chooses
it; its name reaches it (`play NAME`, `watch NAME`), and its waiting screen says so, with
the command friends type. It stays private across a restart; admins see it, marked."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

from conftest import TEST_CONFIG
from diamant_server.server import GameServer
from test_hosting_admin import open_admin_screen, started
from test_hosting_logs import until
from test_ssh_lobby import flowing
from test_ssh_play_now import in_lobby, seated

from diamant_tui.table import TableSettings, TableStatus
from diamant_tui.ui.screens.waiting_questions import READ_FIRST

PRIVATE = "Private: not listed in the lobby. Friends join with:"


def friends_command(port: int, name: str) -> str:
    """The line a private table's waiting screen gives friends (no user name in it)."""
    return f"ssh -t -p {port} 127.0.0.1 play {name}"


async def test_a_private_table_is_in_no_strangers_lobby_and_says_how_friends_join(
        server, players, make_key):
    """ann opens den with --private: her waiting screen says it is private and shows
    the command to share; bob, in the lobby, sees the public table hall but not den."""
    server.lobby.create(TableSettings(name="hall", seats=3), "x")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --private")
    text = await ann.wait_for("Table den: waiting for players")
    assert PRIVATE in text and friends_command(server.port, "den") in text
    assert server.lobby.is_private(server.lobby.get("den"))
    bob = await in_lobby(players("bob"), server.port, make_key())
    text = await bob.wait_for(r"hall +Classic +0/3")
    assert "den" not in text


async def test_a_private_table_is_listed_marked_to_those_at_it(server, players, make_key):
    """ann's game at the private table den goes on while she is in the lobby (a computer
    player has her seat): her list shows den, marked private; bob's does not."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --private --seats 3 --bots 2")
    await ann.wait_for("Your turn")
    ann.press("q")
    await ann.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
    ann.press("y")
    await ann.wait_for(r"den \(priv\.\) +Classic +1/3 +2 +0 +off +playing")
    bob = await in_lobby(players("bob"), server.port, make_key())
    text = await bob.wait_for("No tables yet")
    assert "den" not in text


async def test_play_now_never_chooses_a_private_table(server, players, make_key):
    """ann waits alone at the private table den. bob's play now opens a table of his own
    rather than seat him there; cat's play now picks bob's table, not den."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --private")
    await ann.wait_for("Table den: waiting for players")
    bob = await in_lobby(players("bob"), server.port, make_key())
    bob.press("p")
    await bob.wait_for("Table cave-1: waiting for players")
    cat = players("cat")
    await cat.connect(server.port, key=make_key(), command="play")
    await cat.wait_for("Table cave-1: waiting for players")
    assert seated(server.lobby.get("den")) == ["ann"]
    assert seated(server.lobby.get("cave-1")) == ["bob", "cat"]
    assert not server.lobby.is_private(server.lobby.get("cave-1"))


async def test_a_private_tables_name_seats_friends_and_lets_others_watch(
        server, players, make_key):
    """bob types the name ann shared: he sits at den as at any table, and sees that it is
    private too; wes watches it by its name."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --private")
    await ann.wait_for("Table den: waiting for players")
    bob = players("bob")
    await bob.connect(server.port, key=make_key(), command="play den")
    text = await bob.wait_for("Table den: waiting for players")
    assert PRIVATE in text
    assert seated(server.lobby.get("den")) == ["ann", "bob"]
    wes = players("wes")
    await wes.connect(server.port, key=make_key(), command="watch den")
    await wes.wait_for("Waiting for the game to start")
    assert server.lobby.get("den").watchers == ("wes",)


async def test_private_at_a_public_table_already_open_is_told(server, players, make_key):
    """hall is open and public: `play hall --private` sits ann at it as it is, public,
    and tells her so, in her language."""
    server.lobby.create(TableSettings(name="hall", seats=4), "x")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play hall --private",
                      env={"LANG": "fr_FR.UTF-8"})
    told = "La table hall était déjà ouverte et n'est pas privée"
    text = await ann.wait_for(lambda t: told in flowing(t))
    assert "Privée" not in text
    assert not server.lobby.is_private(server.lobby.get("hall"))
    assert seated(server.lobby.get("hall")) == ["ann"]


async def test_a_private_table_stays_private_after_a_restart(tmp_path, players, make_key):
    """The server stops with ann waiting at the private table den and starts again on
    the same data folder: den is back, private, in no stranger's list; ann's waiting
    screen, when she comes back, still says how friends join."""
    config = replace(TEST_CONFIG, data_dir=tmp_path)
    first = GameServer(config)
    await first.start()
    ann_key = make_key()
    try:
        ann = players("ann")
        await ann.connect(first.port, key=ann_key, command="play den --private --seats 3")
        await ann.wait_for("Table den: waiting for players")
        first.lobby.create(TableSettings(name="hall", seats=3), "x")
    finally:
        await first.stop()
    second = GameServer(config)
    await second.start()
    try:
        den = second.lobby.get("den")
        assert den is not None and den.status is TableStatus.WAITING
        assert second.lobby.is_private(den)
        bob = await in_lobby(players("bob"), second.port, make_key())
        text = await bob.wait_for(r"hall +Classic")
        assert "den" not in text
        again = players("ann")
        await again.connect(second.port, key=ann_key, command="play den")
        text = await again.wait_for("Table den: waiting for players")
        assert PRIVATE in text and friends_command(second.port, "den") in text
    finally:
        await second.stop()


async def test_the_forms_private_choice_opens_a_private_table(server, players, make_key):
    """In the n form, Private: "Yes" opens a private table: the opener's waiting screen
    says so, and bob's list does not show it; with the choice left alone, a table is
    public."""
    ann = await in_lobby(players("ann"), server.port, make_key())
    bob = await in_lobby(players("bob"), server.port, make_key())
    ann.press("n")
    text = await ann.wait_for("Open a table")
    assert re.search(r"Private +No: listed in the lobby", text)
    ann.type("den")
    [session] = [s for s in server.sessions if s.identity.name == "ann"]
    for _ in range(7):  # name, rules, seats, computers, strength, timer, hidden
        focused = session.app.focused
        ann.press("tab")
        await until(lambda was=focused: session.app.focused is not was)
    assert session.app.focused.id == "private"
    ann.press("enter")  # the choices open
    await ann.wait_for("Yes: found by its name only")
    ann.press("down", "enter")
    await ann.wait_for(r"Private +Yes: found by its name only")
    ann.press("tab", "enter")  # Open the table
    text = await ann.wait_for("Table den: waiting for players")
    assert PRIVATE in text
    assert server.lobby.is_private(server.lobby.get("den"))

    bob.press("n")
    await bob.wait_for("Open a table")
    bob.type("hall")
    bob.press("enter")
    await bob.wait_for("Table hall: waiting for players")
    assert "Private" not in bob.text
    assert not server.lobby.is_private(server.lobby.get("hall"))
    cat = await in_lobby(players("cat"), server.port, make_key())
    text = await cat.wait_for(r"hall +Classic +1/4")
    assert "den" not in text


async def test_an_admin_sees_every_table_private_ones_marked(tmp_path, players, make_key):
    """Admins moderate: the private table den is in the admin's lobby list, marked, and
    in the admin screen as the table of ann's session, marked the same way."""
    admin_key = make_key()
    room = await started(tmp_path, admin_key)
    try:
        ann = players("ann")
        await ann.connect(room.port, key=make_key(), command="play den --private")
        await ann.wait_for("Table den: waiting for players")
        admin = players("boss")
        await admin.connect(room.port, key=admin_key)
        await admin.wait_for(r"den \(priv\.\) +Classic +1/4 +0 +3 +off +waiting")
        text = await open_admin_screen(admin, "ann")
        assert re.search(r"ann .* den \(priv\.\) ", text), text
    finally:
        await room.stop()

