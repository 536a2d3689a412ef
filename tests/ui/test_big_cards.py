"""In a tall cave the cards are drawn big, five rows each with the kind of card named;
at 80x24, and in a round too long for big cards, they stay three rows."""

import re

import pytest

from diamant_tui.i18n import CATALOGUES, Translator
from diamant_tui.engine.cards import HazardType
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import BIG_INNER, BIG_ROWS, FEED_ROOM, CavePath
from ui_helpers import (H, FixedTable, FrameCounter, T, mid_round, screen_layouts, screen_text,
                        settled, until)

LEFT = [T(1), T(3), T(4), H("boulders"), T(5), T(7), T(9), H("spiders"), T(14), T(15), T(17),
        H("snakes"), T(11)]
"""Cards still in the deck after :func:`mid_round`, none of them a disaster."""


def _path_rows(app) -> list[str]:
    """The screen's rows that hold the cave's cards (any card's border or sides)."""
    return [row for row in screen_text(app).splitlines() if re.search(r"[│║┃▌]", row)
            and re.search(r"[╭╔┏█]|[│║┃▌] *\S", row)]


def _card_rows(app) -> int:
    """How many screen rows the first card of the path takes, its borders included."""
    lines = screen_text(app).splitlines()
    top = next(i for i, row in enumerate(lines) if row.startswith(" ╭") or row.startswith(" ╔"))
    bottom = next(i for i, row in enumerate(lines[top:], top)
                  if row.startswith(" ╰") or row.startswith(" ╚"))
    return bottom - top + 1


async def _revealed(pilot, table: FixedTable, path: CavePath, card) -> None:
    """Turn ``card`` at the table, and wait until it lies on the path."""
    table.reveal(card)
    await until(pilot, lambda: path.path[-1].card == card)


@pytest.mark.parametrize("size", [(120, 40), (100, 30), (160, 50)])
async def test_a_tall_cave_draws_big_cards_naming_their_kind(size):
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=size) as pilot:
        mid_round(table)
        await settled(pilot)
        assert _card_rows(app) == BIG_ROWS
        text = screen_text(app)
        assert "Treasure│" in text.replace(" ", "") and "Trap║" in text.replace(" ", "")
        assert "Lava" in text and "13" in text


async def test_80x24_keeps_small_cards_and_the_feed():
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        mid_round(table)
        await settled(pilot)
        assert _card_rows(app) == 3
        assert "Treasure│" not in screen_text(app).replace(" ", "")
        assert "Continue: Ana" in screen_text(app)  # the feed under the cards


async def test_big_cards_leave_the_feed_its_rows():
    """Narrower than the log's column, the round's lines stand under the big cards."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(100, 30)) as pilot:
        mid_round(table)
        await settled(pilot)
        path = app.screen.query_one(CavePath)
        assert not app.screen.has_class("-wide")
        assert _card_rows(app) == BIG_ROWS
        under = path.size.height - BIG_ROWS * 2  # seven cards at eight a row: one row
        assert under >= FEED_ROOM
        assert "Continue: Ana" in screen_text(app)


async def test_a_round_too_long_for_big_cards_goes_on_in_small_ones_without_a_layout(monkeypatch):
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(100, 30)) as pilot:
        mid_round(table)
        await settled(pilot)
        path = app.screen.query_one(CavePath)
        per_row = path.per_row(path.size.width, big=True)
        cards = iter(LEFT)
        table.decide(Ana="continue")
        # Cards until big ones would leave the feed less than its rows.
        # (The area's height as it is: the deck's panel takes a line more meanwhile.)
        while -(-(len(path.path) + 1) // per_row) * BIG_ROWS + FEED_ROOM <= path.size.height:
            await _revealed(pilot, table, path, next(cards))
            table.everyone("continue")
            await settled(pilot)
            assert _card_rows(app) == BIG_ROWS
        layouts = screen_layouts(monkeypatch)
        await _revealed(pilot, table, path, next(cards))
        await settled(pilot)
        assert _card_rows(app) == 3
        assert not layouts  # the area kept its size: drawn again, not laid out


async def test_the_card_on_a_big_rows_second_row_sends_none_of_the_first():
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(120, 40)) as pilot:
        mid_round(table)
        await settled(pilot)
        path = app.screen.query_one(CavePath)
        per_row = path.per_row(path.size.width, big=True)
        table.decide(Ana="continue")
        cards = iter(LEFT)
        while len(path.path) < per_row + 1:  # the first card of the second row
            await _revealed(pilot, table, path, next(cards))
            table.everyone("continue")
            await settled(pilot)
        frames = FrameCounter(app)
        await _revealed(pilot, table, path, T(17))  # the second card of the second row
        await settled(pilot)
        sent = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(frames.sent))
        assert frames.frames and "17" in sent
        lava = "║   Lava  ║"  # the first row's third card
        assert lava not in sent and lava in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
def test_every_big_cards_words_fit_inside_it(lang):
    t = Translator(lang)
    for key in ("card.kind_treasure", "card.kind_hazard", "card.kind_relic"):
        assert key in CATALOGUES[lang] and 0 < len(t(key)) <= BIG_INNER
    for hazard in HazardType:
        name = t(f"hazard.{hazard.value}").capitalize()
        assert len(name) <= BIG_INNER or len(t(f"hazard_short.{hazard.value}")) <= BIG_INNER
