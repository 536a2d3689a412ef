"""The table screen as players judge it: waiting for players, arriving late, rapid keys,
the round told under the path, and redrawing only what changed."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from textual import events
from textual.css.stylesheet import Stylesheet
from textual.widget import Widget
from textual.widgets import Input

from diamant_tui.engine.events import CardRevealed
from diamant_tui.table import Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.describe import describe
from diamant_tui.ui.screens.confirm import ConfirmScreen
from diamant_tui.ui.screens.rules import RulesScreen
from diamant_tui.ui.messages import TableUpdated
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from diamant_tui.ui.widgets.cave_path import CavePath
from diamant_tui.ui.widgets.decision import ChoiceButton, DecisionPanel
from diamant_tui.ui.widgets.deck_info import DeckInfo
from diamant_tui.ui.widgets.event_banner import EventBanner
from diamant_tui.ui.widgets.key_bar import KeyBar, KeyGroup, KeyHint
from diamant_tui.ui.widgets.players import PlayerList
from diamant_tui.engine.view import Decision
from ui_helpers import (FixedTable, FrameCounter, H, T, final_shown, mid_round,
                        screen_segments, whole_game, screen_text, settled, summary_shown,
                        table_shown, until, round_summary_up)

HINT = "Press s to start now: computer players take the free seats."


def footer_keys(app) -> tuple[KeyHint | KeyGroup, ...]:
    return app.screen.query_one(KeyBar).keys


def key_dimmed(app, key: str) -> bool:
    return not next(k for k in footer_keys(app) if k.key == key).enabled


MOVE_TO = re.compile(r"\x1b\[(\d+);\d+H")
"""A cursor move in what a frame writes; the row (from 1) is its group."""


def sent_to_row(written: str, row: int) -> str:
    """The text a frame wrote on terminal ``row`` (from 1), colours and styles left out."""
    parts = MOVE_TO.split(written)
    text = "".join(part for y, part in zip(parts[1::2], parts[2::2]) if int(y) == row)
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def drawn_dimmed(app, key: str) -> bool:
    """Whether the key bar on the screen (not only its state) shows ``key`` dimmed."""
    segment = [seg for seg in screen_segments(app) if seg.text == f" {key} "][-1]
    return bool(segment.style and segment.style.dim)


async def test_a_waiting_table_shows_its_seats_and_gives_way_to_the_game():
    """Before the game: the table's name, rule set, timer, each seat, how many people are
    still awaited and, for its creator, how to start now; the table starts the moment its
    last seat is taken."""
    table = Table(TableSettings(name="cave-1", seats=4, bots=("ev",), pace=0.05, seed=3, timer=30),
                  creator="zoe")
    me = table.sit("Zoe", "zoe")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "cave-1" in screen_text(app))
        text = screen_text(app)
        for words in ("Table cave-1: waiting for players", "Classic (2005)",
                      "decision timer 30 s", "Zoe", "you", "free seat",
                      "Dmytro", "computer player (ev)", "Free seats: 2",
                      HINT):
            assert words in text, words
        keys = {k.key for k in footer_keys(app)}
        assert "c" not in keys and "p" not in keys and "t" in keys  # no choice yet, chat is open
        assert "s" in keys
        table.sit("Max", "max")
        await until(pilot, lambda: "Free seats: 1" in screen_text(app))
        assert "Max" in screen_text(app) and "person" in screen_text(app)
        table.sit("Lea", "lea")
        await until(pilot, lambda: app.screen.view is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "waiting for players" not in text and HINT not in text
        assert "Round 1/5" in text
    await table.close()


@pytest.mark.parametrize("lang, line", [
    ("en", "Relics (2016) · decision timer 30 s · hidden chests"),
    ("fr", "Reliques (2016) · minuteur 30 s · coffres cachés"),
    ("es", "Reliquias (2016) · temporizador 30 s · baúles ocultos"),
    ("uk", "Реліквії (2016) · таймер рішення 30 с · приховані скрині"),
])
async def test_the_waiting_screen_says_the_tables_settings_as_one_line(lang, line):
    """Rule set, timer and hidden chests read as one list (the last one was written as
    the setup form's label, with a capital in the middle of the line)."""
    table = Table(TableSettings(name="den", seats=4, rules="relics", timer=30,
                                hidden_chests=True, pace=0, seed=3), creator="zoe")
    app = DiamantApp(lang=lang, member=table.sit("Zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Zoe" in screen_text(app))
        assert line in screen_text(app)
    await table.close()


async def test_others_are_told_who_can_start_the_table_and_s_does_nothing_for_them():
    table = Table(TableSettings(seats=4, bots=(), pace=0, seed=3), creator="max")
    table.sit("Max", "max")
    me = table.sit("Zoe", "zoe")
    app = DiamantApp(lang="fr", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Places libres : 2" in screen_text(app))
        text = screen_text(app)
        assert "Max a ouvert cette table et peut lancer la partie." in text
        assert "Appuyez sur s" not in text
        await pilot.press("s")
        await pilot.pause()
        assert table.status.value == "waiting"
    await table.close()


@pytest.mark.parametrize("lang, told", [
    ("en", "The person who opened this table has left: Zoe can start it now."),
    ("fr", ("La personne qui a ouvert cette table est partie : Zoe peut maintenant "
            "lancer la partie.")),
])
async def test_once_the_opener_has_left_the_others_are_told_who_can_start_now(lang, told):
    """Max opened the table and leaves it before the game: Lea reads that Zoe, first in
    the seats now, can start it, and Zoe is offered s, which starts it."""
    table = Table(TableSettings(seats=5, bots=(), pace=0, seed=3), creator="max")
    max_ = table.sit("Max", "max")
    zoe, lea = table.sit("Zoe", "zoe"), table.sit("Lea", "lea")
    lea_app, zoe_app = DiamantApp(lang=lang, member=lea), DiamantApp(lang="en", member=zoe)
    async with lea_app.run_test(size=(80, 24)) as lea_pilot, \
            zoe_app.run_test(size=(80, 24)) as zoe_pilot:
        await until(lea_pilot, lambda: "Lea" in screen_text(lea_app))
        max_.leave()
        await until(lea_pilot, lambda: told in " ".join(screen_text(lea_app).split()))
        await until(zoe_pilot, lambda: HINT in screen_text(zoe_app))
        await zoe_pilot.press("s")  # asked first (tests/ui/test_start_question.py)
        await until(zoe_pilot, lambda: "Start now?" in screen_text(zoe_app))
        await asyncio.sleep(READ_FIRST)
        await zoe_pilot.press("s")
        await until(zoe_pilot, lambda: table.status is TableStatus.PLAYING)
    await table.close()


async def test_arriving_after_the_start_shows_the_first_card_in_words():
    """A table starts as its last seat is taken, so the first card can be turned before
    the newcomer's screen listens: it is still told in full, as the live event says it."""
    table = Table(TableSettings(seats=3, bots=("cards:40", "cards:40"), pace=0, seed=4))
    me = table.sit("Zoe", "zoe")  # the last seat: the game starts now
    await until_card_turned(table)
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.view is not None)
        await pilot.pause()
        first = next(e for e in table.game.events if isinstance(e, CardRevealed))
        expected = describe(app.t, table.game.names, first)
        text = screen_text(app)
        assert "Round 1 begins" in text
        assert expected in text
    await table.close()


async def until_card_turned(table: Table) -> None:
    for _ in range(1000):
        if any(isinstance(e, CardRevealed) for e in table.game.events):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("no card was turned")


def burst(app, *keys: str) -> None:
    """Keys arriving all at once, as a held key or pasted garbage does over SSH."""
    for key in keys:
        app.post_message(events.Key(key, "?" if key == "question_mark" else None))


def rules_after(keys: list[str], open_: bool) -> bool:
    """Whether the rules are open after ``keys``, each acting on the screen it reaches:
    F1 or ? opens them over the table and closes them when open; Escape closes them."""
    for key in keys:
        open_ = (not open_) if key in ("f1", "question_mark") else (open_ and key != "escape")
    return open_


RULES_BURSTS = [
    ["f1", "escape", "question_mark", "escape", "f1", "f1", "escape", "f1"],
    ["f1", "question_mark", "f1"],
    ["escape", "escape", "f1", "f1", "f1", "escape"],
    ["question_mark", "escape", "question_mark"],
    ["f1", "f1", "f1", "f1", "escape"],
]


async def test_rules_opened_and_closed_by_rapid_keys_never_break_the_app():
    """F1/?/Escape arriving all at once: each key acts on the screen it reaches, in
    order, so the rules are open exactly when they should be and never stacked, the
    table stays underneath, and the app still answers."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        base = app.screen_stack[:]
        open_ = False
        for _ in range(3):
            for keys in RULES_BURSTS:
                burst(app, *keys)
                await settled(pilot)
                open_ = rules_after(keys, open_)
                assert app._exception is None
                assert app.screen_stack[:len(base)] == base, keys
                assert [type(s) for s in app.screen_stack[len(base):]] == (
                    [RulesScreen] if open_ else []), keys
        if open_:
            await pilot.press("escape")
            await settled(pilot)
        assert app.screen_stack == base
        await pilot.press("f1")
        await until(pilot, lambda: "Diamant — the rules" in screen_text(app))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("c")
        await until(pilot, lambda: table.submitted == [(0, table.submitted[0][1])])


def question_after(keys: list[str], open_: bool) -> bool:
    """Whether the leave question is open after ``keys``: q asks it over the table,
    n or Escape answers no; q on the question itself does nothing."""
    for key in keys:
        open_ = (open_ or key == "q") if key not in ("n", "escape") else False
    return open_


async def test_a_question_answered_by_rapid_keys_closes_once():
    """`q` then `n` held down: one question at a time, each answer closes it once, the
    table stays."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        base = app.screen_stack[:]
        open_ = False
        for keys in [["q", "n", "q", "escape", "n", "n"], ["q", "q", "q"], ["n", "q", "n", "q"],
                     ["escape", "n"], ["q", "q"], ["q", "escape"]] * 2:
            burst(app, *keys)
            await settled(pilot)
            open_ = question_after(keys, open_)
            assert app._exception is None
            assert app.screen_stack[:len(base)] == base, keys
            assert [type(s) for s in app.screen_stack[len(base):]] == (
                [ConfirmScreen] if open_ else []), keys
        assert app.is_running and isinstance(app.screen, TableScreen)


async def _screen_after_a_pending_choice(viewer: int | None, choice: Decision,
                                         size: tuple[int, int]) -> list:
    """What ``viewer`` (None: a spectator) is shown once Bruno has chosen ``choice``,
    before the reveal: the whole screen, text and styles."""
    table = FixedTable()
    table.reveal(T(9))
    table.decide(Dmytro="leave")
    app = DiamantApp(lang="en", member=table.member(viewer))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        table.decide(Bruno=choice.value)
        await until(pilot, lambda: app.screen.view.players[1].decided)
        await settled(pilot)
        assert "Bruno" in screen_text(app)
        return screen_segments(app)


@pytest.mark.parametrize(("viewer", "size"), [(0, (80, 24)), (None, (120, 40))])
async def test_a_pending_choice_looks_the_same_on_everyone_elses_screen(viewer, size):
    """Until the reveal, another player and a spectator see that Bruno has chosen and
    nothing of what: their screens, text and styles, are the same after a pending Exit
    as after a pending Continue."""
    after_leave = await _screen_after_a_pending_choice(viewer, Decision.LEAVE, size)
    after_continue = await _screen_after_a_pending_choice(viewer, Decision.CONTINUE, size)
    assert after_leave == after_continue


async def test_the_round_is_told_under_the_path():
    """At 80x24 the space under a short path shows the round's earlier events: who
    continued, who left and what they took."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        mid_round(table)
        await pilot.pause()
        lines = screen_text(app).splitlines()
        path_area = "\n".join(lines[4:13])  # between the cards and the player list
        assert "Continue: Ana, Chiara, Dmytro · Exit: Bruno" in path_area
        assert "Bruno goes back to camp and banks 9♦ (6♦ from the path)." in path_area
        assert "Trap: rams. Nothing happens… this time." in path_area
        # The newest line is in the banner, not repeated under the path.
        assert "Treasure 13" not in path_area and "Treasure 13" in "\n".join(lines[13:])
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        # Wide: the log has its own column and tells it; the path area keeps to the cards.
        assert screen_text(app).count("Bruno goes back to camp") == 2  # rounds 1 and 2, in the log


async def test_key_hints_in_brackets_and_names_like_markup_are_shown_as_typed():
    names = ("Ana", "[b]Bo[/b]", "[/]", "Dmytro")
    table = FixedTable(names=names)
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        table.reveal(T(9))
        table.decide(**{"Ana": "continue", "[b]Bo[/b]": "continue", "[/]": "leave",
                        "Dmytro": "continue"})
        await pilot.pause()
        text = screen_text(app)
        assert "[/] goes back to camp" in text and "[b]Bo[/b]" in text
        assert app._exception is None
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        table.reveal(T(9))
        await pilot.pause()
        assert "Continue [c]" in screen_text(app) and "Exit [l]" in screen_text(app)


async def test_a_spectators_round_summary_closes_when_the_next_round_begins():
    """A spectator has no choice to make: the summary gives way when the next round begins."""
    async with round_summary_up(None) as (table, pilot):
        app = pilot.app
        table.reveal(T(5))  # round 2 begins
        # (A spectator's screen takes table updates a moment after the players' screens.)
        await until(pilot, lambda: table_shown(app) and "Round 2/5" in screen_text(app))
        assert not summary_shown(app)


async def test_updates_redraw_only_what_changed():
    """An update that changes nothing sends nothing; a player's tick repaints part of
    the screen and never the whole of it; the key hints are not rebuilt for it."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        frames = FrameCounter(app)
        for _ in range(50):  # until the first drawing is done, on a machine however busy
            frames.reset()
            await pilot.pause(0.1)
            if frames.frames == 0:
                break
        for _ in range(5):
            table.publish([])
            await pilot.pause()
        assert frames.frames == 0
        table.decide(Ana="continue")  # the turn's last choice: the decisions are shown
        await pilot.pause()
        table.reveal(T(3))  # a new card: Ana and Dmytro must choose
        await pilot.pause()
        keys = footer_keys(app)
        frames.reset()
        table.decide(Dmytro="continue")  # another player's tick
        await pilot.pause()
        assert frames.frames == 1 and frames.full == 0
        assert footer_keys(app) == keys
        assert not key_dimmed(app, "c")
        table.decide(Ana="continue")  # nothing more is due until the card: `c` is dimmed in place
        await pilot.pause()
        assert [k.key for k in footer_keys(app)] == [k.key for k in keys]
        assert key_dimmed(app, "c")
        assert frames.full == 0


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_the_choice_keys_are_offered_only_to_a_player_in_the_cave(lang):
    """Only players in the cave decide: a player in camp (Bruno went home this round)
    sees no Continue or Exit in the key bar; one in the cave sees them (dimmed while
    their choice is made), and loses them the moment they go home."""
    table = mid_round(FixedTable())
    ana = DiamantApp(lang=lang, member=table.member(0))
    bruno = DiamantApp(lang=lang, member=table.member(1))
    async with ana.run_test(size=(80, 24)) as ana_pilot, bruno.run_test(size=(80, 24)) as bruno_pilot:
        await settled(ana_pilot)
        await settled(bruno_pilot)
        t = ana.t
        words = (t("key.continue"), t("key.leave"))

        def key_bar_line(app) -> str:
            return screen_text(app).splitlines()[-1]

        assert {"c", "l"} <= {k.key for k in footer_keys(ana)}
        assert all(word in key_bar_line(ana) for word in words), key_bar_line(ana)
        assert not {"c", "l"} & {k.key for k in footer_keys(bruno)}
        assert not any(word in key_bar_line(bruno) for word in words), key_bar_line(bruno)
        table.decide(Ana="leave")  # Ana goes home: nothing more for her to decide this round
        await settled(ana_pilot)
        assert not {"c", "l"} & {k.key for k in footer_keys(ana)}
        assert not any(word in key_bar_line(ana) for word in words), key_bar_line(ana)


async def test_a_rounds_end_and_its_summary_lay_the_screen_out_once_each_way():
    """The round summary is part of the table screen: the round's last card and the
    summary over it are at most two frames, closing it as many, with no key hints rebuilt
    and the keyboard's focus left where it was (a move of the focus was two more frames).
    (As a screen of its own it was pushed and popped: four full repaints and eight frames
    for every seat at every round's end.)"""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        frames = FrameCounter(app)
        table.decide(Ana="continue")
        table.reveal(H("lava"))  # the second lava: the round ends
        await until(pilot, lambda: summary_shown(app))
        await settled(pilot)
        assert frames.full <= 1 and frames.frames <= 2, (frames.full, frames.frames)
        keys = footer_keys(app)  # between rounds nobody decides: no Continue, no Exit
        assert not {"c", "l"} & {k.key for k in keys}
        focused = app.focused
        frames.reset()
        await pilot.press("enter")
        await until(pilot, lambda: table_shown(app))
        await settled(pilot)
        assert frames.full <= 1 and frames.frames <= 2, (frames.full, frames.frames)
        assert [k.key for k in footer_keys(app)] == [k.key for k in keys]
        assert app.focused is focused


async def test_a_chat_line_typed_over_the_round_summary_is_sent_not_taken_as_closing_it():
    """t over the summary closes it (the box lies under it), and Enter in the chat box
    sends the line."""
    table = mid_round(FixedTable())
    member = table.member(0)
    app = DiamantApp(lang="en", member=member)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        table.decide(Ana="continue")
        table.reveal(H("lava"))  # the second lava: the round ends
        await until(pilot, lambda: summary_shown(app))
        await pilot.press("t", *"gg", "enter")
        await until(pilot, lambda: member.said == ["gg"])
        assert table_shown(app)


def rows_written(frames: FrameCounter) -> set[int]:
    """The terminal rows (from 1) the counted frames wrote on."""
    return {int(row) for written in frames.sent for row in MOVE_TO.findall(written)}


async def test_the_chat_box_opens_over_the_last_line_and_redraws_nothing_else():
    """t opens the chat box over the decision panel's last line, and Enter closes it:
    neither moves the rest of the screen nor redraws it (every spectator of a busy table
    chats; a frame of the whole screen for each t and Enter fills the server)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        before = screen_text(app).splitlines()
        frames = FrameCounter(app)
        await pilot.press("t")
        await settled(pilot)
        after = screen_text(app).splitlines()
        chat_row = app.screen.query_one("#chat-input").region.y
        assert chat_row == 22 and "Say something" in after[chat_row]  # above the keys
        assert after[:chat_row] == before[:chat_row]  # nothing moved
        assert rows_written(frames) <= {22, 23, 24}, frames.sent
        frames.reset()
        await pilot.press("enter")
        await settled(pilot)
        assert screen_text(app).splitlines()[:chat_row] == before[:chat_row]
        assert rows_written(frames) <= {22, 23, 24}, frames.sent


async def test_escape_closes_the_chat_box_and_drops_what_was_typed():
    """While the chat box is open the key bar says how to close it; Escape does, and the
    words typed are not sent."""
    table = mid_round(FixedTable())
    member = table.member(0)
    app = DiamantApp(lang="fr", member=member)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert not any(k.key == "escape" for k in footer_keys(app))
        await pilot.press("t", *"oups")
        await settled(pilot)
        assert [k.words for k in footer_keys(app) if k.key == "escape"] == ["Annuler"]
        await pilot.press("escape")
        await settled(pilot)
        chat = app.screen.query_one("#chat-input")
        assert not chat.has_class("-open") and chat.value == "" and member.said == []
        await pilot.press("t")
        await settled(pilot)
        assert chat.value == "" and app.focused is chat  # a new, empty line


async def test_a_new_theme_reaches_the_marks_in_the_player_list():
    """The list keeps the styles it looked up between redraws, but not across a change of
    theme: a decided player's mark takes the new theme's colour at once."""
    table = mid_round(FixedTable())  # Chiara has decided
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)

        def mark_colour():
            return next(seg.style.color for seg in screen_segments(app) if "✓" in seg.text)

        before = mark_colour()
        app.theme = "textual-light"
        await settled(pilot)
        after = mark_colour()
        assert after != before
        assert after.triplet.hex == app.current_theme.success.lower()


async def test_a_turn_and_the_keys_it_dims_or_offers_are_one_frame():
    """When a choice becomes due or the turn ends, the key hints that change with it (`c`,
    `l` offered or dimmed) change while the screen handles that update, so they are drawn
    in the same frame as the rest of it, never in a second one after it."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any(k.key == "c" and k.enabled for k in footer_keys(app)))
        await settled(pilot)
        # What the `c` key shows the moment the screen has handled each table update.
        dimmed_after_update: list[bool] = []

        def handled(message) -> None:
            if isinstance(message, TableUpdated):
                dimmed_after_update.append(key_dimmed(app, "c"))

        app.screen.message_signal.subscribe(app.screen, handled, immediate=True)
        frames = FrameCounter(app)
        table.decide(Ana="continue")  # the turn's last choice: nothing is due any more
        await settled(pilot)
        assert dimmed_after_update == [True]
        assert key_dimmed(app, "c") and (frames.frames, frames.full) == (1, 0)
        assert drawn_dimmed(app, "c") and not drawn_dimmed(app, "q")
        # The frame redraws the key's words with it (dimmed too), on the key bar's line.
        drawn = sent_to_row(frames.sent[0], app.size.height)
        assert "Continue" in drawn and "Exit" in drawn, drawn
        frames.reset()
        table.reveal(T(3))  # a new card: a choice is due again
        await settled(pilot)
        assert dimmed_after_update == [True, False]
        assert not key_dimmed(app, "c") and (frames.frames, frames.full) == (1, 0)
        assert not drawn_dimmed(app, "c")


def count_styling(monkeypatch, nodes: bool = False) -> list:
    """From now on, the class of every node the stylesheet is applied to, in order (the
    nodes themselves with ``nodes``)."""
    styled: list = []
    apply = Stylesheet.apply

    def counting_apply(self, node, **kwargs):
        styled.append(node if nodes else type(node).__name__)
        return apply(self, node, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", counting_apply)
    return styled


def waiting_for_one_more(name: str) -> tuple[Table, DiamantApp]:
    """A table of three with a computer player, where Zoe waits for one more person, and
    her app (not running yet)."""
    table = Table(TableSettings(name=name, seats=3, bots=("ev",), pace=0.05, seed=3),
                  creator="zoe")
    return table, DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))


async def test_a_waiting_seat_holds_the_games_widgets_hidden_and_the_game_begins_without_making_any(
        monkeypatch):
    """While the table waits, the screen holds the cave, the players, the deck, the
    banner and the decision, hidden (not drawn, not in the focus chain), made with the
    screen: when the game begins nothing is made or styled, they are only shown. Made
    when the game began, they were mounted for every seat at once, a third of what the
    game's beginning cost each seat."""
    table, app = waiting_for_one_more("cave-1")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Free seats: 1" in screen_text(app))
        await pilot.pause()
        screen = app.screen
        shown = screen._compositor.visible_widgets
        for part in (CavePath, PlayerList, DeckInfo, DecisionPanel, EventBanner):
            widget = screen.query_one(part)
            assert widget not in shown, part
        assert not any(isinstance(widget, ChoiceButton) for widget in screen.focus_chain)
        before = set(screen.walk_children(with_self=True))
        styled = count_styling(monkeypatch, nodes=True)
        table.sit("Max", "max")
        await until(pilot, lambda: "Round 1/5" in screen_text(app))
        await pilot.pause()
        assert "waiting for players" not in screen_text(app)
        assert "Continue [c]" in screen_text(app) and "Zoe" in screen_text(app)
        assert set(screen.walk_children(with_self=True)) == before
        assert [type(node).__name__ for node in styled] == []
        # Laid out as a screen opened on a game: the decision's two lines just above the
        # key bar (styled with their own CSS, not their Horizontal base's).
        decision = screen.query_one(DecisionPanel)
        assert decision.region.height == 2, decision.region
        assert decision.region.bottom == screen.query_one(KeyBar).region.y, decision.region
    await table.close()


async def test_a_game_begins_on_a_waiting_seats_screen_in_one_frame():
    """The last seat taken, a waiting seat's screen shows the game with its first card,
    the seat that filled the table and the focused Continue button in one frame: the
    game's start, its first card and the focus each came in a frame of their own."""
    table, app = waiting_for_one_more("cave-2")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Free seats: 1" in screen_text(app))
        await settled(pilot)
        frames = FrameCounter(app)
        table.sit("Max", "max")
        await until(pilot, lambda: getattr(app.screen, "view", None) is not None
                    and app.screen.view.decision_due)
        await settled(pilot)
        assert frames.frames == 1, frames.sent
        assert isinstance(app.focused, ChoiceButton) and app.focused.id == "continue"
        text = screen_text(app)
        assert "Round 1/5" in text and "Max" in text and "Continue [c]" in text
    await table.close()


async def test_moving_between_the_buttons_redraws_them_without_restyling(monkeypatch):
    """The arrow keys move the focus between the two buttons: the focused one is drawn
    as focused, and no stylesheet is applied again for it."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert app.focused.id == "continue"
        styled = count_styling(monkeypatch)
        await pilot.press("right")
        await settled(pilot)
        assert app.focused.id == "leave"
        leave, go_on = app.screen.query_one("#leave"), app.screen.query_one("#continue")
        focus_look = leave.get_component_rich_style("choice-button--focus")
        face = go_on.get_component_rich_style("choice-button--face")
        assert leave.render().style == focus_look and go_on.render().style == face
        assert styled == []


@pytest.mark.parametrize("meanwhile", ["close the chat", "end the session"])
async def test_what_happens_while_the_games_parts_mount_breaks_nothing(monkeypatch, meanwhile):
    """The game's parts are mounted when the game begins, and a key (Escape closing the
    chat box) or the session's end can come while they are: neither asks for a part that
    is not ready (a crash of the session, before)."""
    table = Table(TableSettings(name="cave-1", seats=3, bots=("ev",), pace=0.05, seed=3),
                  creator="zoe")
    me = table.sit("Zoe", "zoe")
    app = DiamantApp(lang="en", member=me)
    mount_all = Widget.mount_all

    def mount_all_and_meanwhile(self, widgets, *args, **kwargs):
        mounting = mount_all(self, widgets, *args, **kwargs)  # registered, not yet composed
        if self.id == "table-main":
            if meanwhile == "close the chat":
                self.screen.action_close_chat()
            else:
                self.app.exit()
        return mounting

    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Free seats: 1" in screen_text(app))
        await pilot.press("t")
        await pilot.pause()
        monkeypatch.setattr(Widget, "mount_all", mount_all_and_meanwhile)
        table.sit("Max", "max")
        if meanwhile == "close the chat":
            await until(pilot, lambda: "Continue [c]" in screen_text(app))
            assert app.is_running
    assert app._exception is None
    await table.close()


async def test_a_game_ending_while_a_chat_line_is_typed_keeps_the_keys_in_the_chat_box():
    """Neither a new choice coming due nor the final scores take the focus from a chat
    box being typed in: its next letters (a c or an l, an r or a q) must not decide, vote
    for a rematch or leave the table."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("t", "h", "i")
        await settled(pilot)
        whole_game(table)
        await until(pilot, lambda: final_shown(app))
        await settled(pilot)
        chat = app.screen.query_one("#chat-input", Input)
        assert app.focused is chat
        await pilot.press("r", "q")
        await settled(pilot)
        assert chat.value == "hirq" and final_shown(app)
        await pilot.press("escape")
        await settled(pilot)
        assert app.focused.id == "rematch"  # the chat closed: back to the final scores


async def test_a_table_update_stays_with_its_screen_which_tells_its_app():
    """The app handles no message for a table's update (one fewer for every seat at every
    update); the screen tells it of each once it is shown, the game's end included."""
    table = FixedTable()
    told = []

    class Told(DiamantApp):
        def table_update_shown(self, update) -> None:
            told.append(update.status)
            super().table_update_shown(update)

    app = Told(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        reached_app = []
        app.message_signal.subscribe(
            app, lambda message: reached_app.append(message)
            if isinstance(message, TableUpdated) else None, immediate=True)
        told.clear()
        published = []
        publish = table.publish
        table.publish = lambda events: (published.append(events), publish(events))
        whole_game(table)
        await until(pilot, lambda: final_shown(app))
        await settled(pilot)
        assert len(told) == len(published) > 20
        assert told[-1] is TableStatus.FINISHED and reached_app == []


async def test_a_choices_key_acts_without_passing_through_the_widgets():
    """`c` and `l` go from the app to the table's screen and the bindings at once, not as
    messages through the focused button, the panel and the screen; what those did with
    them still holds: the choice is made, a key sent before the turn is dropped, and the
    chat box, once open, gets its letters."""
    table = mid_round(FixedTable())  # Ana (seat 0) has a choice to make
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = app.screen
        keys_seen = []
        for node in (screen, *screen.query(ChoiceButton), screen.query_one(DecisionPanel)):
            node.message_signal.subscribe(
                node, lambda message: keys_seen.append(message)
                if isinstance(message, events.Key) else None, immediate=True)
        # Sent before the turn began (as by a key held down): dropped.
        due_since = screen._due_since
        screen._due_since = time.monotonic() + 60
        await pilot.press("l")
        await settled(pilot)
        assert table.submitted == []
        screen._due_since = due_since
        await pilot.press("l")
        await settled(pilot)
        assert table.submitted == [(0, Decision.LEAVE)] and keys_seen == []
        table.reveal(T(3))  # her choice ended the turn
        await settled(pilot)
        await pilot.press("t", "c", "l")
        await settled(pilot)
        assert screen.query_one("#chat-input").value == "cl"
        assert table.submitted == [(0, Decision.LEAVE)]
