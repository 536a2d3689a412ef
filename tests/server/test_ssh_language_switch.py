"""Changing language in the lobby (`g`) changes every text the person reads, those
the server made for them before the change too."""

from __future__ import annotations

import asyncio
import re

from diamant_tui.table import TableSettings
from diamant_tui.ui.screens.waiting_questions import READ_FIRST


async def test_a_guests_resume_note_follows_the_language_chosen_after_it(server, players):
    """A guest told their resume code in English, who then chooses French in the lobby,
    reads it in French at the top of the rules (F1), as the rest of the rules are: it was
    kept as told, in English, on a French screen."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2), "x")
    gus = players("gus")
    await gus.connect(server.port)
    await gus.wait_for(r"den +Classic")
    gus.press("enter")  # the last seat: the game begins
    text = await gus.wait_for(r"resume code is [A-Z0-9]{6}")
    code = re.search(r"resume code is ([A-Z0-9]{6})", text)[1]
    gus.press("q")
    await gus.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
    gus.press("y")
    await gus.wait_for(lambda t: "lobby" in t and f"Resume code: {code}" in t)
    gus.press("g")
    await gus.wait_for(lambda t: f"Code de reprise : {code}" in t)
    gus.press("f1")
    text = await gus.wait_for("Diamant — les règles")
    assert f"Votre code de reprise est {code}" in text, text
    assert "Your resume code" not in text
