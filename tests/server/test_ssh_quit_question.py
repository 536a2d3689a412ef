"""Ctrl+Q over SSH in the middle of a game: asked first, in the person's language, then
told on their own screen, once the game's is gone, that their seat is kept and the
command that takes them back to it; that command does."""

from __future__ import annotations

import asyncio
import re

from diamant_tui.i18n import Translator
from diamant_tui.table import TableSettings
from diamant_tui.ui.screens.waiting_questions import READ_FIRST


def open_table(server, name: str) -> None:
    """A table for one person and two computer players, slow enough to stay in play."""
    server.lobby.create(TableSettings(name=name, seats=3, bots=("carry:20",) * 2, seed=3,
                                      pace=0.5), "test")


def said_after_the_game(player) -> str:
    """What the server wrote once the game's screen had gone (the normal screen)."""
    return bytes(player.raw).decode("utf-8", "replace").rpartition("\x1b[?1049l")[2]


async def quit_asked(player, lang: str) -> None:
    """Press Ctrl+Q, wait for the question, and answer yes once it can be read."""
    question = Translator(lang)("confirm.quit_kept")
    player.press("\x11")
    await player.wait_for(lambda text: question.split("?")[0] in " ".join(text.split()))
    await asyncio.sleep(READ_FIRST)
    player.press("y")
    await player.wait_closed()


async def test_a_keyed_person_is_asked_then_told_how_to_come_back(server, players, make_key):
    """In French: the question, then the farewell with the table and the plain ssh
    line (the key takes them back); that line puts them back in their seat. (Ctrl+Q
    closed the connection at once, without a word.)"""
    open_table(server, "grotte")
    key = make_key()
    ann = players("ann")
    await ann.connect(server.port, key=key, command="play grotte", env={"LANG": "fr_FR.UTF-8"})
    await ann.wait_for("À vous")
    await quit_asked(ann, "fr")
    said = said_after_the_game(ann)
    command = f"ssh -t -p {server.port} ann@127.0.0.1"
    assert "Votre place à la table grotte vous est gardée" in said, said
    assert f"\r\n{command}\r\n" in said, said
    table = server.lobby.get("grotte")
    seat = table.seat_of("key:" + key.get_fingerprint("sha256"))
    assert seat is not None and table.seats[seat].away

    again = players("ann")
    await again.connect(server.port, key=key)
    await again.wait_for(r"▶ ann")
    assert table.seats[seat].connected and not table.seats[seat].away


async def test_a_guest_is_told_the_command_with_their_resume_code(server, players):
    """A guest's farewell gives the resume line (the help screen that showed the code
    has gone with the game's screen); typed as shown, it gives the seat back."""
    open_table(server, "cave")
    gus = players("gus")
    await gus.connect(server.port, command="play cave", env={"LANG": "es_ES.UTF-8"})
    text = await gus.wait_for(r"código para volver es [A-Z0-9]{6}")
    code = re.search(r"código para volver es ([A-Z0-9]{6})", text)[1]
    await quit_asked(gus, "es")
    said = said_after_the_game(gus)
    assert "Tu asiento en la mesa cave te espera" in said, said
    assert f"\r\nssh -t -p {server.port} gus@127.0.0.1 resume {code}\r\n" in said, said

    back = players("gus")
    await back.connect(server.port, command=f"resume {code}")
    await back.wait_for(r"▶ gus")


async def test_no_answers_and_the_game_goes_on(server, players, make_key):
    """`n` keeps the person at their table, connected."""
    open_table(server, "stay")
    key = make_key()
    ann = players("ann")
    await ann.connect(server.port, key=key, command="play stay")
    await ann.wait_for("Your turn")
    ann.press("\x11")
    await ann.wait_for("Quit while the game goes on?")
    ann.press("n")
    await ann.wait_for(lambda text: "Quit while" not in text)
    table = server.lobby.get("stay")
    seat = table.seat_of("key:" + key.get_fingerprint("sha256"))
    assert table.seats[seat].connected and not ann.closed.is_set()
