"""A guest waiting for a game keeps their resume code in sight: the line that gave it
goes up and out as the chat comes, the waiting panel's note stays."""

from __future__ import annotations

import re

from diamant_tui.i18n import Translator
from diamant_tui.table import TableSettings
from test_hosting_mutes import sent


async def test_the_code_stays_on_the_waiting_screen_as_the_chat_scrolls(
        server, players, make_key):
    """In French: five chat lines later, the code is still on the guest's screen, in
    the panel's note; the keyed person at the table has no such note. (The code was
    told once among the chat's lines, and scrolled away with them.)"""
    server.lobby.create(TableSettings(name="salle", seats=4, bots=(), seed=3, pace=0.5),
                        "test")
    t = Translator("fr")
    gus = players("gus")
    await gus.connect(server.port, command="play salle", env={"LANG": "fr_FR.UTF-8"})
    text = await gus.wait_for(r"code de reprise est [A-Z0-9]{6}")
    code = re.search(r"code de reprise est ([A-Z0-9]{6})", text)[1]
    note = t("waiting.resume", code=code)
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play salle",
                      env={"LANG": "fr_FR.UTF-8"})
    await ann.wait_for("ann")
    for number in range(5):
        await sent(ann, "fr", f"ligne {number}")
    text = await gus.wait_for(lambda screen: "ligne 4" in screen)
    assert "code de reprise est" not in text  # the line that told it has gone
    assert note in text, text
    assert "code de reprise" not in ann.text
