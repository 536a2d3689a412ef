"""A seat given up before its table's screen is up (the table closed by a host, or the
server stopping, while the screen was being made): the screen takes the person away
from the table as leaving it does, and the app does not fail."""

from __future__ import annotations

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from ui_helpers import until


async def test_a_member_gone_before_the_screen_mounts_leaves_instead_of_failing():
    """(The screen's subscription raised NotAtTable from its mount, and the app failed:
    over SSH, the person was told the server had failed.)"""
    table = Table(TableSettings(name="t", seats=3, seed=1, pace=0))
    member = table.sit("Zoe", "zoe")
    member.leave()
    left: list = []
    app = DiamantApp(lang="en", member=member, on_leave=lambda app: left.append(app))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: left)
        assert app._exception is None and app.is_running
    await table.close()
