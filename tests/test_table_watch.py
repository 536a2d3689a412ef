"""At a table, computer players back in camp are shown the rest of the round."""

from __future__ import annotations

import logging

from diamant_tui.table import Table, TableSettings, TableStatus

from playing import until

PLAYERS = '''
from diamant_tui.engine.view import Decision


class Early:
    """Leaves after two cards; writes down what it decides on and what it watches."""

    cards = 2

    def __init__(self):
        self.decided, self.watched, self.watched_in_cave = [], [], 0

    def decide(self, view):
        self.decided.append((view.round, view.step))
        return Decision.LEAVE if view.step >= self.cards else Decision.CONTINUE

    def watch(self, view):
        self.watched.append((view.round, view.step))
        self.watched_in_cave += view.me.in_cave


class Late(Early):
    """Never leaves: it decides at every step there is."""

    cards = 99


class Broken(Early):
    """Its watch always raises."""

    def watch(self, view):
        super().watch(view)
        raise KeyError("x")
'''


def _table(tmp_path, *bots: str) -> Table:
    path = tmp_path / "players.py"
    path.write_text(PLAYERS)
    specs = tuple(f"{path}:{name}" for name in bots)
    return Table(TableSettings(name="t", seats=len(specs), bots=specs, pace=0, seed=3))


async def _play(table: Table) -> list:
    table.start()
    await until(lambda: table.status is TableStatus.FINISHED, timeout=60)
    bots = [s.bot for s in table._seats]
    await table.close()
    return bots


async def test_a_computer_player_in_camp_is_shown_every_later_step(tmp_path):
    early, late, _ = await _play(_table(tmp_path, "Early", "Late", "Late"))
    assert early.watched and early.watched_in_cave == 0
    assert not set(early.decided) & set(early.watched)
    assert sorted(early.decided + early.watched) == sorted(late.decided)
    assert late.watched == []


async def test_a_watch_that_raises_is_logged_once_and_the_table_plays_on(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="diamant_tui.table"):
        broken, late, _ = await _play(_table(tmp_path, "Broken", "Late", "Late"))
    assert len(broken.watched) == 1  # not shown the game again once it failed
    lines = [r.getMessage() for r in caplog.records if "watch()" in r.getMessage()]
    assert len(lines) == 1 and "raised KeyError" in lines[0] and "Broken" in lines[0]
