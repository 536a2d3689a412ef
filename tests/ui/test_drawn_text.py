"""The round bar, the deck panel and the round summary draw each line of their text from its runs
(``DrawnFromText``), without a Textual Content made and rendered for the whole widget,
and every cell comes out as Textual draws the same text: the same character in the same
look, a line too long for its width cut with the same ellipsis."""

from __future__ import annotations

import pytest
from rich.style import Style
from rich.text import Text
from textual.visual import Visual, visualize
from textual.widget import Widget

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.deck_info import DeckInfo
from diamant_tui.ui.widgets.drawn_runs import DrawnFromText, drawn_runs, text_runs
from diamant_tui.ui.widgets.round_bar import RoundBar
from diamant_tui.ui.widgets.round_summary import SummaryBox
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from ui_helpers import (FixedTable, H, T, after_disaster, cell_looks, mid_round, settled,
                        summary_shown, until, whole_game)


def drawn_both_ways(widget: Widget, monkeypatch) -> tuple[list, list]:
    """The widget's whole area drawn from its runs, then as Textual draws its text (each
    cell's character and look)."""

    def whole() -> list:
        forget_shared_lines()
        widget._layout_cache.clear()
        widget._set_dirty()  # what Textual keeps of its last drawing is drawn again
        return [cell_looks(strip) for strip in widget.render_lines(widget.size.region)]

    ours = whole()
    with monkeypatch.context() as patch:
        patch.setattr(DrawnFromText, "render_line", Widget.render_line)
        textual = whole()
    return ours, textual


GAMES = {
    "mid_round": lambda: mid_round(FixedTable()),
    "after_disaster": lambda: after_disaster(FixedTable()),
    "game_over": lambda: whole_game(FixedTable()),
}


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
@pytest.mark.parametrize("size", [(80, 24), (56, 24), (130, 40)])
@pytest.mark.parametrize("game", list(GAMES))
async def test_the_round_bar_and_deck_are_drawn_as_textual_draws_their_text(
        lang, size, game, monkeypatch):
    """At 56 columns the bar shortens its entrances; the deck panel wraps its counts."""
    app = DiamantApp(lang=lang, member=GAMES[game]().member(0))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        for kind in (RoundBar, DeckInfo):
            widgets = app.screen.query(kind)
            assert widgets, kind
            for widget in widgets:
                if not widget.size:
                    continue  # hidden under the final scores
                ours, textual = drawn_both_ways(widget, monkeypatch)
                assert ours == textual, (kind, ours, textual)
                assert any(char.strip() for line in ours for char, _ in line), kind


async def test_a_line_cut_at_its_width_ends_as_textual_cuts_it():
    """Text in a style of its own with spans over it, overlapping, some of it wide
    characters, drawn narrower than it is (the round bar's CSS: no wrapping, an
    ellipsis)."""
    app = DiamantApp(lang="en", member=mid_round(FixedTable()).member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        bar = app.screen.query_one(RoundBar)
        text = Text("Збір · Round 2/5 ", style=Style(italic=True))
        text.append("[2] ", style="bold")
        text.append("·3 ▓1✔ 漢字", style=Style(color="red"))
        text.stylize(Style(underline=True), 3, 12)
        text.stylize("reverse", 10, 22)
        for width in (40, 31, 30, 29, 26, 23, 20, 9, 2, 1):
            visual = visualize(bar, text, markup=False)
            textual = Visual.to_strips(bar, visual, width, 1, bar.visual_style)[0]
            ours = drawn_runs(text_runs(text), bar.visual_style, width)
            assert cell_looks(ours) == cell_looks(textual)[:ours.cell_length], width
            assert ours.text.rstrip() == textual.text.rstrip(), width


def test_the_runs_of_a_text_follow_its_spans_in_order():
    text = Text("abcdef", style="italic")
    text.stylize("bold", 1, 4)
    text.stylize(Style(bold=False, underline=True), 3, 5)
    runs = text_runs(text)
    assert [part for part, _ in runs] == ["a", "bc", "d", "e", "f"]
    italic = Style(italic=True)
    assert runs[0][1] == runs[-1][1] == italic
    assert runs[1][1] == italic + Style(bold=True)
    assert runs[2][1] == italic + Style(bold=True) + Style(bold=False, underline=True)
    assert runs[3][1] == italic + Style(bold=False, underline=True)
    assert text_runs(Text("plain")) == [("plain", Style())]


def last_card_a_disaster(table: FixedTable):
    """Round 1, one card from its end: the second snakes catches everyone in the cave
    (``after_disaster``'s round)."""
    for card in (T(9), H("snakes"), T(14), H("spiders")):
        table.reveal(card)
        table.everyone("continue")
    return lambda: table.reveal(H("snakes"))


def last_player_leaves(table: FixedTable):
    """Round 1, one choice from its end: everyone goes back to camp."""
    table.reveal(T(9))
    table.everyone("continue")
    table.reveal(T(5))
    return lambda: table.everyone("leave")


async def show_summary(pilot, ending) -> SummaryBox:
    """The box of the summary that ``ending`` (the round's end) brings up, once shown."""
    app = pilot.app
    await settled(pilot)
    ending()
    await until(pilot, lambda: summary_shown(app))
    return app.screen.query_one(SummaryBox)


def heights_both_ways(box: SummaryBox, width: int) -> tuple[int, int]:
    """The box's content height at ``width`` counted from its words, then by Textual."""
    size = box.app.size
    box._content_height_cache = (None, 0)
    return (box.get_content_height(size, size, width),
            Widget.get_content_height(box, size, size, width))


@pytest.mark.parametrize("lang", ["en", "es", "uk"])
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (130, 40)])
@pytest.mark.parametrize("seat", [0, None])
@pytest.mark.parametrize("end", [last_card_a_disaster, last_player_leaves])
async def test_the_round_summary_is_drawn_as_textual_draws_it(lang, size, seat, end,
                                                              monkeypatch):
    """A player's summary marks their own row; a spectator's none. The title is centred."""
    table = FixedTable()
    ending = end(table)
    app = DiamantApp(lang=lang, member=table.member(seat))
    async with app.run_test(size=size) as pilot:
        box = await show_summary(pilot, ending)
        assert box.drawn_texts() is not None
        ours, textual = drawn_both_ways(box, monkeypatch)
        assert ours == textual, (ours, textual)
        words = ["".join(char for char, _ in line) for line in ours]
        assert any("▶" in line for line in words) == (seat is not None)
        # Its lines counted without drawing them: as many as Textual counts.
        for width in (box.size.width, box.words[1], box.words[1] - 1):
            counted, textual = heights_both_ways(box, width)
            assert counted == textual, width
        assert textual > box.words[0]  # narrower than its widest line: folded


async def test_a_summary_line_too_wide_for_the_terminal_wraps_as_before(monkeypatch):
    """A name too long for an 80-column terminal: the box is as wide as the terminal and
    Textual wraps the line; nothing is cut."""
    long = "Maximiliana-Konstantinopolitanische-Wilhelmina-Friederike von Hohenzollern"
    table = FixedTable(names=(long, "Bruno", "Chiara", "Dmytro"))
    ending = last_player_leaves(table)
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        box = await show_summary(pilot, ending)
        assert box.drawn_texts() is None
        ours, textual = drawn_both_ways(box, monkeypatch)
        assert ours == textual
        words = "".join(char for line in ours for char, _ in line)
        assert "…" not in words and "Hohenzollern" in words


async def test_a_summary_on_show_through_a_resize_is_drawn_as_textual_draws_it(monkeypatch):
    """The terminal grows and shrinks while the summary is up: each drawing at the box's
    new size, its lines counted as Textual counts them."""
    table = FixedTable()
    ending = last_player_leaves(table)
    app = DiamantApp(lang="fr", member=table.member(1))
    async with app.run_test(size=(80, 24)) as pilot:
        box = await show_summary(pilot, ending)
        for size in ((120, 30), (80, 24)):
            await pilot.resize_terminal(*size)
            await settled(pilot)
            ours, textual = drawn_both_ways(box, monkeypatch)
            assert ours == textual, size
            counted, textual = heights_both_ways(box, box.size.width)
            assert counted == textual, size
