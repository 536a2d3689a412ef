"""A screen is laid out on a resize only when its size changed: an app opening on a
waiting table lays its screens out once each as it shows them, and a terminal that
changes size is still laid out, and drawn, at its new size."""

from textual.screen import Screen

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.widgets.waiting import WaitingPanel
from ui_helpers import screen_layouts, screen_text, settled


def _waiting_table() -> Table:
    return Table(TableSettings(name="den", seats=3, bots=("cards:4",), pace=0.02, seed=5),
                 creator="ann")


def _count(layouts: list[Screen]) -> tuple[int, int]:
    """(layouts of the table's screen, of the screens beneath it)."""
    table = sum(isinstance(screen, TableScreen) for screen in layouts)
    return table, len(layouts) - table


async def test_an_app_opening_on_a_table_lays_each_screen_out_as_it_shows_it(monkeypatch):
    """The table screen was laid out four times as the app opened, and Textual's empty
    screen beneath it ten times: for the app's first size, told again; for the Resize
    a screen's first layout sends itself; each of them laying out every screen of the
    stack, none with a new size. Now the table's screen is laid out as it is shown, and
    once more for the widgets its mount waited for (Textual's own request), and the
    screen beneath it as much."""
    layouts = screen_layouts(monkeypatch)
    table = _waiting_table()
    app = DiamantApp(lang="en", member=table.sit("ann", "ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert app.screen.query_one(WaitingPanel).display
        assert "den" in screen_text(app)
        assert _count(layouts) == (2, 2), _count(layouts)


async def test_a_terminal_told_its_own_size_lays_nothing_out_and_a_new_size_does(monkeypatch):
    layouts = screen_layouts(monkeypatch)
    table = _waiting_table()
    app = DiamantApp(lang="en", member=table.sit("ann", "ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        layouts.clear()
        await pilot.resize_terminal(80, 24)
        await settled(pilot)
        assert _count(layouts) == (0, 0)
        await pilot.resize_terminal(100, 30)
        await settled(pilot)
        table_layouts, _beneath = _count(layouts)
        assert table_layouts >= 1
        screen = app.screen
        assert screen.size == (100, 30)
        _key_bar_last(app, 30)
        layouts.clear()
        await pilot.resize_terminal(80, 24)
        await settled(pilot)
        assert _count(layouts)[0] >= 1
        assert screen.size == (80, 24)
        _key_bar_last(app, 24)


def _key_bar_last(app, height: int) -> None:
    """The key bar stands on the screen's last line, at ``height``, and nowhere else."""
    lines = screen_text(app).splitlines()
    assert len(lines) == height
    assert "q Quit" in lines[-1], lines[-1]
    assert not any("q Quit" in line for line in lines[:-1])
