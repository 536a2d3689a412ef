"""Starting a waiting table early: `s` asks first, in place of the line telling how to
start; a second `s` or Enter starts, Escape or any other key cancels. A chat line typed
without `t` (its first `s`) starts nothing for the people about to sit down."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual import events

from diamant_tui.table import SeatKind, Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens import waiting_questions
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from diamant_tui.ui.widgets.key_bar import KeyBar
from ui_helpers import screen_text, until

QUESTION = "Start now? 3 free seats go to computer players."
ANSWERS = "s or Enter: start · Esc: keep waiting for players"
HINT = "Press s to start now: computer players take the free seats."


def waiting_table(seats: int = 4) -> Table:
    """A table opened by zoe, every seat but hers free (computer players take them)."""
    return Table(TableSettings(name="den", seats=seats, bots=(), pace=0, seed=3), creator="zoe")


def key_words(app) -> list[str]:
    """The key bar's keys as they read: ``esc Wait``."""
    return [f"{k.display} {k.words}" for k in app.screen.query_one(KeyBar).keys]


def burst(app, *keys: str) -> None:
    """Keys arriving all at once, as a line typed fast does over SSH (one packet)."""
    for key in keys:
        app.post_message(events.Key(key, " " if key == "space" else key if len(key) == 1 else None))


def keys_of(line: str) -> list[str]:
    """The keys that type ``line`` (a new line is Enter)."""
    return ["space" if c == " " else "enter" if c == "\n" else c for c in line]


async def asked(pilot) -> None:
    """Wait until the question is on screen and has been long enough to be read: the
    keys pressed after that answer it."""
    await until(pilot, lambda: QUESTION in screen_text(pilot.app))
    await asyncio.sleep(READ_FIRST)


async def test_s_asks_first_and_starts_nothing():
    """`s` at a waiting table with free seats asks, in place of the line telling how to
    start, whether computer players should take them; the table goes on waiting, the
    key bar offers Escape to keep waiting. (`s` started the game at once.)"""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        assert "esc Wait" not in key_words(app)
        await pilot.press("s")
        await until(pilot, lambda: QUESTION in screen_text(app))
        text = screen_text(app)
        assert ANSWERS in text and HINT not in text
        assert "Free seats: 3" in text  # the seats stay in sight, as does the chat
        assert "esc Wait" in key_words(app) and "s Start now" in key_words(app)
        assert table.status is TableStatus.WAITING
    await table.close()


@pytest.mark.parametrize("key", ["s", "enter"])
async def test_a_second_s_or_enter_starts_the_game(key):
    """Asked, `s` again (or Enter) starts: computer players take the free seats."""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("s")
        await asked(pilot)
        await pilot.press(key)
        await until(pilot, lambda: "Round 1/5" in screen_text(app))
        assert [s.kind for s in table.seats] == [SeatKind.PERSON] + [SeatKind.BOT] * 3
        assert QUESTION not in screen_text(app) and "esc Wait" not in key_words(app)
    await table.close()


async def test_escape_keeps_waiting_and_leaves_nothing_behind():
    """Escape takes the question away: the screen reads as it did before `s`, the key
    bar too, and the next `s` asks again rather than starting."""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        before, keys = screen_text(app), key_words(app)
        await pilot.press("s")
        await asked(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: QUESTION not in screen_text(app))
        assert screen_text(app) == before and key_words(app) == keys
        await pilot.press("s")
        await until(pilot, lambda: QUESTION in screen_text(app))
        assert table.status is TableStatus.WAITING
    await table.close()


async def test_any_other_key_cancels_and_does_what_it_always_does():
    """Asked, `t` takes the question away and opens the chat box, as it always does:
    nobody has to answer before going on, and what they type goes into the box."""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("s")
        await asked(pilot)
        await pilot.press("t", *"yes")
        await until(pilot, lambda: app.screen._chat.value == "yes")
        assert QUESTION not in screen_text(app) and HINT in screen_text(app)
        assert table.status is TableStatus.WAITING
    await table.close()


@pytest.mark.parametrize("line", ["is anyone", "I'll pass", "yes yes\n", "sss\n"])
async def test_a_chat_line_typed_without_t_does_not_start_the_game(line):
    """Keys meant for the chat reach the game when `t` was forgotten: the `s` among them
    asks, and the keys typed with it (a space, a second `s`, the Enter that ends the
    line) never answer yes. (The first `s` started the game for everyone.)"""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        burst(app, *keys_of(line))
        await until(pilot, lambda: app._message_queue.empty())
        await pilot.pause()
        assert table.status is TableStatus.WAITING
        assert [s.kind for s in table.seats].count(SeatKind.EMPTY) == 3
        text = screen_text(app)
        if line.rstrip().endswith("s"):  # the question stays up, to be read
            assert QUESTION in text
        else:  # the space after "is" took it away
            assert QUESTION not in text and HINT in text
    await table.close()


async def test_an_s_or_enter_pressed_before_the_question_can_be_read_is_dropped(monkeypatch):
    """Typed on the heels of the `s` that asked (the second `s` of "pass", the Enter
    ending a chat line), `s` and Enter answer nothing: the question stays to be read."""
    monkeypatch.setattr(waiting_questions, "READ_FIRST", 3600.0)
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("s")
        await until(pilot, lambda: QUESTION in screen_text(app))
        await pilot.press("s", "enter")
        await pilot.pause()
        assert table.status is TableStatus.WAITING and QUESTION in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: HINT in screen_text(app))
    await table.close()


async def test_the_question_follows_the_seats_and_goes_as_the_game_begins():
    """Asked, the question counts the free seats as people come and go; when the last
    seat is taken the game begins by itself and the question is gone."""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("s")
        await until(pilot, lambda: QUESTION in screen_text(app))
        max_ = table.sit("Max", "max")
        await until(pilot, lambda: "Start now? 2 free seats go to" in screen_text(app))
        lea = table.sit("Lea", "lea")
        await until(pilot, lambda: "Start now? 1 free seat goes to a computer player."
                    in screen_text(app))
        lea.leave()
        await until(pilot, lambda: "Start now? 2 free seats go to" in screen_text(app))
        assert max_.seat == 1
        table.sit("Lea", "lea")
        table.sit("Ann", "ann")  # the last seat: the game begins
        await until(pilot, lambda: "Round 1/5" in screen_text(app))
        assert "Start now?" not in screen_text(app) and "esc Wait" not in key_words(app)
        assert [s.kind for s in table.seats] == [SeatKind.PERSON] * 4
    await table.close()


async def test_the_question_goes_when_the_game_is_started_otherwise():
    """The host starts the table while its opener is asked: the game is shown, with
    nothing of the question; an Enter then starts nothing more."""
    table = waiting_table()
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("s")
        await asked(pilot)
        table.start()
        await until(pilot, lambda: "Round 1/5" in screen_text(app))
        assert "Start now?" not in screen_text(app) and "esc Wait" not in key_words(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "Start now?" not in screen_text(app)
    await table.close()


async def test_the_question_goes_when_the_opener_comes_back():
    """Zoe may start the table its opener Max left, and is asked; Max comes back, and may
    start it again: Zoe's question goes, she reads that Max can start it, and her `s`
    (or Enter) does nothing."""
    table = Table(TableSettings(seats=5, bots=(), pace=0, seed=3), creator="max")
    max_ = table.sit("Max", "max")
    zoe = table.sit("Zoe", "zoe")
    max_.leave()
    app = DiamantApp(lang="en", member=zoe)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: HINT in screen_text(app))
        await pilot.press("s")
        await until(pilot, lambda: "Start now? 4 free seats go to" in screen_text(app))
        table.sit("Max", "max")
        told = "Max opened this table and can start it now."
        await until(pilot, lambda: told in screen_text(app))
        assert "Start now?" not in screen_text(app) and "esc Wait" not in key_words(app)
        await asyncio.sleep(READ_FIRST)
        await pilot.press("s", "enter")
        await pilot.pause()
        assert table.status is TableStatus.WAITING and "Start now?" not in screen_text(app)
    await table.close()


@pytest.mark.parametrize("member", ["spectator", "player"])
async def test_someone_who_may_not_start_is_asked_nothing(member):
    """A spectator, or a player who did not open the table: `s` asks nothing, starts
    nothing, and the key bar offers neither `s` nor Escape to keep waiting."""
    table = waiting_table()
    table.sit("Zoe", "zoe")
    me = table.watch("Wes", "wes") if member == "spectator" else table.sit("Bob", "bob")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Zoe opened this table" in screen_text(app))
        await pilot.press("s")
        await asyncio.sleep(READ_FIRST)
        await pilot.press("s", "enter")
        await pilot.pause()
        assert "Start now?" not in screen_text(app)
        assert not any(k.startswith(("s ", "esc ")) for k in key_words(app))
        assert table.status is TableStatus.WAITING
    await table.close()


@pytest.mark.parametrize("lang, free, question, answers, wait", [
    ("en", 1, "Start now? 1 free seat goes to a computer player.",
     "s or Enter: start · Esc: keep waiting for players", "esc Wait"),
    ("fr", 7, "Commencer maintenant ? 7 places libres iront à des joueurs ordinateur.",
     "s ou Entrée : commencer · Échap : attendre encore des joueurs", "esc Attendre"),
    ("es", 7, "¿Empezar ya? La computadora ocupará 7 asientos libres.",
     "s o Intro: empezar · Esc: seguir esperando jugadores", "esc Esperar"),
    ("uk", 1, "Почати зараз? 1 вільне місце займе комп'ютерний гравець.",
     "s або Enter — почати · Esc — ще почекати на гравців", "esc Чекати"),
    ("uk", 3, "Почати зараз? 3 вільні місця займуть комп'ютерні гравці.",
     "s або Enter — почати · Esc — ще почекати на гравців", "esc Чекати"),
    ("uk", 7, "Почати зараз? 7 вільних місць займуть комп'ютерні гравці.",
     "s або Enter — почати · Esc — ще почекати на гравців", "esc Чекати"),
])
async def test_the_question_fits_80x24_with_eight_seats_in_every_language(
        lang, free, question, answers, wait):
    """Eight seats, a chat line: the question and its keys each on one line of their
    own, every seat, the chat and the whole key bar still in sight."""
    table = Table(TableSettings(name="den", seats=8, bots=(), pace=0, seed=3), creator="zoe")
    zoe = table.sit("Zoe", "zoe")
    for n in range(7 - free):
        table.sit(f"player{n}", f"p{n}")
    app = DiamantApp(lang=lang, member=zoe)
    async with app.run_test(size=(80, 24)) as pilot:
        zoe.say("one moment please")
        await until(pilot, lambda: "» Zoe: one moment please" in screen_text(app))
        await pilot.press("s")
        await until(pilot, lambda: question in screen_text(app))
        assert_question_fits(app, question, answers, wait, "» Zoe: one moment please")
    await table.close()


def assert_question_fits(app, question: str, answers: str, key: str, chat: str) -> None:
    """A question asked at a waiting table of eight seats, at 80x24: it and its keys
    each on a line of their own, every seat, the ``chat`` line and the whole key bar (its
    ``key`` among them) in sight."""
    rows = screen_text(app).splitlines()
    assert any(row.strip() == question for row in rows)
    assert any(row.strip() == answers for row in rows)
    assert sum(re.match(r" +(▶ +)?\d\. ", row) is not None for row in rows) == 8
    assert chat in screen_text(app)
    bar = rows[23]
    assert key in bar and bar.rstrip().endswith(app.t("key.rules"))


async def rebuilt_without_its_opener() -> Table:
    """A waiting table of four that ann opened and sat at, rebuilt after a restart that
    she has not come back from."""
    table = Table(TableSettings(name="den", seats=4, bots=(), pace=0, seed=3), creator="ann")
    table.sit("ann", "ann")
    saved = table.snapshot()
    await table.close()
    return Table.restore(saved, wait=30)


async def test_a_seat_kept_after_a_restart_for_someone_not_back_reads_away():
    """At a waiting table rebuilt after a restart, a seat kept for someone not back yet
    reads "away", as in the game's list, and the first person there is told they may
    start it: it read "person", and that its absent opener could start it now."""
    again = await rebuilt_without_its_opener()
    app = DiamantApp(lang="en", member=again.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Zoe  you" in screen_text(app))
        text = screen_text(app)
        assert re.search(r"1\. ann +away", text), text
        assert "The person who opened this table has left: Zoe can start it now." in text \
            or HINT in text, text
    await again.close()


async def test_leaving_a_rebuilt_waiting_table_names_who_may_start_among_those_there():
    """Zoe, who may start a rebuilt waiting table, asks to leave it: the question names
    the next person there who may start it, not someone not back yet (ann, first in the
    seats, is not there to start it)."""
    again = await rebuilt_without_its_opener()
    app = DiamantApp(lang="en", member=again.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        again.sit("Bob", "bob")
        await until(pilot, lambda: "Bob  person" in screen_text(app))
        await pilot.press("q")
        await until(pilot, lambda: "Leave?" in screen_text(app))
        assert "Leave? Your seat is freed, and Bob may start the game." in screen_text(app)
    await again.close()
