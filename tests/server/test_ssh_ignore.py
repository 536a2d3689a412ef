"""Hiding someone's chat lines over SSH, as people see their screens: ``/ignore NAME``
takes one person's lines off one screen only, for the whole connection; the others still
read them and the person hidden is told nothing."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import pytest

from diamant_server.server import GameServer
from diamant_tui.table import TableSettings
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from test_ssh_chat_abuse import in_chat_box, say
from test_ssh_chat_lines import above_the_players


@pytest.fixture
async def talkative_server(tmp_path):
    """A server whose people may say many lines (the tests say more than five in 10 s)."""
    from conftest import TEST_CONFIG

    game_server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, chat_person_lines=50,
                                     chat_table_lines=100))
    await game_server.start()
    yield game_server
    await game_server.stop()


def flowing(text: str) -> str:
    """The screen's words with every run of spaces and line breaks as one space."""
    return " ".join(text.split())


def box_open(screen: str) -> bool:
    """The chat box is open: its line (above the key bar) tells how to hide someone, in
    the person's language."""
    return "/ignore" in screen.splitlines()[-2]


async def command(person, typed: str, told: str) -> str:
    """Type ``typed`` in the chat box and Enter; wait for ``told`` (whole, wrapped or not)
    and for the box to close."""
    person.press("t")
    await person.wait_for(box_open)
    person.type(typed)
    await person.wait_for(in_chat_box(typed))
    person.press("enter")
    return await person.wait_for(lambda s: told in flowing(s) and not in_chat_box(typed)(s))


async def test_one_person_hides_another_and_the_table_reads_on(talkative_server, players,
                                                              make_key):
    """Three people playing: ann hides [b]bob, typing his name in capitals. His later
    lines never reach her screen while cy reads them, and bob's screen shows nothing of
    it; the list names him; /unignore brings his lines back to her screen."""
    server = talkative_server
    server.lobby.create(TableSettings(name="den", seats=4, bots=("carry:20",)), "x")
    ann, bob, cy = players("ann"), players("[b]bob"), players("cy")
    for person in (ann, bob, cy):
        await person.connect(server.port, key=make_key(), command="play den")
    for person in (ann, bob, cy):
        await person.wait_for("Your turn")
    await say(bob, "hello [i]all[/i]")
    await ann.wait_for(re.escape("» [b]bob: hello [i]all[/i]"))
    screen = await command(ann, "/ignore [B]BOB", "[b]bob's lines are hidden, for you alone")
    assert "hello [i]all" not in screen, screen
    await say(bob, "can you hear me")
    await cy.wait_for(re.escape("» [b]bob: can you hear me"))
    await say(cy, "cy here")  # said after bob's line: on ann's screen after it
    screen = await ann.wait_for("» cy: cy here")
    assert "bob:" not in "".join(above_the_players(screen)), screen
    assert "ignore" not in cy.text and "ignore" not in bob.text
    await command(ann, "/ignore", "Hidden for you: [b]bob.")
    await command(ann, "/unignore [b]bob", "You see [b]bob's lines again.")
    screen = await ann.wait_for(re.escape("» [b]bob: can you hear me"))
    await say(bob, "back")
    await ann.wait_for(re.escape("» [b]bob: back"))
    assert "ignore" not in bob.text, bob.text


async def test_mistakes_are_told_in_the_persons_language_and_sent_to_nobody(
        talkative_server, players, make_key):
    """ann, in French, hides herself, then an unknown name with markup: each is told
    where chat is read, the name as typed; the unknown name stays in the box to be
    corrected. Nothing reaches bob's screen."""
    server = talkative_server
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den",
                      env={"LANG": "fr_FR.UTF-8"})
    await bob.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Continuer ou Sortir")
    await bob.wait_for("Your turn")
    await command(ann, "/ignore ANN", "Vous ne pouvez pas masquer vos propres messages.")
    ann.press("t")
    await ann.wait_for("/ignore NOM · /report NOM motif")
    ann.type("/ignore [red]zed")
    ann.press("enter")
    screen = await ann.wait_for(re.escape("Personne ici ne s'appelle [red]zed."))
    assert "/ignore [red]zed" in screen.splitlines()[-2], screen  # kept, to correct it
    ann.press("escape")
    await say(bob, "ping")
    await ann.wait_for("» bob: ping")
    assert "ignore" not in bob.text and "zed" not in bob.text, bob.text


async def test_someone_hidden_stays_hidden_at_the_next_table_of_the_connection(
        talkative_server, players, make_key):
    """ann hides bob at table den while it waits, goes back to the lobby and opens table
    two; bob comes there too: his lines stay off her screen, while cy's are read."""
    server = talkative_server
    ann, bob, cy = players("ann"), players("bob"), players("cy")
    bob_key, cy_key = make_key(), make_key()
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.type("den")
    ann.press("enter")
    await ann.wait_for("Waiting for the game to start")
    await bob.connect(server.port, key=bob_key, command="play den")
    await bob.wait_for("Waiting for the game to start")
    await say(bob, "spam spam")
    await ann.wait_for("» bob: spam spam")
    screen = await command(ann, "/ignore bob", "bob's lines are hidden, for you alone")
    assert "spam spam" not in screen, screen
    ann.press("q")
    await ann.wait_for("q or Enter: leave")  # asked first: her seat would go
    await asyncio.sleep(READ_FIRST)
    ann.press("q")
    await ann.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.type("two")
    ann.press("enter")
    await ann.wait_for("Waiting for the game to start")
    bob.press("q")  # leaves den (a seat is kept for a connection that drops)
    await bob.wait_for("q or Enter: leave")
    await asyncio.sleep(READ_FIRST)
    bob.press("q")
    await bob.wait_for("lobby")
    await bob.close()
    bob = players("bob")
    await bob.connect(server.port, key=bob_key, command="play two")
    await cy.connect(server.port, key=cy_key, command="play two")
    for person in (bob, cy):
        await person.wait_for("Waiting for the game to start")
    await say(bob, "spam again")
    await cy.wait_for("» bob: spam again")
    await say(cy, "hi ann")
    screen = await ann.wait_for("» cy: hi ann")
    assert "spam" not in screen and "bob:" not in screen, screen
