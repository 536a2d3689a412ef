"""The forms' drop-downs at 80x24: the "Open a table" form's, opened, leave their own
field's label in sight in every language and are drawn in a box; the setup screen's key
bar says how to close one in the person's language."""

from __future__ import annotations

import pytest
from textual.widgets import Label, Select
from textual.widgets._select import SelectOverlay

from diamant_server.create_screen import CreateTableScreen, ResumeScreen
from diamant_tui.ui.screens.rules import RulesScreen
from diamant_tui.ui import DiamantApp, SetupChoices

from ui_helpers import screen_text, settled

FIELDS = (("rules", "setup.rules"), ("seats", "create.seats"), ("bots", "setup.opponents"),
          ("level", "create.strength"), ("timer", "setup.timer"), ("hidden", "setup.hidden"))
"""Each drop-down of the form and the catalogue key of its label."""


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_an_open_drop_down_leaves_its_label_in_sight(lang):
    """Opened with Enter, a drop-down's list lies beside its label, never over it: the
    label reads whole on the drop-down's own row, left of the list."""
    app = DiamantApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(CreateTableScreen(pace=0.1, free_name="cave-1"))
        await settled(pilot)
        screen = app.screen
        for name, key in FIELDS:
            select = screen.query_one(f"#{name}", Select)
            label = app.t(key)
            assert any(str(shown.content) == label for shown in screen.query(Label)), label
            select.focus()
            await pilot.press("enter")
            await settled(pilot)
            assert select.expanded, name
            row = screen_text(app).splitlines()[select.region.y]
            assert label in row[:select.region.x], (name, row)
            await pilot.press("escape")
            await settled(pilot)
            assert not select.expanded, name


def _offered(select: Select) -> list[object]:
    """The values a drop-down offers."""
    return [value for _, value in select._options]


async def test_the_computer_players_offered_always_leave_a_seat_for_a_person():
    """The computers offered follow the seats chosen: at 3 seats 0 to 2, and a number
    chosen that no longer fits falls to the most that do; more seats offer more again,
    and the table opens with what the form shows."""
    app = DiamantApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        answers = []
        app.push_screen(CreateTableScreen(pace=0.1, free_name="cave-1"), answers.append)
        await settled(pilot)
        screen = app.screen
        seats, bots = screen.query_one("#seats", Select), screen.query_one("#bots", Select)
        assert _offered(bots) == list(range(seats.value))
        seats.value = 8
        await settled(pilot)
        assert _offered(bots) == list(range(8))
        bots.value = 6
        seats.value = 3
        await settled(pilot)
        assert _offered(bots) == [0, 1, 2]
        assert bots.value == 2
        seats.value = 5
        await settled(pilot)
        assert _offered(bots) == [0, 1, 2, 3, 4] and bots.value == 2
        screen.query_one("#create").press()
        await settled(pilot)
        assert len(answers) == 1
        settings = answers[0].settings
        assert settings.seats == 5 and len(settings.bots) == 2 and not answers[0].private


@pytest.mark.parametrize("lang", ["en", "uk"])
async def test_an_open_drop_down_is_drawn_in_a_box_of_its_own(lang):
    """A compact drop-down's list had no frame: its options lay over the fields below it
    and read as their values ("Computer players 3" under "Seats 4"). Opened, its list is
    drawn in a box, whose corners stand at the list's own corners."""
    app = DiamantApp(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(CreateTableScreen(pace=0.1, free_name="cave-1"))
        await settled(pilot)
        for name in ("seats", "timer"):
            select = app.screen.query_one(f"#{name}", Select)
            select.focus()
            await pilot.press("enter")
            await settled(pilot)
            region = select.query_one(SelectOverlay).region
            rows = screen_text(app).splitlines()
            assert rows[region.y][region.x] == "╭", (name, rows[region.y])
            assert rows[region.bottom - 1][region.right - 1] == "╯", (name, rows[region.bottom - 1])
            await pilot.press("escape")
            await settled(pilot)


@pytest.mark.parametrize("lang", ["fr", "es", "uk"])
async def test_the_key_bar_says_how_to_close_an_open_drop_down_in_the_persons_language(lang):
    """The setup screen's key bar showed Textual's own "esc Dismiss menu", in English,
    while a drop-down was open."""
    app = DiamantApp(lang=lang, choices=SetupChoices(name="Ana"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        app.screen.query_one("#rules", Select).focus()
        await pilot.press("enter")
        await settled(pilot)
        bar = screen_text(app).splitlines()[-1]
        assert f"esc {app.t('key.close_list')}" in bar, bar
        assert "Dismiss" not in bar, bar


@pytest.mark.parametrize("dialog", [lambda: CreateTableScreen(pace=0.1, free_name="cave-1"),
                                    lambda: ResumeScreen()])
async def test_f1_shows_the_rules_over_the_lobby_s_dialogs_too(dialog):
    """F1 shows the rules on every screen, as the key bar says: over the "Open a table"
    form (whose rule sets and hidden chests the rules explain) and the resume code's
    dialog too, where it did nothing. Escape closes them, back to the dialog as it was."""
    app = DiamantApp(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(dialog())
        await settled(pilot)
        shown = app.screen
        assert f"f1 {app.t('key.rules')}" in screen_text(app).splitlines()[-1]
        await pilot.press("f1")
        await settled(pilot)
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await settled(pilot)
        assert app.screen is shown
