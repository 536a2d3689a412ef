"""Chat at the table: read in the feed under the path, where it hides nothing of the
game; what was said before someone came (or came back) waits in the log and a short
recap, not in a toast over the game; and a spectator's own old line is not told again."""

from __future__ import annotations

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.widgets.decision import DecisionPanel
from ui_helpers import screen_text, until

RULE = "─" * 80


def below_the_path(text: str) -> list[str]:
    """The screen's lines from the rule above the player list down to the key bar."""
    lines = text.splitlines()
    return lines[next(n for n, line in enumerate(lines) if line.startswith(RULE)):]


def playing(app) -> bool:
    screen = app.screen
    return isinstance(screen, TableScreen) and screen.view is not None


async def test_a_chat_line_shows_under_the_path_and_covers_nothing_of_the_table():
    """Five at the table, 80x24: bob's line is read under the cards, and the player list
    (who has decided), the deck, the banner and the choices stay exactly as they were;
    no toast comes and goes."""
    table = Table(TableSettings(name="den", seats=5, bots=("cards:3",) * 3, pace=0.05))
    ann, bob = table.sit("ann", "ann"), table.sit("bob", "bob")
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app) and screen_text(app).count("✓ decided") == 3)
        await pilot.pause(0.1)
        before = below_the_path(screen_text(app))
        bob.say("hello [b]there[/b], who is still in?")
        await until(pilot, lambda: "» bob: hello [b]there[/b], who is still in?"
                    in screen_text(app))
        await pilot.pause(0.1)
        assert below_the_path(screen_text(app)) == before, screen_text(app)
        assert not app._notifications
    await table.close()


async def test_coming_back_finds_the_chat_in_the_log_and_a_short_recap_not_a_toast():
    """ann comes back to her table after five lines were said: nothing pops up over the
    game; the feed recalls the last three, the log holds all five."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",), pace=0.05))
    ann, bob = table.sit("ann", "ann"), table.sit("bob", "bob")
    for n in range(5):
        bob.say(f"line {n}")
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app) and "line 4" in screen_text(app))
        await pilot.pause(0.2)
        text = screen_text(app)
        assert [f"line {n}" in text for n in range(5)] == [False, False, True, True, True], text
        assert not app._notifications
        await pilot.press("g")
        await until(pilot, lambda: "» bob: line 0" in screen_text(app))
    await table.close()


async def test_a_spectators_own_line_of_before_is_not_told_again_when_they_come_back():
    """wes said a line while watching, went away and watches again: their note line says
    that they are watching, not "You said" their old line."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05))
    table.sit("ann", "ann")
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        wes.say("hola")
        await until(pilot, lambda: "You said: hola" in screen_text(app))
    wes.leave()
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        await pilot.pause(0.2)
        panel = app.screen.query_one(DecisionPanel)
        assert panel.note == app.t("watching.note"), panel.note
        assert "You said" not in screen_text(app)
    await table.close()


async def test_the_chat_key_over_the_round_summary_closes_it_and_shows_the_box():
    """``t`` while the round's summary is up: the summary closes, as Enter would, and the
    box opens where its line shows, focused (a line was typed blind under the summary)."""
    from diamant_tui.ui.widgets.steady_input import SteadyInput
    from ui_helpers import FixedTable, after_disaster, summary_shown

    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        after_disaster(table)
        await until(pilot, lambda: summary_shown(app))
        await pilot.press("t", "h", "i")
        await until(pilot, lambda: not summary_shown(app))
        box = app.screen.query_one("#chat-input", SteadyInput)
        assert app.focused is box and box.value == "hi"
        await until(pilot, lambda: "hi" in screen_text(app).splitlines()[-2])
