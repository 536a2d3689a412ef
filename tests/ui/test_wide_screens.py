"""Terminals wider than 80 columns: the room goes where it reads better, nothing stretches.

From 118 columns the log has a column of its own beside the table: a third of the width
(40 to 64 columns), the table the rest; the player list is as wide as its rows, the
deck's panel beside it; the final scores keep the width they have at 80 columns, in the
middle. 80x24 itself is checked in test_fit_80x24.py and the snapshots.
"""

from __future__ import annotations

import re

import pytest

from diamant_tui.ui import DiamantApp
from ui_helpers import (FixedTable, T, final_shown, mid_round, screen_text, table_shown, until,
                        whole_game)

LONG_NAMES = ("Maximiliano-Juan", "Oleksandra-Petro", "Bartholomew Kent", "Anna-Kateryna Lo")


def region(app, id_: str):
    return app.screen.query_one(f"#{id_}").region


def rows_of(app, id_: str) -> list[str]:
    """The lines the widget ``id_`` shows on screen, as text."""
    box = region(app, id_)
    lines = screen_text(app).split("\n")
    return [line[box.x:box.right] for line in lines[box.y:box.bottom]]


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("size", [(160, 50), (200, 60)])
async def test_a_wide_table_gives_the_log_a_third_and_the_player_list_its_rows(lang, size):
    """The list's turn column stretched over half the screen, the log kept to 40 columns."""
    table = FixedTable()
    app = DiamantApp(lang=lang, member=table.member(0))
    async with app.run_test(size=size) as pilot:
        mid_round(table)
        await until(pilot, lambda: table_shown(app))
        await pilot.pause()
        main, log = region(app, "table-main"), region(app, "log")
        assert 40 < log.width <= 64 and main.width + log.width == size[0]
        players, deck = region(app, "players"), region(app, "deck")
        widest_row = max(len(row.rstrip()) for row in rows_of(app, "players"))
        # The rows' words end a padding's cell (and a space at most) before the deck.
        assert players.width - widest_row <= 2, rows_of(app, "players")
        assert deck.x == players.right and deck.right <= main.right
        text = screen_text(app)
        assert "(computer)" in text or "(комп'ютер)" in text


@pytest.mark.parametrize("width", [118, 130])
async def test_long_names_give_way_only_where_the_row_is_short_of_room(width):
    """Beside the log's column, the list takes what the deck leaves: the names shortened
    (…) where they must be, the deck whole."""
    table = FixedTable(names=LONG_NAMES)
    app = DiamantApp(lang="fr", member=table.member(0))
    async with app.run_test(size=(width, 40)) as pilot:
        table.reveal(T(9))
        await until(pilot, lambda: table_shown(app))
        await pilot.pause()
        main, deck, players = region(app, "table-main"), region(app, "deck"), region(app, "players")
        assert deck.x == players.right and deck.right == main.right
        rows = "\n".join(rows_of(app, "players"))
        if players.width >= 2 + len(LONG_NAMES[0]) + 40:
            assert all(name in rows for name in LONG_NAMES), rows
        else:
            assert "…" in rows and "Grotte" in rows


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("size", [(120, 40), (200, 60)])
async def test_the_final_scores_keep_their_width_in_the_middle(lang, size):
    """Their bars ran to the log's edge (over a hundred cells), under a title centred over
    the whole column while the table kept to the left."""
    table = FixedTable()
    app = DiamantApp(lang=lang, member=table.member(0))
    async with app.run_test(size=size) as pilot:
        whole_game(table)
        await until(pilot, lambda: final_shown(app))
        await pilot.pause()
        box, main = region(app, "final-box"), region(app, "table-main")
        assert box.width == min(80, main.width)
        assert abs((box.x - main.x) - (main.right - box.right)) <= 1  # in the middle
        bars = [len(run) for run in re.findall("█+", "\n".join(rows_of(app, "final-scores")))]
        assert bars and max(bars) == 25, bars
