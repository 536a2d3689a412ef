"""The round's earlier lines stand under the path's cards, in the path's own widget,
except on a wide screen, where the log's column tells them already."""

import re
from contextlib import AsyncExitStack

import pytest
from textual.visual import Visual, visualize

from diamant_tui.engine.view import Decision
from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import CavePath
from diamant_tui.ui.widgets.event_banner import SHOWN, EventBanner
from ui_helpers import (FixedTable, FrameCounter, T, after_disaster, cell_looks, drawn_lines,
                        mid_round, screen_text, settled, until)


def _drawn(path: CavePath) -> str:
    return "\n".join(strip.text for strip in drawn_lines(path))


async def test_the_feed_follows_the_screen_between_narrow_and_wide():
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        mid_round(table)  # seen card by card: the round's lines came one by one
        await settled(pilot)
        path = app.screen.query_one(CavePath)
        assert "Continue: Ana" in _drawn(path)  # under the cards
        await pilot.resize_terminal(130, 40)
        await settled(pilot)
        assert app.screen.has_class("-wide")
        assert "╭" in _drawn(path) and "Continue: Ana" not in _drawn(path)
        await pilot.resize_terminal(80, 24)
        await settled(pilot)
        assert "Continue: Ana" in _drawn(path)


async def test_a_card_on_the_paths_second_row_sends_none_of_the_first():
    """A card that lands on the path's second row redraws from that row down (the feed
    under it included), not the row of cards above: the whole area for every card was
    more on the wire than the path and the feed cost as two widgets."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        mid_round(table)
        await settled(pilot)
        path = app.screen.query_one(CavePath)
        first_row = "║  Lava ║"  # the third card of the first row
        table.decide(Ana="continue")
        for value in (1, 3):  # the path's seventh card, then the first of the second row
            table.reveal(T(value))
            await until(pilot, lambda value=value: path.path[-1].card == T(value))
            table.everyone("continue")
            await settled(pilot)
        assert len(path.path) == 8 and path.per_row(path.size.width) == 7
        frames = FrameCounter(app)
        table.reveal(T(4))  # the second card of the second row
        await until(pilot, lambda: path.path[-1].card == T(4))
        await settled(pilot)
        sent = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(frames.sent))  # the text
        assert frames.frames and "│   4   │" in sent  # the new card was drawn
        assert first_row not in sent and first_row in screen_text(app)


async def _banner_and_feed(sizes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The banner's lines and the feed once a player has gone back to camp with rubies
    (two lines at once), seen at the first of ``sizes``, then resized to the others."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=sizes[0]) as pilot:
        table.reveal(T(11))
        table.decide(Ana="continue", Bruno="leave", Chiara="continue", Dmytro="continue")
        await settled(pilot)
        for size in sizes[1:]:
            await pilot.resize_terminal(*size)
            await settled(pilot)
        banner = app.screen.query_one(EventBanner)
        return banner._shown, app.screen.query_one(CavePath).feed


async def test_the_feed_and_the_banner_follow_a_resize_between_them():
    """Lines too long for a narrow banner leave it for the feed; once the screen is wide
    enough again, the banner holds them again and the feed lets them go, as if the
    screen had been wide all along (a line was shown twice: in the banner and under
    the path)."""
    wide = await _banner_and_feed([(80, 24)])
    narrow = await _banner_and_feed([(80, 24), (44, 24)])
    assert len(wide[0]) == 2 and len(wide[1]) == 2  # both new lines in the banner
    assert len(narrow[1]) == 3  # the one too long for the narrow banner: in the feed
    assert await _banner_and_feed([(44, 24), (80, 24)]) == wide
    assert await _banner_and_feed([(80, 24), (44, 24), (80, 24)]) == wide


async def test_whoever_ends_a_turn_reads_the_banner_and_the_feed_the_others_read():
    """The person whose choice ends a turn is shown the turn's choices at once, the
    others with the card that follows. Once that card has come, everyone's banner and
    feed read the same: the choices and the card in the banner, the round's earlier
    lines under the path (the last to decide read the card alone in the banner and the
    choices in the feed, and the table's cave was drawn twice for every card)."""
    table = Table(TableSettings(name="feed", seats=3, bots=(), pace=0.05, seed=11))
    ann, bob, cy = (table.sit(name, f"key-{name}") for name in ("Ann", "Bob", "Cy"))
    async with AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(
            DiamantApp(lang="en", member=member).run_test(size=(80, 24)))
            for member in (ann, bob)]
        await until(pilots[0], lambda: table.game.view_for(0).decision_due)
        ann.decide(Decision.CONTINUE)
        cy.decide(Decision.CONTINUE)
        bob.decide(Decision.CONTINUE)  # ends the turn: Bob is shown its choices at once
        await until(pilots[0], lambda: table.game.view_for(0).step == 2)
        for pilot in pilots:
            await until(pilot, lambda pilot=pilot: len(
                pilot.app.screen.query_one(CavePath).path) == 2)
            await settled(pilot)
        seen = [(pilot.app.screen.query_one(EventBanner)._shown,
                 pilot.app.screen.query_one(CavePath).feed) for pilot in pilots]
        assert any(line.startswith("Continue: Ann, Bob, Cy") for line in seen[0][0])
        assert seen[1] == seen[0]
    await table.close()


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("size", [(80, 24), (130, 40)])
async def test_the_path_is_drawn_line_by_line_as_textual_draws_its_text(lang, size):
    """The path draws each line from its runs of text, without a Content for the whole
    area: every cell is what Textual draws for the same text (the cards of every kind, a
    disaster's second hazard, the rubies left, the feed under them; none, at first)."""
    for table in (FixedTable(), mid_round(FixedTable()), after_disaster(FixedTable())):
        app = DiamantApp(lang=lang, member=table.member(0))
        async with app.run_test(size=size) as pilot:
            await settled(pilot)
            path = app.screen.query_one(CavePath)
            width, height = path.size
            textual = Visual.to_strips(path, visualize(path, path.render(), markup=False),
                                       width, height, path.visual_style)
            path._runs = None
            for y in range(height):
                expected = cell_looks(textual[y]) if y < len(textual) else []
                drawn = cell_looks(path.render_line(y))
                assert drawn == expected or not expected and {c for c, _ in drawn} <= {" "}, y


async def test_whoever_arrives_before_the_first_card_reads_it_as_the_others_do():
    """A screen that starts listening between a round's start and its first card (the
    last to sit down, as the game begins) is told the round's start, then gets the card:
    its banner and feed then read as everyone's, who got both together (the start and the
    card in the banner, nothing under the path), not the start under the path."""
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        table.reveal(T(9))
        await settled(pilot)
        banner = app.screen.query_one(EventBanner)
        assert app.screen.query_one(CavePath).feed == ()
        assert len(banner._shown) == 2 and banner._shown[0].startswith("Round 1 begins")
