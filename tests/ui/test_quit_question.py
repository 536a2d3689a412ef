"""Ctrl+Q in the middle of a game asks first, in the person's language, what quitting
costs: a person at a seat whose game goes on does not lose it to one stray key. A second
Ctrl+Q, or y once the question can be read, quits; n or Escape plays on. A spectator, a
finished game and the setup screen quit at once; a terminal too small for the game has
the question written in the overlay asking to enlarge it."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.i18n import Translator
from diamant_tui.table import Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.screens.confirm import QuitQuestion
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from ui_helpers import screen_text, until


def playing_table() -> Table:
    """A game going on: one person's seat and two computer players, slow enough that it
    does not end while the test looks at it."""
    return Table(TableSettings(name="cave", seats=3, bots=("carry:20",) * 2, seed=1,
                               pace=0.5))


def flowing(text: str) -> str:
    """``text`` as words alone, wherever its lines were broken and whatever box they
    are drawn in."""
    return " ".join(text.translate({ord(c): " " for c in "│┃▎▊▌▐║"}).split())


async def in_game(pilot, table: Table) -> None:
    """Wait until the person sees their game going on."""
    await until(pilot, lambda: table.status is TableStatus.PLAYING
                and isinstance(pilot.app.screen, TableScreen)
                and table.game.view_for(0).step >= 1)
    await pilot.pause()


async def asked_to_quit(pilot) -> None:
    """Press Ctrl+Q and wait for the question it asks."""
    await pilot.press("ctrl+q")
    await until(pilot, lambda: isinstance(pilot.app.screen, QuitQuestion))


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_ctrl_q_in_a_game_asks_and_no_plays_on(lang):
    """The question is on screen, whole, in the person's language; the app goes on and
    `n` takes the person back to their game. (Ctrl+Q quit at once, the game with it.)"""
    t = Translator(lang)
    table = playing_table()
    app = DiamantApp(lang=lang, member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, table)
        await asked_to_quit(pilot)
        assert flowing(t("confirm.quit")) in flowing(screen_text(app))
        assert app.return_code is None and app.is_running
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.is_running and table.seat_of("zoe") == 0
    await table.close()


async def test_a_second_ctrl_q_quits():
    """Asked, Ctrl+Q again quits: the way out stays one key pressed twice."""
    table = playing_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, table)
        await asked_to_quit(pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code == 0)
    await table.close()


async def test_y_quits_once_read_but_not_typed_with_the_ctrl_q():
    """A y typed with the Ctrl+Q (a burst of keys) does not answer; y once the question
    has been there long enough to be read quits."""
    table = playing_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, table)
        await pilot.press("ctrl+q", "y")
        await until(pilot, lambda: isinstance(app.screen, QuitQuestion))
        await pilot.pause()
        assert app.return_code is None and isinstance(app.screen, QuitQuestion)
        await asyncio.sleep(READ_FIRST)
        await pilot.press("y")
        await until(pilot, lambda: app.return_code == 0)
    await table.close()


async def test_a_spectator_quits_at_once():
    """Watching, nothing is lost by quitting: Ctrl+Q asks nothing."""
    table = playing_table()
    table.sit("Zoe", "zoe")
    app = DiamantApp(lang="en", member=table.watch("Max", "max"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, table)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code == 0)
    await table.close()


async def test_the_setup_screen_quits_at_once():
    """No game yet, no question."""
    app = DiamantApp(lang="en", choices=SetupChoices(name="Zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code == 0)


async def test_the_answers_stand_under_the_middle_of_the_question():
    """The Yes and No buttons are centred in the dialog (they stood at its left edge,
    under the question's first words, the rest of the box empty beside them)."""
    table = playing_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, table)
        await asked_to_quit(pilot)
        await pilot.pause()
        row = next(line for line in screen_text(app).splitlines() if "Yes [y]" in line)
        inside = row[row.index("│") + 1:row.rindex("│")]
        left = len(inside) - len(inside.lstrip())
        right = len(inside) - len(inside.rstrip())
        assert abs(left - right) <= 3, row
    await table.close()


@pytest.mark.parametrize("lang", ["en", "uk"])
async def test_behind_the_size_overlay_ctrl_q_asks_in_the_overlay(lang):
    """A window shrunk below 80x24 in the middle of a game (a split pane, a tiny laptop
    screen): Ctrl+Q asks as it does at full size, the question written where the
    "enlarge" notice stands, with the keys that answer it; Escape plays on, and a second
    Ctrl+Q quits. (The first Ctrl+Q quit at once there, the game with it.)"""
    t = Translator(lang)
    table = playing_table()
    app = DiamantApp(lang=lang, member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(60, 20)) as pilot:
        await in_game(pilot, table)
        await asked_to_quit(pilot)
        await pilot.pause()
        text = flowing(screen_text(app))
        assert flowing(t("confirm.quit")) in text, text
        assert flowing(t("too_small.quit_keys")) in text, text
        assert app.return_code is None and app.is_running
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.is_running and flowing(t("confirm.quit")) not in flowing(screen_text(app))
        await asked_to_quit(pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code == 0)
    await table.close()


async def test_the_question_asked_small_shows_whole_once_enlarged():
    """Asked behind the overlay, then the window grown again: the usual dialog, and its
    y quits."""
    table = playing_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(60, 20)) as pilot:
        await in_game(pilot, table)
        await asked_to_quit(pilot)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "Yes [y]" in screen_text(app)
        await asyncio.sleep(READ_FIRST)
        await pilot.press("y")
        await until(pilot, lambda: app.return_code == 0)
    await table.close()


@pytest.mark.parametrize("key", ["f1", "question_mark"])
async def test_the_rules_open_over_a_question_and_close_back_to_it(key):
    """F1 (or ?) over a question, here the one `q` asks in the middle of a game, shows
    the rules, as it does everywhere; closing them, the question is there as it was, and
    `n` plays on. (The key did nothing at all there, as if help were not to be had.)"""
    from diamant_tui.ui.screens.confirm import ConfirmScreen
    from diamant_tui.ui.screens.rules import RulesScreen

    table = playing_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, table)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = app.screen
        await pilot.press(key)
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is question)
        assert "Leave this table while the game goes on?" in flowing(screen_text(app))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert table.seat_of("zoe") == 0
    await table.close()


async def test_ctrl_q_quits_with_the_rules_open_over_its_question():
    """Asked, then the rules opened over the question: Ctrl+Q quits, as the second
    Ctrl+Q does, rather than asking a second time under the first."""
    from diamant_tui.ui.screens.rules import RulesScreen

    table = playing_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await in_game(pilot, table)
        await asked_to_quit(pilot)
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code == 0)
    await table.close()
