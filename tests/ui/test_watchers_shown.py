"""The players are told who watches them: nobody at a table, public or private, can be
watched without knowing it. Before the game the waiting room names the spectators under
the seats; during the game the top line counts them."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest

from diamant_tui.table import Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp
from ui_helpers import screen_text, settled, three_at_a_table, until


def waiting_table() -> Table:
    """A table of three opened by zoe, one seat for a computer player."""
    return Table(TableSettings(name="den", seats=3, bots=("cards:4",), pace=0.02, seed=3),
                 creator="zoe")


async def test_the_waiting_room_names_the_spectators_literally():
    """Before the game, the seats are followed by who watches them, names as written
    (brackets too), and the line goes when they leave."""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        wes = table.watch("[b]wes[/b]", "wes")
        await until(pilot, lambda: "Watching: [b]wes[/b]" in screen_text(app), timeout=15)
        table.watch("kim", "kim")
        await until(pilot, lambda: "Watching: [b]wes[/b], kim" in screen_text(app), timeout=15)
        wes.leave()
        await until(pilot, lambda: "Watching: kim" in screen_text(app), timeout=15)


async def test_the_waiting_room_names_the_spectators_in_ukrainian():
    """The line is in the player's language."""
    table = waiting_table()
    app = DiamantApp(lang="uk", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        table.watch("wes", "wes")
        await until(pilot, lambda: "Спостерігають: wes" in screen_text(app), timeout=15)


async def test_the_top_line_counts_the_spectators_during_the_game():
    """During the game a player reads on the top line how many watch, in their language
    with its plural forms; nothing is said while nobody watches."""
    table = waiting_table()
    app = DiamantApp(lang="fr", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        table.sit("Bob", "bob")
        await until(pilot, lambda: "Manche 1/5" in screen_text(app), timeout=15)
        assert "spectateur" not in screen_text(app).splitlines()[0]
        table.watch("wes", "wes")
        await until(pilot, lambda: "1 spectateur" in screen_text(app).splitlines()[0], timeout=15)
        table.watch("kim", "kim")
        await until(pilot, lambda: "2 spectateurs" in screen_text(app).splitlines()[0], timeout=15)


@pytest.mark.parametrize("key", ["c", "l"])
async def test_a_spectator_pressing_continue_or_exit_is_told_why_nothing_happens(key):
    """A spectator's Continue and Exit keys act on nothing (the table asks nobody
    watching for a choice), and their note line says why, in their language, for a
    moment: pressed in silence, they looked broken."""
    async with AsyncExitStack() as stack:
        table, pilots = await three_at_a_table(stack)
        wes = pilots[2]
        await until(wes, lambda: "Раунд 1/5" in screen_text(wes.app), timeout=15)
        await settled(wes)
        await wes.press(key)
        await until(wes, lambda: "Це можуть лише гравці; ви спостерігаєте."
                    in screen_text(wes.app), timeout=5)
        assert table.status is TableStatus.PLAYING
