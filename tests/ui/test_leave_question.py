"""Leaving a waiting table: `q` asks a person in a seat first, in place of the line
telling how to start, saying what leaving costs; `q` again or Enter leaves, Escape or
any other key stays. A chat line typed without `t` ("qui veut jouer ?") gives nobody's
seat away. A spectator goes at once. During a game the question is a dialog, which a
burst of typed keys cannot answer yes either."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.table import SeatKind, Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens import waiting_questions
from diamant_tui.ui.screens.confirm import ConfirmScreen
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from test_start_question import assert_question_fits, burst, key_words, keys_of, waiting_table
from ui_helpers import screen_text, until

QUESTION = "Leave this table? Your seat will be free for someone else."
OPENER_ALONE = "Leave? Your seat is freed; the first to sit may start until you are back."
ANSWERS = "q or Enter: leave · Esc: stay"
HINT = "Press s to start now: computer players take the free seats."
START = "Start now? 3 free seats go to computer players."


def app_for(member, left: list, lang: str = "en") -> DiamantApp:
    """An app for ``member`` that notes in ``left`` each time its person leaves."""
    return DiamantApp(lang=lang, member=member, on_leave=lambda app: left.append(app))


async def asked(pilot, question: str = OPENER_ALONE) -> None:
    """Wait until ``question`` is on screen and has been long enough to be read."""
    await until(pilot, lambda: question in screen_text(pilot.app))
    await asyncio.sleep(READ_FIRST)


async def test_q_at_a_waiting_table_asks_first_and_keeps_the_seat():
    """`q` in a seat at a waiting table asks, in place of the line telling how to start,
    with what leaving costs and the keys that answer; the key bar offers Escape to stay.
    Nobody leaves. (`q` left at once, the seat and the right to start given away.)"""
    left: list = []
    table = waiting_table()
    app = app_for(table.sit("Zoe", "zoe"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        assert "esc Stay" not in key_words(app)
        await pilot.press("q")
        await until(pilot, lambda: OPENER_ALONE in screen_text(app))
        text = screen_text(app)
        assert ANSWERS in text and HINT not in text
        assert "Free seats: 3" in text
        assert "esc Stay" in key_words(app)
        assert not left and table.seats[0].kind is SeatKind.PERSON
    await table.close()


@pytest.mark.parametrize("key", ["q", "enter"])
async def test_q_again_or_enter_leaves(key):
    """Asked, `q` again (or Enter) leaves the table."""
    left: list = []
    table = waiting_table()
    app = app_for(table.sit("Zoe", "zoe"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("q")
        await asked(pilot)
        await pilot.press(key)
        await until(pilot, lambda: left)
        assert left == [app]
    await table.close()


async def test_escape_stays_and_leaves_nothing_behind():
    """Escape takes the question away: the screen and the key bar read as before `q`,
    and the next `q` asks again."""
    left: list = []
    table = waiting_table()
    app = app_for(table.sit("Zoe", "zoe"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        before, keys = screen_text(app), key_words(app)
        await pilot.press("q")
        await asked(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: OPENER_ALONE not in screen_text(app))
        assert screen_text(app) == before and key_words(app) == keys
        await pilot.press("q")
        await until(pilot, lambda: OPENER_ALONE in screen_text(app))
        assert not left
    await table.close()


@pytest.mark.parametrize("line", ["qui veut jouer ?", "quelqu'un ?\n", "q\n", "qq\n",
                                  "¿quién quiere jugar?\n", "quick game?\n"])
async def test_a_chat_line_typed_without_t_leaves_nobody(line):
    """Keys meant for the chat reach the table when `t` was forgotten: its `q` asks, and
    the keys typed with it (another `q`, the Enter that ends the line) never answer yes;
    the person keeps their seat. (The first `q` sent them back to the lobby.)"""
    left: list = []
    table = waiting_table()
    app = app_for(table.sit("Zoe", "zoe"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        burst(app, *keys_of(line))
        await until(pilot, lambda: app._message_queue.empty())
        await pilot.pause()
        assert not left
        assert table.seats[0].kind is SeatKind.PERSON and table.status is TableStatus.WAITING
    await table.close()


async def test_a_q_or_enter_pressed_before_the_question_can_be_read_is_dropped(monkeypatch):
    """Typed on the heels of the `q` that asked, `q` and Enter answer nothing: the
    question stays to be read."""
    monkeypatch.setattr(waiting_questions, "READ_FIRST", 3600.0)
    left: list = []
    table = waiting_table()
    app = app_for(table.sit("Zoe", "zoe"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("q")
        await until(pilot, lambda: OPENER_ALONE in screen_text(app))
        await pilot.press("q", "enter", "q")
        await pilot.pause()
        assert not left and OPENER_ALONE in screen_text(app)
    await table.close()


async def test_a_spectator_leaves_at_once():
    """A spectator holds no seat: `q` takes them back at once, nothing asked."""
    left: list = []
    table = waiting_table()
    table.sit("Zoe", "zoe")
    app = app_for(table.watch("Wes", "wes"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "You are watching" in screen_text(app))
        await pilot.press("q")
        await until(pilot, lambda: left)
        assert "Leave" not in screen_text(app)
    await table.close()


async def test_one_question_at_a_time():
    """Asked whether to start now, `q` asks whether to leave in its place; then `s`
    asks whether to start in its place: never both, and the key bar's Escape follows."""
    left: list = []
    table = waiting_table()
    app = app_for(table.sit("Zoe", "zoe"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("s")
        await until(pilot, lambda: START in screen_text(app))
        assert "esc Wait" in key_words(app)
        await pilot.press("q")
        await until(pilot, lambda: OPENER_ALONE in screen_text(app))
        assert START not in screen_text(app)
        assert "esc Stay" in key_words(app) and "esc Wait" not in key_words(app)
        await pilot.press("s")
        await until(pilot, lambda: START in screen_text(app))
        assert OPENER_ALONE not in screen_text(app)
        assert "esc Wait" in key_words(app) and "esc Stay" not in key_words(app)
        await asyncio.sleep(READ_FIRST)
        await pilot.press("escape")
        await until(pilot, lambda: HINT in screen_text(app))
        assert not left and table.status is TableStatus.WAITING
    await table.close()


async def test_the_question_says_what_leaving_costs_and_follows_the_seats():
    """The opener, alone, reads that whoever sits first may start until she is back;
    once Max sits, that Max may. Max, who did not open the table, reads only that his
    seat goes free; once Zoe has left, he may start it, and his question says Lea may
    if he goes. Each time it is so: the table gives the start to that seat."""
    table = waiting_table()
    zoe_left: list = []
    zoe_app = app_for(table.sit("Zoe", "zoe"), zoe_left)
    async with zoe_app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(zoe_app))
        await pilot.press("q")
        await until(pilot, lambda: OPENER_ALONE in screen_text(zoe_app))
        max_ = table.sit("Max", "max")
        told = "Leave? Your seat is freed; Max may start until you are back."
        await until(pilot, lambda: told in screen_text(zoe_app))
        max_app = app_for(max_, [])
        async with max_app.run_test(size=(80, 24)) as max_pilot:
            await until(max_pilot, lambda: "Zoe opened this table" in screen_text(max_app))
            await max_pilot.press("q")
            await until(max_pilot, lambda: QUESTION in screen_text(max_app))
            await max_pilot.press("escape")
            table.sit("Lea", "lea")
            await until(pilot, lambda: told in screen_text(zoe_app))  # Max still first
            await asyncio.sleep(READ_FIRST)
            await pilot.press("q")
            await until(pilot, lambda: zoe_left)
            zoe_app.member.leave()  # her seat freed, as a server does once she has gone
            assert table.starter_seat == max_.seat  # what Zoe was told
            await until(max_pilot, lambda: HINT in screen_text(max_app))
            await max_pilot.press("q")
            gives = "Leave? Your seat is freed, and Lea may start the game."
            await until(max_pilot, lambda: gives in screen_text(max_app))
            max_.leave()
            assert table.seats[table.starter_seat].name == "Lea"  # what Max was told
    await table.close()


async def test_the_question_goes_as_the_game_begins():
    """Asked, the last seat is taken and the game begins: the question is gone, and an
    Enter typed then is no answer (nor a choice made before the round's first one)."""
    left: list = []
    table = waiting_table(seats=3)
    app = app_for(table.sit("Zoe", "zoe"), left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("q")
        await asked(pilot)
        table.sit("Max", "max")
        table.sit("Lea", "lea")
        await until(pilot, lambda: "Round 1/5" in screen_text(app))
        assert "Leave?" not in screen_text(app) and "esc Stay" not in key_words(app)
        await pilot.press("q")  # now the game's own question, a dialog
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert not left
    await table.close()


@pytest.mark.parametrize("line", ["qu'y", "query", "quickly"])
async def test_a_burst_of_typed_keys_does_not_answer_the_game_question(line):
    """During a game `q` asks in a dialog; the keys typed with it ("qu'y a-t-il", a chat
    line typed without `t`) come before anyone has read it, and a `y` is not a yes:
    the person stays. A `y` pressed once the question could be read leaves. (The `y`
    answered it, and the person left the game.)"""
    left: list = []
    table = waiting_table(seats=3)
    zoe = table.sit("Zoe", "zoe")
    table.sit("Max", "max")
    table.sit("Lea", "lea")
    app = app_for(zoe, left)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Round 1/5" in screen_text(app))
        burst(app, *keys_of(line))
        await until(pilot, lambda: app._message_queue.empty())
        await pilot.pause()
        assert not left and isinstance(app.screen, ConfirmScreen)
        await asyncio.sleep(READ_FIRST)
        await pilot.press("y")
        await until(pilot, lambda: left)
    await table.close()


@pytest.mark.parametrize("lang, question, answers, stay", [
    ("en", "Leave? Your seat is freed; SixteenLettersXY may start until you are back.",
     "q or Enter: leave · Esc: stay", "esc Stay"),
    ("fr", "Partir ? Place libérée ; SixteenLettersXY peut lancer jusqu'à votre retour.",
     "q ou Entrée : partir · Échap : rester", "esc Rester"),
    ("es", "¿Irte? Asiento libre; SixteenLettersXY podrá empezar hasta que vuelvas.",
     "q o Intro: irte · Esc: quedarte", "esc Quedarse"),
    ("uk", "Піти? Місце звільниться; доки вас нема, почати гру зможе SixteenLettersXY.",
     "q або Enter — піти · Esc — лишитися", "esc Лишитися"),
])
async def test_the_question_fits_80x24_with_eight_seats_in_every_language(
        lang, question, answers, stay):
    """Eight seats, the longest names, a chat line: the question and its keys each on
    one line of their own, every seat, the chat and the whole key bar in sight."""
    table = Table(TableSettings(name="den", seats=8, bots=(), pace=0, seed=3), creator="zoe")
    zoe = table.sit("Zoe_with_a_long_", "zoe")
    table.sit("SixteenLettersXY", "p0")
    for n in range(1, 6):
        table.sit(f"player_number_{n}_", f"p{n}")
    app = app_for(zoe, [], lang)
    async with app.run_test(size=(80, 24)) as pilot:
        zoe.say("one moment please")
        await until(pilot, lambda: "one moment please" in screen_text(app))
        await pilot.press("q")
        await until(pilot, lambda: question in screen_text(app))
        assert_question_fits(app, question, answers, stay,
                             "» Zoe_with_a_long_: one moment please")
        assert isinstance(app.screen, TableScreen)
    await table.close()


@pytest.mark.parametrize("lang, bar", [
    ("en", "y Yes  n No  f1 Rules"), ("fr", "y Oui  n Non  f1 Règles"),
    ("es", "y Sí  n No  f1 Reglas"), ("uk", "y Так  n Ні  f1 Правила"),
])
async def test_the_key_bar_under_the_game_question_offers_its_answers(lang, bar):
    """While the dialog asks whether to leave the game, the key bar says its keys, not
    the table's: `c Continue` and `l Exit` under it did nothing (the dialog takes every
    key), and nothing said `n` or Escape keeps the seat. The rules stay a key away."""
    table = waiting_table(seats=3)
    zoe = table.sit("Zoe", "zoe")
    table.sit("Max", "max")
    table.sit("Lea", "lea")
    app = app_for(zoe, [], lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "1/5" in screen_text(app))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause()
        last = screen_text(app).splitlines()[-1]
        assert last.strip() == bar, last
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert screen_text(app).splitlines()[-1].split()[:2] == ["c", app.t("key.continue")]
    await table.close()
