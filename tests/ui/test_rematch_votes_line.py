"""The rematch line under the final scores, at the biggest table: eight seats, four people
with long names, at 80x24. What does not fit on its one line ends with an ellipsis: it
was cut after a comma, so that it read as if nobody came after."""

from __future__ import annotations

import pytest

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from test_rematch_arrivals import both_go_home_to_the_end
from ui_helpers import final_shown, screen_text, until

LONG = ("Annabelle_Wolfes", "Bartholomew_Feat", "Clementina_Villa", "Даниїл_Коваленко")


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_the_rematch_line_of_four_long_names_ends_with_an_ellipsis(lang):
    """"Players who want another game press r": the line saying who has (✓) and who has
    not yet (…) names the four; cut at the screen's edge, it says so with "…"."""
    table = Table(TableSettings(name="den", seats=8, bots=("cards:2",) * 4, pace=0, seed=3))
    people = [table.sit(name, name) for name in LONG]
    app = DiamantApp(lang=lang, member=people[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await both_go_home_to_the_end(table, *people, pause=pilot.pause)
        await until(pilot, lambda: final_shown(app))
        people[1].vote_rematch()
        votes = app.t("final.votes", votes="").strip()
        await until(pilot, lambda: votes in screen_text(app))
        line = next(row for row in screen_text(app).splitlines() if votes in row)
        shown = line.rstrip()
        # Never a line cut after a comma, as if nobody came after it.
        assert not shown.endswith(","), line
        assert LONG[0] in line, line
        if not all(name in line for name in LONG):
            assert shown.endswith("…"), line
    await table.close()
