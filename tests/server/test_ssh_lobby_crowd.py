"""The lobby of a busy server: its list changes under the person reading it."""

from __future__ import annotations

import asyncio

from diamant_tui.table import TableSettings
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from diamant_server import lobby_screen
from diamant_server.lobby import Lobby

from test_ssh_colours import reversed_text


def _open(server, name: str, **settings) -> None:
    server.lobby.create(TableSettings(name=name, pace=0.02, **settings), "test")


async def _lobby_with_cursor_on(server, players, make_key, name: str, downs: int):
    """ann in the lobby (no colours: the cursor row is in reverse video), the cursor
    moved ``downs`` rows down, onto the table ``name``."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), env={"NO_COLOR": "1"})
    await ann.wait_for(lambda text: reversed_text(ann, " a-first "))
    ann.press(*["down"] * downs)
    await ann.wait_for(lambda text: reversed_text(ann, f" {name} "))
    return ann


async def test_the_cursor_stays_on_its_table_when_one_above_it_closes(
        server, players, make_key):
    """A table above the one chosen goes (its last person left): the cursor stays on the
    table the person chose, not on whichever slid into its row (Enter would have seated
    them at a table they never chose)."""
    for name in ("a-first", "b-second", "c-third", "d-fourth"):
        _open(server, name, seats=5)
    ann = await _lobby_with_cursor_on(server, players, make_key, "c-third", 2)
    await server.lobby.close_table("a-first")
    await ann.wait_for(lambda text: "a-first" not in text)
    await ann.wait_for(lambda text: reversed_text(ann, " c-third "))
    assert not reversed_text(ann, " d-fourth ")


async def test_the_cursor_follows_its_table_when_its_game_begins(server, players, make_key):
    """The table chosen starts its game while the person reads the list, and moves down
    among the tables playing: the cursor goes with it (the row it left now shows another
    table, waiting)."""
    _open(server, "a-first", seats=5)
    _open(server, "b-second", seats=3, bots=("carry:20",) * 2)  # one seat for a person
    _open(server, "c-third", seats=5)
    ann = await _lobby_with_cursor_on(server, players, make_key, "b-second", 1)
    bob = players("bob")
    await bob.connect(server.port, key=make_key(), command="play b-second")
    await bob.wait_for("Round 1/5")
    # Waiting tables first: b-second, playing now, is listed last.
    await ann.wait_for(lambda text: text.find("c-third") < text.find("b-second"))
    await ann.wait_for(lambda text: reversed_text(ann, " b-second "))
    assert not reversed_text(ann, " c-third ")


async def test_tables_are_listed_in_the_order_a_person_counts_them(tmp_path):
    """Play now names the tables it opens ``cave-1``, ``cave-2``...: on a busy evening
    ``cave-10`` comes after ``cave-9``, not between ``cave-1`` and ``cave-2``; and a
    name's capitals do not put it before every name in small letters."""
    lobby = Lobby(tmp_path)
    names = [f"cave-{n}" for n in range(1, 12)] + ["Zed", "alpha", "Beta"]
    for name in names:
        lobby.create(TableSettings(name=name, seats=5), "x")
    try:
        assert [row.name for row in lobby.summaries()] == [
            "alpha", "Beta", *(f"cave-{n}" for n in range(1, 12)), "Zed"]
    finally:
        await lobby.close()


async def test_enter_on_a_table_closed_since_the_list_was_drawn_says_it_closed(
        server, players, make_key, monkeypatch):
    """The list is looked at every two seconds: a table can close between two looks while
    the person's cursor is on it. Enter then says that table has just closed, and the
    list drops it at once; before, it said to choose a table first, as if none were."""
    monkeypatch.setattr(lobby_screen, "REFRESH", 3600.0)  # no look between close and Enter
    for name in ("a-first", "b-second"):
        _open(server, name, seats=5)
    ann = await _lobby_with_cursor_on(server, players, make_key, "a-first", 0)
    await server.lobby.close_table("a-first")
    ann.press("enter")
    text = await ann.wait_for("a-first has just closed")
    assert "Choose a table first" not in text
    await ann.wait_for(lambda text: " a-first " not in text)
    assert "Waiting for the game" not in ann.text  # not seated at b-second instead


async def test_the_cursor_stays_on_its_table_when_the_language_changes(
        server, players, make_key):
    """``g`` draws the lobby again in the next language: the cursor stays on the table
    chosen, not back on the first row."""
    for name in ("a-first", "b-second", "c-third"):
        _open(server, name, seats=5)
    ann = await _lobby_with_cursor_on(server, players, make_key, "c-third", 2)
    ann.press("g")
    await ann.wait_for("Langue")
    await ann.wait_for(lambda text: reversed_text(ann, " c-third "))
    assert not reversed_text(ann, " a-first ")


async def test_the_table_under_the_cursor_closing_is_said(server, players, make_key):
    """The table the cursor is on closes while the person reads the list: the cursor
    goes to the nearest table, and the note line says why it moved (silently, Enter
    would seat them at a table they never chose, unawares)."""
    for name in ("a-first", "b-second", "c-third"):
        _open(server, name, seats=5)
    ann = await _lobby_with_cursor_on(server, players, make_key, "b-second", 1)
    await server.lobby.close_table("b-second")
    await ann.wait_for("b-second has just closed")
    assert reversed_text(ann, " c-third ")



async def test_a_table_closed_by_leaving_it_is_not_news_back_in_the_lobby(
        server, players, make_key):
    """The last person at a waiting table leaves it, and it closes: back in the lobby,
    the list no longer has it and the note line does not tell them that it "has just
    closed", which they did themselves (it said so, the cursor still on its name)."""
    for name in ("a-first", "b-second"):
        _open(server, name, seats=5)
    ann = await _lobby_with_cursor_on(server, players, make_key, "b-second", 1)
    ann.press("enter")
    await ann.wait_for("waiting for players")
    ann.press("q")
    await ann.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a q typed with the first is no answer
    ann.press("q")
    await ann.wait_for(lambda text: "a-first" in text and "b-second" not in text)
    await asyncio.sleep(lobby_screen.REFRESH + 0.5)  # the list's next look has been
    assert "has just closed" not in ann.text, ann.text
