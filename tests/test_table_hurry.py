"""Hurrying the late at a table without a timer: someone who walks away from the keyboard
without leaving must not hold the turn, and everyone in it, for ever."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.engine.events import DecisionMade, DecisionsRevealed
from diamant_tui.engine.view import Decision
from diamant_tui.table import (Hurried, NotNow, OnlyPlayers, SeatKind, Table, TableSettings,
                               TableStatus, TableUpdate)
from diamant_tui.table import clock

from playing import play_out, until

WAIT = 0.3
"""Seconds a turn waits here before the late may be hurried (20 s at a real table)."""
GIVEN = 0.4
"""Seconds the hurried have here to decide (30 s at a real table)."""


@pytest.fixture(autouse=True)
def short_waits(monkeypatch):
    monkeypatch.setattr(clock, "HURRY_AFTER", WAIT)
    monkeypatch.setattr(clock, "HURRY_TIME", GIVEN)


def table(**kw) -> Table:
    base = dict(name="t", seats=3, bots=("cards:9",), pace=0, seed=7)
    base.update(kw)
    return Table(TableSettings(**base))


class Updates(list):
    """A member's updates, as they came."""

    def __call__(self, update: TableUpdate) -> None:
        self.append(update)

    def events(self) -> list:
        return [event for update in self for event in update.events]


async def seated(t: Table) -> tuple:
    """ann and bob at ``t``, subscribed, once the game's first choice is due."""
    ann, bob = t.sit("ann", "k-ann"), t.sit("bob", "k-bob")
    anns, bobs = Updates(), Updates()
    ann.subscribe(anns)
    bob.subscribe(bobs)
    await until(lambda: anns and anns[-1].view is not None and anns[-1].view.decision_due)
    return ann, bob, anns, bobs


async def test_a_player_done_with_the_turn_hurries_the_late_who_get_a_deadline_then_a_stand_in():
    """ann has chosen, bob has not: once the turn has waited, ann's screen is told she
    may hurry him (bob's is not); she does, everyone reads who hurried whom, bob has a
    deadline, and when it passes a computer decides for him, as a timer would, and his
    seat shows away."""
    t = table()
    ann, bob, anns, bobs = await seated(t)
    ann.decide(Decision.CONTINUE)
    with pytest.raises(NotNow):
        ann.hurry()  # too soon: a hard choice deserves its time
    assert not anns[-1].may_hurry
    await until(lambda: anns[-1].may_hurry, timeout=10)
    assert anns[-1].hurry_late == (bob.seat,)
    assert not bobs[-1].may_hurry  # the late themselves may not
    with pytest.raises(NotNow):
        bob.hurry()
    ann.hurry()
    hurried = Hurried(ann.seat, (bob.seat,), GIVEN)
    assert hurried in anns[-1].events and hurried in bobs[-1].events
    assert bobs[-1].deadline is not None  # (ann may still change her mind until then too)
    assert not anns[-1].may_hurry  # once a turn: a deadline runs
    with pytest.raises(NotNow):
        ann.hurry()
    await until(lambda: any(isinstance(e, DecisionsRevealed) for e in bobs.events()), timeout=10)
    assert any(isinstance(e, DecisionMade) and e.seat == bob.seat for e in bobs.events())
    assert t.seats[bob.seat].away
    await t.close()


async def test_a_player_in_camp_may_hurry_and_a_spectator_may_not():
    """ann went back to camp: she waits on the others as much as anyone, and may hurry
    them; a spectator, who waits on nothing, may not."""
    t = table()
    ann, bob, anns, bobs = await seated(t)
    ann.decide(Decision.LEAVE)
    bob.decide(Decision.CONTINUE)  # the computer player continues (cards:9): a next turn
    await until(lambda: anns[-1].view.step == 2 and bobs[-1].view.decision_due, timeout=10)
    await until(lambda: anns[-1].may_hurry, timeout=10)
    sam = t.watch("sam", "k-sam")
    with pytest.raises(OnlyPlayers):
        sam.hurry()
    ann.hurry()
    assert Hurried(ann.seat, (bob.seat,), GIVEN) in anns[-1].events
    await t.close()


async def test_a_table_with_a_timer_offers_no_hurry():
    """Its own deadline times every turn: there is nothing to hurry."""
    t = table(timer=5.0)
    ann, bob, anns, bobs = await seated(t)
    ann.decide(Decision.CONTINUE)
    await until(lambda: anns[-1].view.my_decision is not None)
    await asyncio.sleep(WAIT * 3)  # (nothing is to come: nothing to wait for)
    assert not anns[-1].may_hurry
    with pytest.raises(NotNow):
        ann.hurry()
    await t.close()


async def test_who_asked_for_a_rematch_may_hurry_those_who_have_not_answered():
    """At the final scores ann asks for a rematch and bob, gone from his keyboard as the
    game ended, never answers: it would wait for ever. Once he has been waited on, ann
    may hurry him (he may not, nor may a spectator); when his time is up the rematch
    starts, a computer playing his seat until he is back, as for anyone away."""
    t = table()
    ann, bob = t.sit("ann", "k-ann"), t.sit("bob", "k-bob")
    await asyncio.gather(*(play_out(p, lambda view: Decision.LEAVE) for p in (ann, bob)))
    anns, bobs = Updates(), Updates()  # (one listener a member: after play_out's)
    ann.subscribe(anns)
    bob.subscribe(bobs)
    ann.vote_rematch()
    with pytest.raises(NotNow):
        ann.hurry()  # too soon
    await until(lambda: anns[-1].may_hurry, timeout=10)
    assert anns[-1].hurry_late == (bob.seat,)
    assert not bobs[-1].may_hurry
    with pytest.raises(NotNow):
        bob.hurry()  # he has not asked for it himself
    with pytest.raises(OnlyPlayers):
        t.watch("sam", "k-sam").hurry()
    ann.hurry()
    hurried = Hurried(ann.seat, (bob.seat,), GIVEN, rematch=True)
    assert hurried in anns[-1].events and hurried in bobs[-1].events
    assert not anns[-1].may_hurry  # once
    await until(lambda: t.status is TableStatus.PLAYING, timeout=10)
    assert t.seats[bob.seat].kind is SeatKind.PERSON and t.seats[bob.seat].away
    bob.wake()  # back: his seat is his again
    assert not t.seats[bob.seat].away
    await t.close()


async def test_a_hurry_whose_voters_left_sets_nobody_away():
    """ann hurried bob, then left: nobody asks for a rematch any more, and bob, still
    at the final scores, is not marked away when the time ann gave him is up."""
    t = table()
    ann, bob = t.sit("ann", "k-ann"), t.sit("bob", "k-bob")
    await asyncio.gather(*(play_out(p, lambda view: Decision.LEAVE) for p in (ann, bob)))
    anns = Updates()
    ann.subscribe(anns)
    ann.vote_rematch()
    await until(lambda: anns[-1].may_hurry, timeout=10)
    ann.hurry()
    ann.leave()
    await asyncio.sleep(GIVEN * 2)  # (nothing is to come: nothing to wait for)
    assert t.status is TableStatus.FINISHED and not t.seats[bob.seat].away
    await t.close()
