"""The setup screen of ``diamant play`` with a computer player from outside whose class
cannot be built when the game starts: the person reads why, and the program goes on."""

from __future__ import annotations

import pytest
from ui_helpers import settled

from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.screens.setup import SetupScreen
from diamant_tui.ui.setup_choices import CUSTOM

FLAKY = """\
class Flaky:
    \"\"\"Built once; the second time its constructor fails.\"\"\"

    built = 0

    def __init__(self):
        Flaky.built += 1
        if Flaky.built > 1:
            raise RuntimeError("[b]out of cards[/b]")

    def decide(self, view):
        return "leave"
"""


@pytest.fixture
def flaky(tmp_path, monkeypatch):
    (tmp_path / "flaky.py").write_text(FLAKY)
    monkeypatch.chdir(tmp_path)


async def test_a_player_that_cannot_be_built_at_the_start_is_told_not_a_crash(flaky):
    from diamant_tui.bots import parse_lineup

    bots = parse_lineup("flaky.py:Flaky,ev")  # named and checked, as the command line does
    app = DiamantApp(lang="en", choices=SetupChoices(players=3, level=CUSTOM,
                                                     custom_bots=bots))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        await settled(pilot)
        assert isinstance(app.screen, SetupScreen)  # still there, the program running
        said = [n.message for n in app._notifications]
        assert said == ["'flaky.py:Flaky' could not be built: RuntimeError: "
                        "[b]out of cards[/b]."], said
