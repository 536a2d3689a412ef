"""An app that stops as its game ends (the person leaves, the connection drops, the
server stops) stops cleanly, whatever the table sends it meanwhile."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.ui import DiamantApp
from ui_helpers import FixedTable, table_shown, until, whole_game


@pytest.mark.parametrize("delay", [0, 0.002, 0.01])
async def test_an_app_that_stops_as_the_game_ends_stops_without_an_error(delay):
    """The final scores are made while the app stops: the app took its screens' parts
    down meanwhile, and the scores, made, found no line to write their winners on (the
    error came out of the app as it stopped; seen in a benchmark whose apps stopped as
    their game ended)."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_shown(app))
        whole_game(table)
        await asyncio.sleep(delay)
    assert app.return_code in (None, 0)
