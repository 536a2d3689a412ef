"""Playing with the keyboard against a real table whose other seats are computer players."""

from __future__ import annotations

import asyncio

import pyte
import pytest
from textual.widgets import Button

from diamant_tui.engine.cards import Rules
from diamant_tui.engine.events import DecisionsRevealed
from diamant_tui.table import Table, TableSettings, TableStatus, updates
from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.screens.setup import SetupScreen
from diamant_tui.ui.screens.confirm import ConfirmScreen
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from diamant_tui.ui.widgets.final_scores import FinalScores
from diamant_tui.engine.view import Decision, Phase
from ui_helpers import FrameCounter, final_shown, screen_text, summary_shown, until


def due(app) -> bool:
    """The person's decision is due and not yet made."""
    screen = app.screen
    return (
        isinstance(screen, TableScreen)
        and screen.view is not None
        and screen.view.decision_due
        and screen.view.my_decision is None
    )


async def play_with_keys(app, pilot, leave_at_carried: int = 10) -> FinalScores:
    """Answer every decision with `c` or `l`, close round summaries with Enter."""
    for _ in range(2000):
        await until(pilot, lambda: due(app) or final_shown(app) or summary_shown(app))
        if final_shown(app):
            return app.screen.query_one(FinalScores)
        if summary_shown(app):
            await pilot.press("enter")
            continue
        carried = app.screen.view.me.carried
        await pilot.press("l" if carried >= leave_at_carried else "c")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules", list(Rules))
async def test_a_person_plays_five_rounds_with_the_keyboard_alone(rules):
    """Enter on the setup screen starts a game; `c`/`l` play it to the final scores."""
    choices = SetupChoices(name="Zoe", rules=rules, players=4, level="easy", seed=11, pace=0)
    app = DiamantApp(lang="en", choices=choices)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")
        final = await play_with_keys(app, pilot)
        game = app.table.game
        assert game.over and game.rules is rules
        assert final.view.phase is Phase.OVER
        # The person's own keys were the seat's decisions, in every round.
        assert all(any(0 in turn for turn in r.decisions) for r in game.history)
        text = screen_text(app)
        assert "Final scores" in text
        for name, score in zip(game.names, game.scores()):
            assert name in text and str(score) in text


async def test_the_choice_can_change_until_everyone_has_chosen():
    """"You may change your choice until the last choice is in": `c`, then `l`, counts as Exit."""
    table = Table(TableSettings(seats=3, bots=("cards:40",), pace=0, seed=5))
    me = table.sit("me", "me")
    other = table.sit("other", "other")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: due(app))
        await pilot.press("c")
        await until(pilot, lambda: app.screen.view.my_decision is Decision.CONTINUE)
        assert "▶ Continue ✔" in screen_text(app)
        await pilot.press("l")
        await until(pilot, lambda: app.screen.view.my_decision is Decision.LEAVE)
        text = screen_text(app)
        assert "▶ Exit ✔" in text and "▶ Continue ✔" not in text
        other.decide(Decision.CONTINUE)
        await until(pilot, lambda: not app.screen.view.me.in_cave)
        revealed = [e for e in table.game.events if isinstance(e, DecisionsRevealed)]
        assert revealed[0].leaving == (me.seat,) and other.seat in revealed[0].continuing
    await table.close()


async def test_a_key_after_the_choice_that_ended_the_turn_is_simply_too_late(monkeypatch):
    """Whoever ends a turn sees their choice with its card when the card is due (within
    CARD_GRACE): a key pressed again meanwhile, on a view still asking, is too late and
    says nothing, where the table's refusal showed a toast. Here the card is slow to come
    (its turn is slow to save) and the grace is long, so the keys land in that moment."""
    monkeypatch.setattr(updates, "CARD_GRACE", 30.0)
    gate = asyncio.Event()
    gate.set()

    async def save(snapshot: dict) -> None:
        await gate.wait()

    table = Table(TableSettings(seats=3, bots=(), pace=0, seed=5), save=save)
    me, *others = (table.sit(name, name) for name in ("me", "ann", "bob"))
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: due(app))
        for other in others:
            other.decide(Decision.CONTINUE)
        gate.clear()
        await pilot.press("c")  # ends the turn
        assert table.game.phase is Phase.REVEAL and due(app)  # the card is not here yet
        await pilot.press("c", "l")
        await pilot.pause()
        assert list(app._notifications) == []
        gate.set()
        await until(pilot, lambda: app.screen.view.step == 2)
        revealed = [e for e in table.game.events if isinstance(e, DecisionsRevealed)]
        assert revealed[0].continuing == (0, 1, 2)
    await table.close()


async def test_arrows_and_enter_choose_too():
    """The decision also works with the arrow keys and Enter."""
    table = Table(TableSettings(seats=3, bots=("cards:40",), pace=0, seed=5))
    me = table.sit("me", "me")
    other = table.sit("other", "other")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: due(app))
        await pilot.press("right", "enter")
        await until(pilot, lambda: app.screen.view.my_decision is Decision.LEAVE)
        await pilot.press("left", "enter")
        await until(pilot, lambda: app.screen.view.my_decision is Decision.CONTINUE)
        other.decide(Decision.CONTINUE)
    await table.close()


async def test_when_the_timer_runs_out_the_seat_is_away_until_a_key_is_pressed():
    """A computer player decides for a person who lets the timer run out; shown "away"."""
    table = Table(TableSettings(seats=3, bots=("cards:40", "cards:40"), pace=0.5, seed=5, timer=0.2))
    me = table.sit("me", "me")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table.seats[me.seat].away)
        await pilot.pause()
        lines = [line for line in screen_text(app).splitlines() if "▶ me" in line]
        assert lines and "☾ away" in lines[0]
        for _ in range(200):  # a key during an expired turn is undone by that turn's timer
            await pilot.press("x")
            await pilot.pause(0.05)
            if not table.seats[me.seat].away:
                break
        assert not table.seats[me.seat].away
        lines = [line for line in screen_text(app).splitlines() if "▶ me" in line]
        assert lines and "away" not in lines[0]
    await table.close()


@pytest.mark.parametrize("lang", ["en", "es", "uk"])
async def test_after_a_restart_a_person_not_back_yet_is_shown_away_not_choosing(lang):
    """A game rebuilt after a restart waits for its people: ann is back, bob is not.
    ann's list shows bob away, as anyone whose connection dropped is shown, not as a
    player still choosing (the game was not waiting on his choice, but on him)."""
    saved: list[dict] = []

    async def save(snapshot: dict) -> None:
        saved.append(snapshot)

    table = Table(TableSettings(name="t", seats=3, bots=("cards:40",), pace=0, seed=5),
                  save=save)
    table.sit("ann", "key:ann")
    table.sit("bob", "key:bob")
    while table.game is None or table.game.phase is not Phase.DECISION:
        await asyncio.sleep(0.005)  # the first card, turned at once (pace 0)
    await table.saved()
    await table.close()

    again = Table.restore(saved[-1], wait=60)
    ann = again.sit("ann", "key:ann")
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "bob" in screen_text(app))
        await pilot.pause()
        rows = [line for line in screen_text(app).splitlines() if " bob " in line]
        assert rows and f"☾ {app.t('players.away')}" in rows[0], rows
        assert "…" not in rows[0]
    await again.close()


async def _screen_with_bots_decided(bot: str) -> str:
    table = Table(TableSettings(seats=3, bots=(bot, bot), pace=0, seed=9))
    me = table.sit("me", "me")
    app = DiamantApp(lang="en", member=me)
    texts = []
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: due(app) and all(p.decided for p in app.screen.view.players[1:]))
        texts.append(screen_text(app))
        await pilot.press("g", "p")  # the log and the disaster chance
        await pilot.pause()
        texts.append(screen_text(app))
        await pilot.press("f1")
        await pilot.pause()
        texts.append(screen_text(app))
    await table.close()
    return "\n".join(texts)


async def test_nobody_sees_another_players_choice_before_the_reveal():
    """"Nobody sees another's choice before revealing": the screens are the same
    whether the others chose to exit or to continue."""
    leaving = await _screen_with_bots_decided("cards:1")
    continuing = await _screen_with_bots_decided("cards:40")
    assert "✓" in leaving
    assert leaving == continuing


async def test_a_small_terminal_is_asked_to_grow_and_keys_wait_behind_the_overlay():
    """Below 80x24 an overlay asks for more room and says the game goes on; behind it no
    key decides (nobody can see the cave); once the terminal is large again they do."""
    table = Table(TableSettings(seats=3, bots=("cards:40", "cards:40"), pace=0, seed=3))
    me = table.sit("me", "me")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: due(app))
        assert "enlarge" not in screen_text(app)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        text = screen_text(app)
        assert "enlarge your terminal" in text and "The game goes on meanwhile." in text
        # c, l, Enter on the focused Continue button, q (leave?), t (chat): all ignored.
        await pilot.press("c", "l", "enter", "q", "t", "x")
        await pilot.pause()
        view = table.game.view_for(me.seat)
        assert view.step == 1 and view.decision_due and view.my_decision is None
        assert isinstance(app.screen, TableScreen)
        assert not app.screen.query_one("#chat-input").has_class("-open")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "enlarge" not in screen_text(app)
        await pilot.press("c")
        await until(pilot, lambda: app.screen.view.step >= 2)
        assert "card 2" in screen_text(app)
    await table.close()


async def test_rematch_starts_a_new_game_at_the_same_table():
    """From the final scores, `r` starts another game with the same seats."""
    choices = SetupChoices(name="Zoe", players=3, level="beginner", seed=2, pace=0)
    app = DiamantApp(lang="en", choices=choices)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await play_with_keys(app, pilot, leave_at_carried=1)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.table.status is TableStatus.PLAYING)
        assert app.table.games_played == 1
        await until(pilot, lambda: not final_shown(app))
        assert "Final scores" not in screen_text(app)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running)


async def test_the_final_scores_stand_in_the_table_screen_and_come_back_after_a_rematch():
    """The game's end switches no screen (a screen per seat per game cost a whole
    layout and was garbage at the next game): the final scores take the cave's place in
    the table screen, and the same ones come back, with the new game's scores, after a
    rematch; the arrows move between their buttons."""
    choices = SetupChoices(name="Zoe", players=3, level="beginner", seed=2, pace=0)
    app = DiamantApp(lang="en", choices=choices)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        table_screen, stack = app.screen, len(app.screen_stack)
        final = await play_with_keys(app, pilot, leave_at_carried=1)
        assert app.screen is table_screen and len(app.screen_stack) == stack
        assert final.has_focus_within and app.focused.id == "rematch"
        await pilot.press("right")
        assert app.focused.id == "quit"
        await pilot.press("left")
        assert app.focused.id == "rematch"
        first_game = final.view
        await pilot.press("r")
        await until(pilot, lambda: app.table.status is TableStatus.PLAYING and not final_shown(app))
        assert "Final scores" not in screen_text(app)
        again = await play_with_keys(app, pilot, leave_at_carried=3)
        assert again is final and app.screen is table_screen
        assert again.view is not first_game
        text = screen_text(app)
        for name, score in zip(app.table.game.names, app.table.game.scores()):
            assert name in text and str(score) in text


async def test_a_terminal_is_sent_the_final_scores_at_every_games_end_and_the_cave_after():
    """What reaches the terminal (not only what the screen holds): the final scores at
    the end of the first game and of the game after a rematch, and the cave again once
    each rematch begins. Tab moves between the final scores' buttons only, never to the
    game's buttons under them."""
    choices = SetupChoices(name="Zoe", players=3, level="beginner", seed=2, pace=0)
    app = DiamantApp(lang="en", choices=choices)
    terminal = pyte.Screen(80, 24)
    stream = pyte.Stream(terminal)

    def shows(text: str) -> bool:
        for written in counter.sent:
            stream.feed(written)
        counter.reset()
        return text in "\n".join(terminal.display)

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        counter = FrameCounter(app)
        app.refresh(repaint=True, layout=True)  # the whole screen, from here on
        for game, leave_at in enumerate((1, 3, 2)):
            final = await play_with_keys(app, pilot, leave_at_carried=leave_at)
            await pilot.pause()
            assert shows("Final scores"), f"game {game + 1}"
            assert shows(str(max(app.table.game.scores())))
            buttons = []
            for _ in range(3):
                await pilot.press("tab")
                buttons.append(app.focused)
            assert {button.id for button in buttons} == {"rematch", "quit"}
            assert all(button in final.query(Button) for button in buttons)
            if game == 2:
                break
            await pilot.press("r")
            await until(pilot, lambda: app.table.status is TableStatus.PLAYING
                        and not final_shown(app))
            await pilot.pause()
            assert not shows("Final scores") and shows("Round 1/5")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)
