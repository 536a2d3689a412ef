"""The setup, rules, chat and spectator parts of the interface, and `diamant play`."""

from __future__ import annotations

from diamant_tui.cli import main
from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.screens.rules import RulesScreen
from diamant_tui.ui.screens.setup import SetupScreen
from diamant_tui.ui.screens.table import TableScreen
from ui_helpers import FixedTable, mid_round, screen_text, until


async def test_choosing_a_language_on_the_setup_screen_redraws_it():
    app = DiamantApp(lang="en", choices=SetupChoices(name="Ana"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Rule set" in screen_text(app)
        app.screen.query_one("#lang").value = "uk"
        # (The key bar may read in Ukrainian a frame before the form does.)
        await until(pilot, lambda: "Правила" in screen_text(app)
                    and "Rule set" not in screen_text(app))
        assert app.t("decision.continue") == "Углиб"
        assert isinstance(app.screen, SetupScreen)


async def test_the_setup_choices_make_the_table():
    """Players, rule set, timer and hidden chests go to the table; the person has seat 0."""
    choices = SetupChoices(name="Ana", players=6, level="easy", timer=30.0,
                           hidden_chests=True, pace=0, seed=1)
    app = DiamantApp(lang="en", choices=choices)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        settings = app.table.settings
        assert settings.seats == 6 and settings.timer == 30.0 and settings.hidden_chests
        assert settings.bots == ("carry:20",) * 5
        assert app.table.seats[0].name == "Ana"
        await app.table.close()


async def test_f1_and_question_mark_show_the_rules_in_the_apps_language():
    app = DiamantApp(lang="fr", choices=SetupChoices(name="Ana"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert "Diamant — les règles" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
    table = mid_round(FixedTable())
    app = DiamantApp(lang="es", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Diamant — las reglas" in screen_text(app)


async def test_a_chat_line_reaches_the_table_and_the_log():
    table = Table(TableSettings(seats=3, bots=("cards:40", "cards:40"), pace=0, seed=3))
    me = table.sit("Zoe", "zoe")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t", *"hello", "enter")
        await until(pilot, lambda: any(line.text == "hello" for line in table._chat))
        await pilot.pause()
        assert "» Zoe: hello" in screen_text(app)
    await table.close()


async def test_a_spectator_sees_the_table_but_has_no_choice_to_make():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        text = screen_text(app)
        assert "Ana" in text and "▶" not in text.split("Player")[1]
        assert "Continue [c]" not in text and "Exit [l]" not in text
        assert table.submitted == []


async def test_mouse_clicks_choose():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#leave")
        await pilot.pause()
        assert table.submitted and table.submitted[-1][1].value == "leave"


async def test_hidden_chests_are_not_shown_to_others():
    table = mid_round(FixedTable(hidden=True))
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = screen_text(app).splitlines()
        bruno = next(line for line in lines if "Bruno" in line)
        ana = next(line for line in lines if "▶ Ana" in line)
        assert "?" in bruno and "♦12" not in bruno
        assert "♦3" in ana


def test_play_rejects_bad_options_with_one_line(capsys):
    assert main(["play", "--lang", "de"]) == 2
    assert "unknown language 'de'" in capsys.readouterr().err
    assert main(["play", "--players", "9"]) == 2
    assert "3 to 8 players" in capsys.readouterr().err
    assert main(["play", "--bots", "nobody"]) == 2
    assert "unknown computer player" in capsys.readouterr().err


async def test_the_disaster_chance_is_off_until_asked_for():
    """`p` shows the chance that the next card is a disaster (view.disaster_chance)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Disaster chance" not in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        percent = round(100 * table.game.view_for(0).disaster_chance)
        assert f"Disaster chance: {percent}%" in screen_text(app)


async def test_a_session_that_ends_as_a_round_ends_closes_cleanly():
    """The app may stop (the connection drops, the server stops) while the round
    summary it has just been sent is still being built: it closes without an error."""
    from ui_helpers import after_disaster

    for _ in range(3):
        table = FixedTable()
        app = DiamantApp(lang="en", member=table.member(0))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            after_disaster(table)  # the summary is pushed as this update is handled...
            app.exit()  # ...and the app is told to stop before that has happened
        assert app._exception is None and app.return_code == 0


async def test_apps_in_one_process_share_one_parse_of_their_css():
    """A server runs an app per session: the second app reuses the rule sets the first
    parsed (the same objects) instead of parsing its CSS again."""
    rules = []
    for _ in range(2):
        app = DiamantApp(lang="en", member=mid_round(FixedTable()).member(0))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            rules.append(list(app.stylesheet.rules))
    first, second = ({id(rule) for rule in kept} for kept in rules)
    assert len(first) > 50 and first == second
