"""Local play picks its colours from the terminal: none with NO_COLOR, the terminal's own
16 colours on a 16-colour terminal, the full theme otherwise."""

from __future__ import annotations

import re

import pyte
import pytest
from textual.screen import Screen
from textual.widgets import DataTable

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.colours import MONOCHROME, SIXTEEN
from ui_helpers import FixedTable, after_disaster, mid_round, table_shown, until

SGR = re.compile(r"\x1b\[([0-9;:]*)m")
COLOUR_PARAMS = {*range(30, 38), *range(40, 48), *range(90, 98), *range(100, 108), 38, 48}


@pytest.fixture(autouse=True)
def colour_terminal(monkeypatch):
    """A 256-colour terminal unless a test says otherwise."""
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("COLORTERM", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def written(app) -> str:
    """What the app writes to its terminal for the whole screen, escape codes and all."""
    update = app.screen._compositor.render_update(full=True)
    return update.render_segments(app.console)


def sgr_params(output: str) -> set[int]:
    return {int(p) for params in SGR.findall(output) for p in re.split("[;:]", params) if p}


def terminal(output: str, size=(80, 24)) -> pyte.Screen:
    screen = pyte.Screen(*size)
    pyte.Stream(screen).feed(output)
    return screen


def cells(screen: pyte.Screen, text: str):
    """The cells of every place ``text`` shows on the screen."""
    for y, line in enumerate(screen.display):
        for match in re.finditer(re.escape(text), line):
            yield from (screen.buffer[y][x] for x in range(match.start(), match.end()))


async def test_no_color_writes_no_colour_and_shows_the_focus_in_reverse(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    for scene in (mid_round, after_disaster):
        table = FixedTable()
        app = DiamantApp(lang="en", member=table.member(0))
        async with app.run_test(size=(80, 24)) as pilot:
            scene(table)
            await pilot.pause()
            output = written(app)
        assert app.theme == MONOCHROME.name
        assert not sgr_params(output) & COLOUR_PARAMS, scene.__name__
        screen = terminal(output)
        if scene is mid_round:
            assert all(c.reverse and c.bold for c in cells(screen, "Continue [c]"))
        else:
            assert all(c.reverse for c in cells(screen, "DISASTER"))


async def setup_screen_with_rules_focused() -> str:
    """What the setup screen writes with its rule set's choice focused, at 80x24."""
    app = DiamantApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#rules").focus()
        await pilot.pause()
        return written(app)


async def test_no_color_on_the_setup_screen_still_shows_which_field_has_the_focus(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    output = await setup_screen_with_rules_focused()
    assert not sgr_params(output) & COLOUR_PARAMS
    assert all(c.reverse for c in cells(terminal(output), "Classic (2005)"))


async def test_sixteen_colours_draw_treasure_yellow_and_hazards_red(monkeypatch):
    """TERM=xterm: the terminal's own yellow (SGR 33, pyte's "brown") and red, where the
    full theme rounded to 16 colours drew every card in bright red."""
    monkeypatch.setenv("TERM", "xterm")
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        mid_round(table)
        await pilot.pause()
        output = written(app)
    assert app.theme == SIXTEEN.name
    screen = terminal(output)
    assert {c.fg for c in cells(screen, "╭───────╮")} == {"brown"}
    assert {c.fg for c in cells(screen, "╔═══════╗")} == {"red"}
    params = sgr_params(output)
    assert not params & {38, 48, *range(90, 98), *range(100, 108)}


async def test_many_colours_keep_the_full_theme_and_an_empty_no_color_asks_nothing(
        monkeypatch):
    monkeypatch.setenv("NO_COLOR", "")  # set but empty: no-color.org says it asks nothing
    app = DiamantApp(lang="en", member=mid_round(FixedTable()).member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        output = written(app)
    assert app.theme == "textual-dark" and not app.no_color
    assert 38 in sgr_params(output)


class _ListScreen(Screen):
    """A screen with a list, as the lobby's screens have."""

    def compose(self):
        table = DataTable()
        table.add_columns("Table", "Rules")
        table.add_row("cave", "Classic")
        yield table


def _backgrounds(output: str) -> set[int]:
    return sgr_params(output) & {*range(40, 48), *range(100, 108), 48}


async def test_sixteen_colours_lay_nothing_on_a_colour_the_terminal_may_share(monkeypatch):
    """The log's scroll bar was a black strip (SGR 40) down a light terminal, and a
    list's header the default foreground on bright blue (SGR 104), the same colour on
    some palettes; only the chosen button and the list's cursor have a background."""
    monkeypatch.setenv("TERM", "xterm-16color")
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(160, 50)) as pilot:
        mid_round(table)
        await until(pilot, lambda: table_shown(app))
        await pilot.pause()
        assert app.theme == SIXTEEN.name
        output = written(app)
        assert not _backgrounds(output), _backgrounds(output)
        await app.push_screen(_ListScreen())
        await pilot.pause()
        app.screen.query_one(DataTable).blur()  # no cursor row: the header alone
        await pilot.pause()
        output = written(app)
        assert not _backgrounds(output), _backgrounds(output)


@pytest.mark.parametrize("term", ["xterm", "xterm-256color"])
async def test_colours_on_the_setup_screen_still_show_which_field_has_the_focus(
        monkeypatch, term):
    """A focused choice was drawn as the others are, or nearly (Textual marks it with a
    tint of the background, 5 %: one grey further in 256 colours, nothing on a terminal's
    own background), so Tab moved the focus out of sight and Enter opened a list the
    person had not meant to."""
    monkeypatch.setenv("TERM", term)
    screen = terminal(await setup_screen_with_rules_focused())
    assert all(c.reverse for c in cells(screen, "Classic (2005)"))
    assert not any(c.reverse for c in cells(screen, "Timer"))


@pytest.mark.parametrize("term,no_color", [("xterm-256color", "1"), ("xterm", None)])
async def test_without_colours_of_its_own_an_open_list_underlines_its_highlighted_choice(
        monkeypatch, term, no_color):
    """A form's list, open: the choice Enter would take stands out, underlined, not in
    bold alone (one digit in bold among others was all NO_COLOR showed), nor in the
    palette's white (16 colours), which a light terminal's background all but matches."""
    monkeypatch.setenv("TERM", term)
    if no_color:
        monkeypatch.setenv("NO_COLOR", no_color)
    app = DiamantApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#rules").focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("down")
        await pilot.pause()
        output = written(app)
    screen = terminal(output)
    highlighted = [line for line in screen.display if "Relics (2016)" in line]
    assert highlighted, screen.display
    assert all(c.underscore and c.bold for c in cells(screen, "Relics (2016)"))
    assert not any(c.underscore for c in cells(screen, "Relic variant (2021)"))


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_without_colour_a_notice_says_what_kind_it_is(monkeypatch, lang):
    """Without colour a refusal, an error and a piece of news were the same grey box,
    their kind told only by the colour of its edge: each now says its kind in words (a
    piece of news says none), in the person's language. Its title, if any, follows."""
    from diamant_tui.i18n import Translator
    from textual.widgets._toast import Toast

    monkeypatch.setenv("NO_COLOR", "1")
    t = Translator(lang)
    table = FixedTable()
    app = DiamantApp(lang=lang, member=table.member(0))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        mid_round(table)
        await pilot.pause()
        app.notify("one", severity="warning")
        app.notify("two", severity="error")
        app.notify("three")
        app.notify("four", title="Title", severity="error")
        await until(pilot, lambda: len(app.screen.query(Toast)) == 4)
        await pilot.pause()
        shown = {toast.render().plain.split("\n")[-1]: toast.render().plain.split("\n")[:-1]
                 for toast in app.screen.query(Toast)}
    assert shown == {"one": [t("notice.warning")], "two": [t("notice.error")],
                     "three": [], "four": [t("notice.error") + " · Title"]}
    assert len({t("notice.warning"), t("notice.error")}) == 2


async def test_in_colour_a_notice_s_edge_tells_its_kind(monkeypatch):
    """With colours the kinds keep their coloured edges and no more words."""
    from textual.widgets._toast import Toast

    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        mid_round(table)
        await pilot.pause()
        app.notify("one", severity="warning")
        await until(pilot, lambda: len(app.screen.query(Toast)) == 1)
        assert app.screen.query_one(Toast).render().plain == "one"
