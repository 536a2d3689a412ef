"""Resume codes: typed fast, guessed, expired, and a seat taken over with one."""

from __future__ import annotations

import re

from diamant_tui.table import TableSettings

CODE = re.compile(r"resume code is ([A-Z0-9]{6})")


async def test_typing_resume_codes_fast_does_not_crash_the_session(server, players, make_key):
    """Two codes and Enters sent in one burst: the dialog closes once, the session lives on."""
    server.lobby.create(TableSettings(name="fast", seats=3, bots=("carry:20",) * 2, seed=5,
                                      pace=0.5), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play fast")
    code = CODE.search(await guest.wait_for(CODE.pattern))[1]
    await guest.close()

    back = players("someone")
    await back.connect(server.port)
    await back.wait_for("lobby")
    # A person hammering the keys: Enter pressed again before the dialog has closed.
    back.press("r")
    await back.wait_for("Your resume code")
    back.type(code)
    await back.wait_for(code)
    back.press("enter", "enter", "enter")
    await back.wait_for(r"▶ gus")
    back.press("g")  # the session still answers keys
    await back.wait_for(r"▶ gus")
    assert not back.closed.is_set()
    assert b"something went wrong" not in back.raw
