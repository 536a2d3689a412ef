"""The table coordinator: seats, decisions, timer, away seats, chat and pacing."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.errors import GameSetupError, IllegalAction
from diamant_tui.events import DecisionsRevealed, GameEnded
from diamant_tui.table import (
    CHAT_BURST,
    ChatRejected,
    SeatKind,
    Table,
    TableFull,
    TableSettings,
    TableStatus,
    TableUpdate,
)
from diamant_tui.view import Decision


def settings(**kw) -> TableSettings:
    base = dict(name="t", seats=3, bots=("cards:3", "carry:8"), pace=0, seed=7)
    base.update(kw)
    return TableSettings(**base)


async def until(predicate, timeout: float = 20.0) -> None:
    """Wait until ``predicate()`` holds (a generous bound, not a timing assertion)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.005)


class Recorder:
    """Collects a subscriber's updates."""

    def __init__(self) -> None:
        self.updates: list[TableUpdate] = []

    def __call__(self, update: TableUpdate) -> None:
        self.updates.append(update)

    @property
    def last(self) -> TableUpdate:
        return self.updates[-1]

    def events(self):
        return [e for u in self.updates for e in u.events]


async def test_a_table_starts_when_its_last_seat_is_taken():
    table = Table(settings())
    assert table.status is TableStatus.WAITING
    seat = table.join("ann", "key-ann")
    assert seat == 0
    assert table.status is TableStatus.PLAYING
    await table.close()


async def test_a_person_plays_a_whole_game_with_computer_players():
    """Five rounds, then final scores with tied players sharing the victory."""
    table = Table(settings())
    seat = table.join("ann", "key-ann")
    rec = Recorder()
    table.subscribe(seat, rec)
    while table.status is not TableStatus.FINISHED:
        await until(
            lambda: table.status is TableStatus.FINISHED
            or (rec.last.view and rec.last.view.decision_due and rec.last.view.my_decision is None)
        )
        if table.status is not TableStatus.FINISHED:
            view = rec.last.view
            table.submit(seat, Decision.LEAVE if view.step >= 4 else Decision.CONTINUE)
    ended = [e for e in rec.events() if isinstance(e, GameEnded)]
    assert len(ended) == 1
    assert ended[0].scores == table.game.scores()
    assert rec.last.view.scores == table.game.scores()
    await table.close()


async def test_a_choice_can_change_until_everyone_has_chosen():
    """The last choice a person makes before the reveal is the one that counts."""
    table = Table(settings(bots=(), seats=3))
    seats = [table.join(n, f"key-{n}") for n in ("ann", "bob", "cy")]
    rec = Recorder()
    table.subscribe(None, rec)
    await until(lambda: table.game.view_for(0).decision_due)
    table.submit(seats[0], Decision.LEAVE)
    table.submit(seats[0], Decision.CONTINUE)
    table.submit(seats[1], Decision.CONTINUE)
    table.submit(seats[2], Decision.LEAVE)
    revealed = [e for e in rec.events() if isinstance(e, DecisionsRevealed)]
    assert revealed[0].continuing == (0, 1)
    assert revealed[0].leaving == (2,)
    await table.close()


async def test_spectators_and_others_never_see_a_pending_choice():
    """Until the reveal, others learn only that a player has decided."""
    table = Table(settings(bots=(), seats=3))
    for n in ("ann", "bob", "cy"):
        table.join(n, f"key-{n}")
    spectator, bob = Recorder(), Recorder()
    table.subscribe(None, spectator)
    table.subscribe(1, bob)
    await until(lambda: table.game.view_for(0).decision_due)
    table.submit(0, Decision.LEAVE)
    for view in (spectator.last.view, bob.last.view):
        assert view.players[0].decided
        assert view.my_decision is None
        assert "leave" not in repr(view).lower()
    await table.close()


async def test_the_timer_runs_out_and_the_seat_goes_away():
    """When the decision timer runs out a computer player decides and the seat is away."""
    table = Table(settings(timer=0.05))
    seat = table.join("ann", "key-ann")
    rec = Recorder()
    table.subscribe(seat, rec)
    await until(lambda: table.seats[seat].away)
    assert table.seats[seat].kind is SeatKind.PERSON
    await until(lambda: table.game.step >= 2 or table.game.round >= 2 or table.game.over)
    table.wake(seat)
    assert not table.seats[seat].away
    await table.close()


async def test_a_dropped_person_is_played_by_a_computer_and_gets_the_seat_back():
    table = Table(settings())
    seat = table.join("ann", "key-ann")
    table.disconnect(seat)
    assert table.seats[seat].away and not table.seats[seat].connected
    await until(lambda: table.game.round >= 2 or table.game.over)
    assert table.join("ann again", "key-ann") == seat
    assert table.seats[seat].connected and not table.seats[seat].away
    assert table.seats[seat].name == "ann"
    await table.close()


async def test_leaving_a_waiting_table_frees_the_seat():
    table = Table(settings(bots=("ev",)))
    seat = table.join("ann", "key-ann")
    table.disconnect(seat)
    assert table.seats[seat].kind is SeatKind.EMPTY
    assert table.free_seats == 2
    await table.close()


async def test_names_are_made_unique_and_cleaned():
    table = Table(settings(bots=(), seats=3))
    a = table.join("ann", "k1")
    b = table.join("ann", "k2")
    c = table.join("a\x1b[31mverylongname\x07withcontrols", "k3")
    names = [s.name for s in table.seats]
    assert names[a] == "ann" and names[b] == "ann2"
    assert "\x1b" not in names[c] and len(names[c]) <= 16
    await table.close()


async def test_a_full_or_running_table_turns_people_away():
    table = Table(settings())
    table.join("ann", "k1")
    with pytest.raises(TableFull, match="watch"):
        table.join("bob", "k2")
    await table.close()


async def test_the_creator_can_start_early_with_computer_players():
    table = Table(settings(seats=5, bots=("ev",)), creator="k1")
    table.join("ann", "k1")
    assert table.status is TableStatus.WAITING
    table.start()
    assert table.status is TableStatus.PLAYING
    assert [s.kind for s in table.seats].count(SeatKind.BOT) == 4
    await table.close()


async def test_chat_is_cleaned_cut_and_rate_limited():
    table = Table(settings())
    table.join("ann", "k1")
    line = table.say("ann", "hello\x1b[2J " + "x" * 300)
    assert "\x1b" not in line.text and len(line.text) == 200
    for _ in range(CHAT_BURST - 1):
        table.say("ann", "hi")
    with pytest.raises(ChatRejected, match="slow down"):
        table.say("ann", "one too many")
    table.say("bob", "others may still talk")
    with pytest.raises(ChatRejected, match="empty"):
        table.say("bob", "\x00\x07  ")
    await table.close()


async def test_only_people_submit_for_their_seat():
    table = Table(settings())
    table.join("ann", "k1")
    await until(lambda: table.game.view_for(0).decision_due)
    with pytest.raises(IllegalAction, match="not a person's seat"):
        table.submit(1, Decision.LEAVE)
    with pytest.raises(IllegalAction):
        table.submit(99, Decision.LEAVE)
    await table.close()


async def test_rematch_plays_again_with_the_same_seats():
    table = Table(settings(bots=("cards:3", "carry:8", "cards:2"), seats=3))
    table.start()
    await until(lambda: table.status is TableStatus.FINISHED)
    first = table.game
    table.rematch()
    assert table.game is not first and table.status is TableStatus.PLAYING
    await until(lambda: table.status is TableStatus.FINISHED)
    await table.close()


def test_impossible_settings_are_refused_with_a_reason():
    with pytest.raises(GameSetupError, match="3 to 8"):
        Table(settings(seats=9, bots=()))
    with pytest.raises(ValueError, match="unknown computer player"):
        Table(settings(bots=("wizard",)))
