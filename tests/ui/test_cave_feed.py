"""The round's earlier lines stand under the path's cards, in the path's own widget,
except on a wide screen, where the log's column tells them already."""

from textual.geometry import Region

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import CavePath
from ui_helpers import FixedTable, mid_round, settled


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
