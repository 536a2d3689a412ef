"""The round's earlier lines stand under the path's cards, in the path's own widget,
except on a wide screen, where the log's column tells them already."""

import re

from textual.geometry import Region

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import CavePath
from ui_helpers import FixedTable, FrameCounter, T, mid_round, screen_text, settled, until


def _drawn(path: CavePath) -> str:
    return "\n".join(strip.text for strip in path.render_lines(Region(0, 0, *path.size)))


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
