"""A computer player that fails at a table: "the table's log says who failed and how"
(README, Your own computer player), read in the game's log by everyone at the table,
once for each player, in their language; the round's lines under the cave stay the
game's."""

from __future__ import annotations

import pytest
from textual.widgets import RichLog
from ui_helpers import screen_text, settled, until

from diamant_tui.i18n import Translator
from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp

FAILING = """\
class Raises:
    def decide(self, view):
        raise KeyError("[b]no such card[/b]")


class Answers:
    def decide(self, view):
        return "maybe"
"""


@pytest.fixture
def failing(tmp_path, monkeypatch):
    (tmp_path / "failing.py").write_text(FAILING)
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("lang", ["en", "uk"])
async def test_the_log_tells_once_which_computer_player_failed_and_how(failing, lang):
    t = Translator(lang)
    table = Table(TableSettings(name="t", seats=3, bots=("failing.py:Raises",
                                                         "failing.py:Answers"),
                                pace=0.02, seed=5))
    member = table.sit("ann", "ann")
    app = DiamantApp(lang=lang, member=member)
    async with app.run_test(size=(80, 24)) as pilot:
        for card in (1, 2, 3):  # three cards: each computer player failed at each
            await until(pilot, lambda card=card: (view := getattr(app.screen, "view", None))
                        is not None and (view.step >= card or view.round > 1))
            await pilot.press("c")
        await settled(pilot)
        names = [p.name for p in app.screen.view.players]
        raised = t("event.computer_raised", name=names[1], player="failing.py:Raises",
                   error="KeyError: '[b]no such card[/b]'", stand_in="ev")
        answered = t("event.computer_answered", name=names[2], player="failing.py:Answers",
                     answer="'maybe'", stand_in="ev")
        written = app.screen._log.waiting()
        assert written.count(raised) == 1 and written.count(answered) == 1, written
        text = " ".join(screen_text(app).split())
        assert "failing.py" not in text  # not among the round's lines under the cave
        await pilot.press("g")
        await settled(pilot)
        (log,) = app.screen.query(RichLog)
        shown = " ".join(" ".join(strip.text for strip in log.lines).split())
        assert raised in shown  # its own words, as they are, no markup
    await table.close()
