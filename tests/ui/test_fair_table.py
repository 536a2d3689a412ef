"""A fair table as the people at it see it: a rematch agreed by vote, spectators who only
watch, buttons only when a choice is due, and keys that never act for the next round."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from textual import events

from diamant_tui.table import ChatLimits, Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens.confirm import ConfirmScreen
from diamant_tui.ui.screens.table import SUMMARY_GRACE, TableScreen
from diamant_tui.ui.widgets.final_scores import FinalScores
from diamant_tui.engine.view import Decision
from ui_helpers import (final_shown, FixedTable, H, T, mid_round, screen_text, settled, until,
                        whole_game, round_summary_up)


def quick(**kw) -> TableSettings:
    base = dict(name="den", seats=3, bots=("cards:1", "cards:1"), pace=0, seed=5, timer=0.01)
    base.update(kw)
    return TableSettings(**base)


async def test_a_rematch_that_starts_while_the_final_scores_are_built_breaks_nothing():
    """Under load a rematch can begin before the final screen has been mounted: the
    session goes on to the new game."""
    table = Table(quick(pace=0.05))
    me = table.sit("Zoe", "zoe")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await until(pilot, lambda: table.status is TableStatus.FINISHED, timeout=60)
            me.wake()
            me.vote_rematch()  # before the screen has even seen the game end
            assert table.status is TableStatus.PLAYING
            await pilot.pause()
            # The final scores made way for the new game (which lasts a few seconds).
            await until(pilot, lambda: isinstance(app.screen, TableScreen)
                        and app.screen.query_one("#path-scroll").display
                        and not any(f.shown for f in app.screen.query(FinalScores)))
        assert app.return_code is None and app._exception is None
    await table.close()


async def test_the_enter_that_closes_the_round_summary_never_decides_the_next_round():
    """The first decision of a round needs a key pressed after its first card is shown:
    an Enter meant for the round summary, arriving as the next round begins, does nothing."""
    async with round_summary_up() as (table, pilot):
        app = pilot.app
        meant_for_the_summary = events.Key("enter", None)  # typed now...
        table.publish(table.game.start_next_round())
        table.reveal(T(5))  # ...and read once the next round's first card is out
        app.post_message(meant_for_the_summary)
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.view.round == 2 and app.screen.view.decision_due)
        await pilot.pause()
        assert table.submitted == []
        assert app.screen.view.my_decision is None
        await asyncio.sleep(SUMMARY_GRACE)  # (an Enter at once: see the next test)
        await pilot.press("enter")  # a key pressed after the card is shown decides
        await until(pilot, lambda: table.submitted != [])
        assert table.submitted == [(0, Decision.CONTINUE)]


@pytest.mark.parametrize("key", ["enter", "space"])
async def test_an_enter_a_moment_after_the_summary_went_by_itself_chooses_nothing(key):
    """The next round begins and the game closes the summary, just as the person presses
    Enter to close it: their key arrives a moment after the new card, and pressed the
    focused Continue. A moment later, the same key chooses as it always did."""
    async with round_summary_up() as (table, pilot):
        app = pilot.app
        table.publish(table.game.start_next_round())
        table.reveal(T(5))
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.view.round == 2 and app.screen.view.decision_due)
        await pilot.press(key)  # meant for the summary, which has just gone
        await pilot.pause()
        assert table.submitted == []
        assert app.screen.view.my_decision is None
        await asyncio.sleep(SUMMARY_GRACE)
        await pilot.press(key)
        await until(pilot, lambda: table.submitted != [])
        assert table.submitted == [(0, Decision.CONTINUE)]


async def test_the_buttons_show_only_when_this_seat_has_a_choice_to_make():
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table.reveal(T(9))
        await until(pilot, lambda: "Continue [c]" in screen_text(app))
        assert "Exit [l]" in screen_text(app)
        table.decide(Ana="leave", Bruno="continue", Chiara="continue", Dmytro="continue")
        await until(pilot, lambda: app.screen.view is not None and not app.screen.view.me.in_cave)
        await pilot.pause()
        text = screen_text(app)
        assert "You are in camp" in text
        assert "Continue [c]" not in text and "Exit [l]" not in text
        await pilot.press("c", "enter", "space")
        await pilot.pause()
        assert table.submitted == []  # nothing was due: the keys decided nothing


async def test_a_spectator_watches_chats_and_leaves_and_does_nothing_else():
    table = mid_round(FixedTable())
    left = []
    member = table.member(None)
    app = DiamantApp(lang="en", member=member, on_leave=lambda app: left.append(app))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.view is not None)
        await pilot.pause()
        text = screen_text(app)
        assert "You are watching" in text
        assert "Continue [c]" not in text and "Your turn" not in text
        await pilot.press("c", "l", "enter", "s", "left", "enter")
        await pilot.pause()
        assert table.submitted == []
        await pilot.press("t")
        await pilot.press(*"hello")
        await pilot.press("enter")
        await until(pilot, lambda: member.said == ["hello"])
        await pilot.press("q")  # no "leave while the game goes on?": a spectator just goes
        await until(pilot, lambda: left)
        assert not isinstance(app.screen, ConfirmScreen)


async def test_the_final_scores_show_who_asked_for_a_rematch():
    """Each person votes with r; every screen says who has; a spectator has no vote."""
    table = Table(quick(seats=4, pace=0.01), creator="zoe")
    zoe, max_ = table.sit("Zoe", "zoe"), table.sit("Max", "max")
    sam = table.watch("Sam", "sam")
    zoe_app = DiamantApp(lang="en", member=zoe)
    sam_app = DiamantApp(lang="fr", member=sam)
    async with zoe_app.run_test(size=(80, 24)) as zoe_pilot, \
            sam_app.run_test(size=(80, 24)) as sam_pilot:
        await until(zoe_pilot, lambda: final_shown(zoe_app))
        await until(sam_pilot, lambda: final_shown(sam_app))
        await until(zoe_pilot, lambda: "Press r to ask for a rematch" in screen_text(zoe_app))
        await until(sam_pilot, lambda: "Vous regardez : les joueurs" in screen_text(sam_app))
        zoe.wake()
        max_.wake()
        await zoe_pilot.press("r")
        await until(zoe_pilot, lambda: "Rematch: Zoe ✓, Max …" in screen_text(zoe_app))
        assert "You asked for a rematch" in screen_text(zoe_app)
        await until(sam_pilot, lambda: "Revanche : Zoe ✓, Max …" in screen_text(sam_app))
        assert "Revanche [r]" not in screen_text(sam_app)
        await sam_pilot.press("r")
        await sam_pilot.pause()
        assert table.status is TableStatus.FINISHED and table.games_played == 0
        max_.vote_rematch()
        await until(zoe_pilot, lambda: isinstance(zoe_app.screen, TableScreen))
        await until(sam_pilot, lambda: isinstance(sam_app.screen, TableScreen))
        assert table.games_played == 1
    await table.close()


@pytest.mark.parametrize("seat", [None, 0], ids=["spectator", "player"])
async def test_the_final_scores_buttons_do_nothing_once_the_rematch_has_begun(seat):
    """Once the players have agreed on a rematch, the next game shows and the final
    scores' buttons are gone from sight, and so is what they do: Enter, Space, Tab or
    the arrows then neither leave the table nor vote, for a spectator (whose "Quit"
    had the focus) as for a player (who had moved to it)."""
    table = FixedTable()
    left = []
    app = DiamantApp(lang="en", member=table.member(seat), on_leave=left.append)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        whole_game(table)
        await until(pilot, lambda: final_shown(app))
        await settled(pilot)
        if seat is not None:
            await pilot.press("right")
        assert app.focused.id == "quit"
        table.rematch()
        await until(pilot, lambda: not final_shown(app))
        await settled(pilot)
        await pilot.press("enter", "space", "tab", "enter", "right", "enter", "shift+tab", "enter")
        await settled(pilot)
        assert left == [] and table.rematches == 0
        assert isinstance(app.screen, TableScreen) and not final_shown(app)
        assert app.focused is None or app.focused.id not in ("quit", "rematch")
        table.reveal(T(5))  # the new game goes on as usual
        await until(pilot, lambda: "Treasure 5" in screen_text(app))
        if seat is not None:
            await until(pilot, lambda: "Continue [c]" in screen_text(app))
            await pilot.press("c")
            await until(pilot, lambda: table.submitted == [(0, Decision.CONTINUE)])
        assert left == []


async def test_a_chat_line_typed_over_the_allowance_stays_in_the_box_and_never_decides():
    """Over the chat allowance, t opens the box all the same (the wait is told): the
    letters typed next are the line's, never the game's keys (the l of "hello" would
    choose Exit). Sent too early, the line stays in the box, with a note; Enter sends
    it once the table takes it."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05),
                  chat=ChatLimits(person=1, window=1.5))
    ann = table.sit("ann", "ann")
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.view is not None and app.screen.view.decision_due)
        screen = app.screen
        ann.say("first")  # the allowance is used up
        await pilot.press("t", *"hello", "enter")
        await settled(pilot)
        chat = screen.query_one("#chat-input")
        game = ann.table.game
        assert 0 not in game.pending and game.in_cave[0], "the letters chose nothing"
        assert app.focused is chat and "-open" in chat.classes and chat.value == "hello"
        # Told under the round's lines, beneath the cave (not in toasts over them).
        told = " ".join(screen_text(app).split())
        assert "Not sent yet (kept in the box). Wait " in told, told
        assert "before you chat again" in told and not app._notifications
        await pilot.press(*" there")
        await until(pilot, lambda: chat.value == "hello there")
        await asyncio.sleep(1.6)  # the allowance is back
        await pilot.press("enter")
        await until(pilot, lambda: any(line.text == "hello there" for line in screen._chat_seen))
        assert "-open" not in chat.classes and chat.value == ""
        assert 0 not in game.pending and game.in_cave[0]
    await table.close()


async def test_a_click_a_moment_after_the_summary_went_by_itself_chooses_nothing():
    """The person clicks the round summary away just as the game closes it: the click
    lands on the Continue button that was under it, and must not choose, as Enter does
    not. A moment later, a click on it chooses as it always did."""
    async with round_summary_up() as (table, pilot):
        app = pilot.app
        table.publish(table.game.start_next_round())
        table.reveal(T(5))
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.view.round == 2 and app.screen.view.decision_due)
        await pilot.pause()
        await pilot.click("#continue")  # meant for the summary, which has just gone
        await pilot.pause()
        assert table.submitted == []
        assert app.screen.view.my_decision is None
        # (Longer than a double click's time too: the second of a pair chooses nothing.)
        await asyncio.sleep(max(SUMMARY_GRACE, app.CLICK_CHAIN_TIME_THRESHOLD) + 0.05)
        await pilot.click("#continue")
        await until(pilot, lambda: table.submitted != [])
        assert table.submitted == [(0, Decision.CONTINUE)]


@contextlib.asynccontextmanager
async def first_choice_due():
    """Ana's app at 80x24 at a :class:`FixedTable` whose first card is out, her choice
    due, a double click's time gone by (a click now is a first click): the table and the
    app's pilot."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table.reveal(T(9))
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.view.decision_due)
        await asyncio.sleep(app.CLICK_CHAIN_TIME_THRESHOLD)
        yield table, pilot


async def test_enter_makes_the_choice_last_made_by_key_after_a_click_on_the_other():
    """A person clicks Exit, then changes their mind with c: the focus follows to
    Continue, so that an Enter at the next card continues, as the ✔ they read says,
    rather than pressing the Exit button the click had left the focus on."""
    async with first_choice_due() as (table, pilot):
        app = pilot.app
        await pilot.click("#leave")
        await until(pilot, lambda: table.submitted == [(0, Decision.LEAVE)])
        await pilot.press("c")
        await until(pilot, lambda: table.submitted[-1] == (0, Decision.CONTINUE))
        table.decide(Bruno="continue", Chiara="continue", Dmytro="continue")
        table.reveal(T(5))
        await until(pilot, lambda: app.screen.view.step == 2 and app.screen.view.decision_due)
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: len(table.submitted) == 3)
        assert table.submitted[-1] == (0, Decision.CONTINUE)


@pytest.mark.parametrize("how", ["key", "click"])
async def test_a_new_round_begins_with_the_focus_on_continue(how):
    """Someone who left the cave with Exit (the l key, or a click) finds the focus on
    Continue when the next round's first choice is due: an Enter there goes in with
    everyone, as at the game's start, rather than leaving at once on the Exit button
    their last choice had focused."""
    async with first_choice_due() as (table, pilot):
        app = pilot.app
        if how == "key":
            await pilot.press("l")
        else:
            await pilot.click("#leave")
        await until(pilot, lambda: table.submitted == [(0, Decision.LEAVE)])
        table.decide(Bruno="continue", Chiara="continue", Dmytro="continue")
        table.reveal(H("snakes"))
        table.decide(Bruno="continue", Chiara="continue", Dmytro="continue")
        table.reveal(H("snakes"))  # the round ends in disaster for the others
        table.publish(table.game.start_next_round())
        table.reveal(T(5))
        await until(pilot, lambda: app.screen.view.round == 2 and app.screen.view.decision_due)
        await pilot.pause()
        await asyncio.sleep(SUMMARY_GRACE)
        await pilot.press("enter")
        await until(pilot, lambda: len(table.submitted) == 2)
        assert table.submitted[-1] == (0, Decision.CONTINUE)
