"""A card that gives the path another row lays the table screen out once, not twice."""

from textual.screen import Screen

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import CavePath
from ui_helpers import FixedTable, T, mid_round, settled, until


async def test_the_path_taking_another_row_costs_one_layout(monkeypatch):
    """Cards are revealed until the path has taken two more rows; each reveal that
    changed the path's height laid the screen out once (Textual used to lay it out a
    second time, in a frame of its own, for the new sizes of the path and the feed)."""
    layouts: list[Screen] = []
    refresh_layout = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(self)
        return refresh_layout(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    table = mid_round(FixedTable())
    table.decide(Ana="continue")
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        path = app.screen.query_one(CavePath)
        grown = []
        for card in (T(1), T(3), T(4), T(14), T(15), T(17), T(5), T(7), T(9), T(11)):
            height = path.size.height
            layouts.clear()
            table.reveal(card)
            await until(pilot, lambda card=card: len(path.path) and path.path[-1].card == card)
            await settled(pilot)
            if path.size.height != height:
                grown.append(len([s for s in layouts if s is app.screen]))
            if len(grown) == 2:
                break
            table.everyone("continue")
            await settled(pilot)
        assert grown == [1, 1], grown
