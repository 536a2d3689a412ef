"""What a seat's app makes as it opens over SSH: its table screen and the screen beneath it
laid out once each as they are shown (and once for what was mounted after), no tooltip
widget (nothing here has a tooltip), and still the toast rack that shows notes."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Tooltip
from textual.widgets._toast import ToastRack

from diamant_tui.table import TableSettings
from diamant_tui.ui.screens.table import TableScreen
from test_ssh_shown_pieces import session_of


async def test_a_seat_opens_with_one_layout_of_each_screen_and_no_tooltip(
        server, players, make_key, monkeypatch):
    layouts: list[Screen] = []
    refresh_layout = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(self)
        return refresh_layout(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    server.lobby.create(TableSettings(name="den", seats=3, seed=4, pace=0.05), "test")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Table den")
    await ann.wait_for(lambda text: "Free seats: 2" in text)
    app = session_of(server, "ann").app
    assert isinstance(app.screen, TableScreen)
    table_layouts = sum(isinstance(screen, TableScreen) for screen in layouts)
    # Four and ten before: every Resize of an unchanged size laid out both screens.
    assert table_layouts <= 2 and len(layouts) - table_layouts <= 2, layouts
    for screen in app.screen_stack:
        assert not screen.query(Tooltip), screen
        assert screen.query(ToastRack), screen
    # A note still shows, over SSH, in the toast rack.
    app.notify("A note for ann", markup=False)
    await ann.wait_for("A note for ann")
