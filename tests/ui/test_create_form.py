"""The "Open a table" form at 80x24: each drop-down, opened, leaves its own field's
label in sight, in every language."""

from __future__ import annotations

import pytest
from textual.widgets import Label, Select

from diamant_server.create_screen import CreateTableScreen
from diamant_tui.ui import DiamantApp

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
