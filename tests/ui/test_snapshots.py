"""Snapshots of the main screens at 80x24 and 120x40, in English and French.

The games are stacked card by card (ui_helpers.FixedTable), so every picture is the
same on every run; no timer runs, so no clock text is drawn.
"""

from __future__ import annotations

import pytest

from diamant_tui.ui import DiamantApp, SetupChoices
from ui_helpers import FixedTable, after_disaster, mid_round, whole_game

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "fr"]


@pytest.fixture(autouse=True)
def colour_terminal(monkeypatch):
    """The pictures are those of a 256-colour terminal, whatever terminal runs the tests
    (the app picks its colours from TERM, COLORTERM and NO_COLOR)."""
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("COLORTERM", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def table_app(lang: str, table: FixedTable) -> DiamantApp:
    return DiamantApp(lang=lang, member=table.member(0))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_setup_screen(snap_compare, lang, size):
    choices = SetupChoices(name="Ana", level="easy")
    assert snap_compare(DiamantApp(lang=lang, choices=choices), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_table_mid_round(snap_compare, lang, size):
    table = FixedTable()

    async def play(pilot):
        mid_round(table)
        await pilot.pause()

    assert snap_compare(table_app(lang, table), terminal_size=size, run_before=play)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_table_after_a_disaster(snap_compare, lang, size):
    table = FixedTable()

    async def play(pilot):
        after_disaster(table)
        await pilot.pause()
        await pilot.press("enter")  # close the round summary
        await pilot.pause()

    assert snap_compare(table_app(lang, table), terminal_size=size, run_before=play)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_round_summary(snap_compare, lang, size):
    table = FixedTable()

    async def play(pilot):
        after_disaster(table)
        await pilot.pause()

    assert snap_compare(table_app(lang, table), terminal_size=size, run_before=play)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_final_scores(snap_compare, lang, size):
    table = whole_game(FixedTable())
    assert snap_compare(table_app(lang, table), terminal_size=size)
