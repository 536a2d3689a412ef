"""Who comes to a rematch after it began reads who took the seat of the person who left,
as those at the table when it began read it."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.engine.view import Decision
from diamant_tui.table import (SeatGivenToComputer, Table, TableSettings, TableStatus,
                               TableUpdate)
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.describe import seat_given_text
from diamant_tui.ui.screens.table import TableScreen
from ui_helpers import screen_text, until


async def both_go_home_to_the_end(table: Table, *people, pause=asyncio.sleep) -> None:
    """``people`` go home at every turn until the game is over."""
    while table.status is not TableStatus.FINISHED:
        for member in people:
            view = table.game.view_for(member.seat) if table.game else None
            if view is not None and view.decision_due and view.my_decision is None:
                member.decide(Decision.LEAVE)
        await pause(0.005)


async def rematch_without_bob(asked_in: int) -> tuple[Table, SeatGivenToComputer]:
    """ann and bob play a game; bob leaves and a computer player takes his seat for the
    rematch, in which ann goes home at once until she is asked in round ``asked_in``
    (the table then waits for her): the table, and what it told as the rematch began."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:2",), pace=0, seed=7))
    ann, bob = table.sit("ann", "ann"), table.sit("bob", "bob")
    await both_go_home_to_the_end(table, ann, bob)
    bob.leave()
    ann.vote_rematch()
    given = SeatGivenToComputer(bob.seat, "bob", table.seats[bob.seat].name)
    asked = asyncio.get_running_loop().create_future()

    def ann_plays(update: TableUpdate) -> None:
        view = update.view
        if view is not None and view.decision_due and view.my_decision is None:
            if view.round < asked_in:
                asyncio.get_running_loop().call_soon(ann.decide, Decision.LEAVE)
            elif not asked.done():
                asked.set_result(view.round)

    ann.subscribe(ann_plays)
    assert await asyncio.wait_for(asked, 30) == asked_in
    return table, given


def watching(app) -> bool:
    screen = app.screen
    return isinstance(screen, TableScreen) and screen.view is not None


@pytest.mark.parametrize(("lang", "round_"), [("uk", 1), ("en", 2)])
async def test_a_spectator_coming_during_a_rematch_reads_who_took_whose_seat(lang, round_):
    """zoe comes to watch the rematch in its first round, or in its second: her log
    begins with who took bob's seat, before the round so far. Under the path she reads
    it in the first round only, as the others did (each round's lines begin anew)."""
    table, given = await rematch_without_bob(asked_in=round_)
    app = DiamantApp(lang=lang, member=table.watch("zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: watching(app))
        told = seat_given_text(app.t, given)
        lines = app.screen._log.waiting()
        assert lines[:2] == [told, app.t("event.round_started", round=round_)], lines
        assert (told in screen_text(app)) == (round_ == 1), screen_text(app)
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_a_spectator_at_the_final_scores_reads_that_the_players_have_left(lang):
    """zoe watches the final scores: while ann and bob are there she reads that they
    decide on a rematch; once both have left the table she reads that they have, and no
    longer that they decide (nobody was left to decide, and she waited for nothing)."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:2",), pace=0, seed=7))
    ann, bob = table.sit("ann", "ann"), table.sit("bob", "bob")
    app = DiamantApp(lang=lang, member=table.watch("zoe", "zoe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await both_go_home_to_the_end(table, ann, bob, pause=pilot.pause)
        deciding, gone = app.t("final.watching"), app.t("final.watching_left")
        await until(pilot, lambda: deciding in screen_text(app))
        ann.leave()
        await pilot.pause(0.2)
        assert deciding in screen_text(app), "bob may still ask for a rematch"
        bob.leave()
        await until(pilot, lambda: gone in screen_text(app))
        assert deciding not in screen_text(app)
    await table.close()
