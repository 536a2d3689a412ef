"""Below 80x24 an overlay asks for a larger terminal: behind it keys do nothing, and it says
that the game goes on meanwhile only where a game is going on."""

from __future__ import annotations

from textual.widgets import Select

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.screens.setup import SetupScreen
from diamant_tui.ui.screens.table import TableScreen
from ui_helpers import (final_shown, FixedTable, after_disaster, screen_text, summary_shown,
                        table_shown, until, whole_game, round_summary_up)

ENLARGE = "Please enlarge your terminal to at least 80×24."
GOES_ON = "The game goes on meanwhile."


async def test_enter_on_the_setup_screen_starts_no_game_behind_the_overlay():
    """Enter (the Start button has the focus) starts nothing unseen; no game goes on yet."""
    app = DiamantApp(lang="en", choices=SetupChoices(name="Zoe", players=3, seed=1, pace=0))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert ENLARGE in text and GOES_ON not in text
        await pilot.press("enter", "ctrl+s", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.table is None
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert ENLARGE not in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
    await app.table.close()


async def test_a_waiting_table_says_the_game_goes_on_once_it_begins():
    """While the table waits for players there is no game to go on; when the last seat is
    taken (the terminal still small) the overlay says that the game goes on."""
    table = Table(TableSettings(seats=3, bots=("cards:40",), pace=0, seed=3))
    me = table.sit("me", "me")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(70, 30)) as pilot:
        await until(pilot, lambda: app.screen.update_ is not None)
        await pilot.pause()
        text = screen_text(app)
        assert ENLARGE in text and GOES_ON not in text
        table.sit("max", "max")
        await until(pilot, lambda: GOES_ON in screen_text(app))
    await table.close()


async def test_a_round_summary_waits_for_a_larger_terminal():
    """Over a game in progress the summary's overlay says the game goes on; Enter does not
    close the summary unseen, and does once the terminal is large again."""
    async with round_summary_up() as (table, pilot):
        app = pilot.app
        await pilot.resize_terminal(80, 20)
        await pilot.pause()
        text = screen_text(app)
        assert ENLARGE in text and GOES_ON in text
        await pilot.press("enter", "escape", "space")
        await pilot.pause()
        assert summary_shown(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: table_shown(app))


async def test_the_final_scores_offer_no_rematch_behind_the_overlay():
    """A finished game does not go on: the overlay does not say so, and `r` asks for no
    rematch until the terminal is large again."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        whole_game(table)
        await until(pilot, lambda: final_shown(app))
        await pilot.resize_terminal(79, 24)
        await pilot.pause()
        text = screen_text(app)
        assert ENLARGE in text and GOES_ON not in text
        await pilot.press("r", "enter")
        await pilot.pause()
        assert table.rematches == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("r")
        await until(pilot, lambda: table.rematches == 1)


async def test_ctrl_q_still_quits_behind_the_overlay():
    """Quitting is the one thing a person can do without seeing the screen."""
    app = DiamantApp(lang="en", choices=SetupChoices(name="Zoe"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0  # the app is on its way out


async def test_no_overlay_is_made_until_the_terminal_is_too_small():
    """At 80x24 a player's screen holds no overlay at all; shrunk, the screen shows it
    (the keys then do nothing); grown again, the table is back, and shrunk again the
    same overlay shows."""
    from diamant_tui.ui.widgets.too_small import TooSmall

    table = after_disaster(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and not screen.query(TooSmall)
        await pilot.resize_terminal(79, 24)
        await pilot.pause()
        assert ENLARGE in screen_text(app)
        (overlay,) = screen.query(TooSmall)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert ENLARGE not in screen_text(app)
        await pilot.resize_terminal(80, 23)
        await pilot.pause()
        assert ENLARGE in screen_text(app) and list(screen.query(TooSmall)) == [overlay]


async def test_an_open_list_of_choices_waits_behind_the_overlay():
    """A list of choices opened on the setup screen (the lobby's new table form has the
    same) is covered as the rest of the screen is, not drawn over the words asking to
    enlarge the terminal. It closes, its choice as it was, the focus on it."""
    app = DiamantApp(lang="en", choices=SetupChoices(name="Zoe", players=3, seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rules = app.screen.query_one("#rules", Select)
        rules.focus()
        rules.expanded = True
        await pilot.pause()
        assert "Relics (2016)" in screen_text(app)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        text = screen_text(app)
        assert ENLARGE in text and "Relics (2016)" not in text, text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "Relics (2016)" not in screen_text(app), app.focused
        assert rules.value == "classic" and rules.has_focus, app.focused
