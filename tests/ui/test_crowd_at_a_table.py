"""A chat line refused by the table's allowances is said once, not once per key: every
toast costs each screen a layout coming and going, and a crowd hammering t would pile
them up on the server."""

from __future__ import annotations

from diamant_tui.table import ChatLimits, Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens.table import TableScreen
from ui_helpers import until


def refusals(app) -> list[str]:
    return [n.message for n in app._notifications if "before you chat again" in n.message]


async def test_asking_again_while_the_refusal_is_shown_adds_no_other_note():
    """The spectator has used their one line: t, t, t say once when they may speak again,
    and the chat box stays closed."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05),
                  chat=ChatLimits(person=1, window=60.0))
    table.sit("ann", "ann")
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        wes.say("hello")
        for _ in range(3):
            await pilot.press("t")
            await pilot.pause()
        await until(pilot, lambda: refusals(app))
        assert len(refusals(app)) == 1, refusals(app)
        assert "-open" not in app.screen.query_one("#chat-input").classes
    await table.close()
