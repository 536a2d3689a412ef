"""Snapshots of the replay screen: a turn in the middle of a round, a disaster, the end.

The game is played by the engine from a seeded deck and read back from its record, so
every picture is the same on every run; nothing plays by itself, so no timer runs.
"""

from __future__ import annotations

import pytest

from diamant_tui.ui import DiamantApp
from replay_helpers import den_meta, played_game, recorded

SMALL, LARGE = (80, 24), (120, 40)


@pytest.fixture(autouse=True)
def colour_terminal(monkeypatch):
    """The pictures are those of a 256-colour terminal, whatever terminal runs the tests."""
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("COLORTERM", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def replay_app(lang: str = "en") -> DiamantApp:
    return DiamantApp(lang=lang, replay=recorded(played_game(), den_meta()))


def keys(*pressed: str):
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press(*pressed)
        await pilot.pause()
    return run_before


def test_replay_mid_round(snap_compare):
    """Round 3, the third card turned: two players gone back to camp, two still choosing."""
    assert snap_compare(replay_app(), terminal_size=SMALL, run_before=keys("3", *["right"] * 5))


def test_replay_disaster_in_french(snap_compare):
    """The second snakes end round 1: the disaster card, the losses, the entrance closed."""
    assert snap_compare(replay_app("fr"), terminal_size=SMALL, run_before=keys("2", "left"))


@pytest.mark.parametrize("size", [SMALL, LARGE])
def test_replay_end_of_the_game(snap_compare, size):
    assert snap_compare(replay_app(), terminal_size=size, run_before=keys("end"))
