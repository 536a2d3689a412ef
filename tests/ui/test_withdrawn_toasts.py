"""A toast whose words no longer hold is taken away (a mute told, then lifted)."""

from __future__ import annotations

from diamant_tui.ui import DiamantApp, SetupChoices
from ui_helpers import until


async def test_withdraw_takes_the_toast_away_and_it_may_be_told_again():
    """Withdrawn, the toast leaves the screen at once (not when its time is up), and
    the same words told later are shown again, not taken for a repeat (the bell)."""
    app = DiamantApp(lang="en", choices=SetupChoices(name="Zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.notify("muted [b]until[/b] nine", timeout=60)
        app.notify("something else", timeout=60)
        await until(pilot, lambda: len(app._notifications) == 2)
        app.withdraw("muted [b]until[/b] nine")
        await pilot.pause()
        assert [note.message for note in app._notifications] == ["something else"]
        app.notify("muted [b]until[/b] nine", timeout=60)
        await pilot.pause()
        assert sorted(note.message for note in app._notifications) == [
            "muted [b]until[/b] nine", "something else"]
