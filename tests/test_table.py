"""The table coordinator: seats, decisions, timer, away seats, chat, pacing, and who may act."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.engine.errors import GameSetupError
from diamant_tui.engine.events import (
    CardRevealed, DecisionMade, DecisionsRevealed, GameEnded, RoundStarted,
)
from diamant_tui.table import (
    CARD_GRACE,
    CHAT_BURST,
    ChatRejected,
    Member,
    NotAllowed,
    SeatGivenToComputer,
    SeatKind,
    Table,
    TableFull,
    TableSettings,
    TableStatus,
    TableUpdate,
    TimeRanOut,
)
from diamant_tui.engine.view import Decision

from playing import play_out, until


def settings(**kw) -> TableSettings:
    base = dict(name="t", seats=3, bots=("cards:3", "carry:8"), pace=0, seed=7)
    base.update(kw)
    return TableSettings(**base)


class Recorder:
    """Collects a subscriber's updates."""

    def __init__(self) -> None:
        self.updates: list[TableUpdate] = []
        self._answered = 0

    def asks(self) -> bool:
        """The last update asks for a decision and came after the last answer (whoever ends
        a turn may be shown their choice only with the next card, see CARD_GRACE)."""
        view = self.last.view if len(self.updates) > self._answered else None
        return view is not None and view.decision_due and view.my_decision is None

    def answered(self) -> None:
        """A decision was just sent: the last view is no longer a question."""
        self._answered = len(self.updates)

    def __call__(self, update: TableUpdate) -> None:
        self.updates.append(update)

    @property
    def last(self) -> TableUpdate:
        return self.updates[-1]

    def events(self):
        return [e for u in self.updates for e in u.events]


def told_each_step_once(table: Table, *seen: Recorder) -> None:
    """Each recorder was told every card and every turn's choices once, in the game's
    order."""
    steps = (CardRevealed, DecisionsRevealed)
    for recorder in seen:
        assert ([e for e in recorder.events() if isinstance(e, steps)]
                == [e for e in table.game.events if isinstance(e, steps)])


async def test_a_table_starts_when_its_last_seat_is_taken():
    table = Table(settings())
    assert table.status is TableStatus.WAITING
    ann = table.sit("ann", "key-ann")
    assert ann.seat == 0
    assert table.status is TableStatus.PLAYING
    await table.close()


async def test_a_person_plays_a_whole_game_with_computer_players():
    """Five rounds, then final scores with tied players sharing the victory."""
    table = Table(settings())
    ann = table.sit("ann", "key-ann")
    rec = Recorder()
    ann.subscribe(rec)
    while table.status is not TableStatus.FINISHED:
        await until(lambda: table.status is TableStatus.FINISHED or rec.asks())
        if table.status is not TableStatus.FINISHED:
            view = rec.last.view
            ann.decide(Decision.LEAVE if view.step >= 4 else Decision.CONTINUE)
            rec.answered()
    ended = [e for e in rec.events() if isinstance(e, GameEnded)]
    assert len(ended) == 1
    assert ended[0].scores == table.game.scores()
    assert rec.last.view.scores == table.game.scores()
    await table.close()


async def test_a_choice_can_change_until_everyone_has_chosen():
    """The last choice a person makes before the reveal is the one that counts."""
    table = Table(settings(bots=(), seats=3))
    ann, bob, cy = (table.sit(n, f"key-{n}") for n in ("ann", "bob", "cy"))
    rec = Recorder()
    table.watch("rec", "key-rec").subscribe(rec)
    await until(lambda: table.game.view_for(0).decision_due)
    ann.decide(Decision.LEAVE)
    ann.decide(Decision.CONTINUE)
    bob.decide(Decision.CONTINUE)
    cy.decide(Decision.LEAVE)
    # (The others are shown the choices with the next card.)
    await until(lambda: any(isinstance(e, DecisionsRevealed) for e in rec.events()))
    revealed = [e for e in rec.events() if isinstance(e, DecisionsRevealed)]
    assert revealed[0].continuing == (0, 1)
    assert revealed[0].leaving == (2,)
    await table.close()


async def _pending_choice_as_others_see_it(choice: Decision) -> list[TableUpdate]:
    """The last update a spectator and bob get after ann chose ``choice`` (not revealed)."""
    table = Table(settings(bots=(), seats=3, seed=11))
    ann, bob, _cy = (table.sit(n, f"key-{n}") for n in ("ann", "bob", "cy"))
    spectator, bobs = Recorder(), Recorder()
    table.watch("sam", "key-sam").subscribe(spectator)
    bob.subscribe(bobs)
    await until(lambda: table.game.view_for(0).decision_due)
    ann.decide(choice)
    # The others learn of it a moment later (see MARKS_DELAY).
    await until(lambda: spectator.last.view.players[0].decided and bobs.last.view.players[0].decided)
    seen = [spectator.last, bobs.last]
    await table.close()
    return seen


async def test_spectators_and_others_never_see_a_pending_choice():
    """Until the reveal, others learn only that a player has decided: what they are sent
    after a pending Exit is exactly what they are sent after a pending Continue."""
    after_leave = await _pending_choice_as_others_see_it(Decision.LEAVE)
    after_continue = await _pending_choice_as_others_see_it(Decision.CONTINUE)
    assert after_leave[0].view.players[0].decided
    assert after_leave == after_continue


async def test_marks_of_decisions_made_together_reach_the_others_in_one_update():
    """Whoever decides sees their choice at once; the others get the marks of choices
    made close together in one update (one frame for each of their screens), and each
    decision's event exactly once."""
    table = Table(settings(bots=(), seats=4, seed=11))
    ann, bob, cy, _dee = (table.sit(n, f"key-{n}") for n in ("ann", "bob", "cy", "dee"))
    anns, bobs, cys = Recorder(), Recorder(), Recorder()
    ann.subscribe(anns)
    bob.subscribe(bobs)
    cy.subscribe(cys)
    await until(lambda: table.game.view_for(0).decision_due)
    before = len(cys.updates)
    ann.decide(Decision.CONTINUE)
    assert anns.last.view.my_decision is Decision.CONTINUE  # at once, for ann
    bob.decide(Decision.LEAVE)
    assert bobs.last.view.my_decision is Decision.LEAVE
    assert len(cys.updates) == before  # cy is told a moment later...
    await until(lambda: len(cys.updates) > before)
    await asyncio.sleep(0.3)  # (long enough for a second update, if one were sent)
    assert len(cys.updates) == before + 1  # ...of both at once
    marks = [p.decided for p in cys.last.view.players]
    assert marks == [True, True, False, False]
    made = [e.seat for e in cys.events() if isinstance(e, DecisionMade)]
    assert made == [0, 1]
    assert [e.seat for e in anns.events() if isinstance(e, DecisionMade)] == [0, 1]
    await table.close()


async def test_whoever_decided_alone_is_not_sent_the_others_marks_update():
    """The marks go out to the others a moment after a choice; whoever made it has seen
    it already, and their screen is not sent the same table again."""
    table = Table(settings(bots=(), seats=3, seed=11))
    ann, bob, _cy = (table.sit(n, f"key-{n}") for n in ("ann", "bob", "cy"))
    anns, bobs = Recorder(), Recorder()
    ann.subscribe(anns)
    bob.subscribe(bobs)
    await until(lambda: table.game.view_for(0).decision_due)
    ann_before, bob_before = len(anns.updates), len(bobs.updates)
    ann.decide(Decision.CONTINUE)
    assert len(anns.updates) == ann_before + 1  # her choice, at once
    await until(lambda: len(bobs.updates) > bob_before)  # the mark, a moment later
    assert bobs.last.view.players[0].decided
    await asyncio.sleep(0.3)
    assert len(anns.updates) == ann_before + 1
    # A line of chat put off meanwhile still reaches everyone, ann too.
    bob.decide(Decision.LEAVE)
    ann.say("hello")
    await until(lambda: any(line.text == "hello" for line in anns.last.chat))
    await table.close()


async def test_a_rounds_start_reaches_everyone_with_its_first_card():
    """A round's start and its first card come in one update (one frame for each screen,
    where there were two within milliseconds), the game's first round as well; from the
    second on, after the round's end in an update of its own; no event is lost or sent
    twice, nor sent after a first update that showed it already."""
    table = Table(settings(seed=5))
    ann = table.sit("ann", "key-ann")
    rec, sam = Recorder(), Recorder()
    ann.subscribe(rec)
    table.watch("sam", "key-sam").subscribe(sam)
    while table.status is not TableStatus.FINISHED:
        await until(lambda: table.status is TableStatus.FINISHED or rec.asks())
        if table.status is not TableStatus.FINISHED:
            ann.decide(Decision.LEAVE)
            rec.answered()
    for seen in (rec, sam):
        # The game began as ann sat down, before anyone listened: their first update
        # shows its first round begun, and tells its start as what came before it; that
        # start never reaches them after it (it was read twice, the second time with
        # the first card).
        first = seen.updates[0]
        assert first.view.round == 1 and not first.view.path and not first.events
        assert [type(e) for e in first.earlier] == [RoundStarted]
        assert all(not update.earlier for update in seen.updates[1:])
        starts = [u for u in seen.updates if any(isinstance(e, RoundStarted) for e in u.events)]
        assert [e.round for u in starts for e in u.events if isinstance(e, RoundStarted)] \
            == [2, 3, 4, 5]
        for update in starts:
            kinds = [type(e) for e in update.events]
            assert kinds == [RoundStarted, CardRevealed], kinds
            assert update.view.round == update.events[0].round and len(update.view.path) == 1
        steps = (RoundStarted, CardRevealed, DecisionsRevealed, GameEnded)
        assert ([e for e in first.earlier + tuple(seen.events()) if isinstance(e, steps)]
                == [e for e in table.game.events if isinstance(e, steps)])
    await table.close()


async def test_the_seat_that_fills_a_table_reaches_the_others_with_the_games_first_card():
    """Whoever sits in the last free seat starts the game: the people already seated and
    the spectators learn of them, of the game's start and of its first card in one update
    (one frame for each screen), not in three within milliseconds."""
    table = Table(settings(bots=("cards:3",), seats=3, seed=11, pace=0.05))
    ann = table.sit("ann", "key-ann")
    anns, sam = Recorder(), Recorder()
    ann.subscribe(anns)
    table.watch("sam", "key-sam").subscribe(sam)
    before = len(anns.updates), len(sam.updates)
    bob = table.sit("bob", "key-bob")
    assert table.status is TableStatus.PLAYING
    await until(lambda: anns.asks())
    for seen, count in zip((anns, sam), before):
        new = seen.updates[count:]
        assert len(new) == 1, [(u.status, u.events) for u in new]
        update = new[0]
        assert update.status is TableStatus.PLAYING
        assert [type(e) for e in update.events] == [RoundStarted, CardRevealed]
        assert [s.name for s in update.seats][:2] == ["ann", "bob"]
        assert len(update.view.path) == 1
    assert bob.seat == 1
    await table.close()


async def test_a_turns_choices_reach_the_decider_at_once_and_the_others_with_the_next_card():
    """The choice that ends a turn before its card is due (a pace after the last) shows at
    once to whoever made it; the others are shown the turn's choices and the card that
    follows in one update (one frame each, where there were two a pace apart), in the
    game's order."""
    table = Table(settings(bots=(), seats=3, seed=11, pace=0.2))
    ann, bob, cy = (table.sit(n, f"key-{n}") for n in ("ann", "bob", "cy"))
    anns, bobs, sam = Recorder(), Recorder(), Recorder()
    ann.subscribe(anns)
    bob.subscribe(bobs)
    table.watch("sam", "key-sam").subscribe(sam)
    await until(lambda: table.game.view_for(0).decision_due)
    ann.decide(Decision.CONTINUE)
    cy.decide(Decision.LEAVE)
    before = len(sam.updates)
    bob.decide(Decision.CONTINUE)
    assert any(isinstance(e, DecisionsRevealed) for e in bobs.last.events)  # at once
    assert bobs.last.view.my_decision is None and not bobs.last.view.decision_due
    assert not any(isinstance(e, DecisionsRevealed) for u in sam.updates[before:] for e in u.events)
    await until(lambda: table.game.view_for(0).step == 2)
    for seen in (anns, sam):
        update = next(u for u in seen.updates if any(isinstance(e, DecisionsRevealed) for e in u.events))
        kinds = [type(e) for e in update.events]
        assert kinds[-1] is CardRevealed and kinds.index(DecisionsRevealed) < len(kinds) - 1, kinds
        assert update.view.step == 2 and update.view.decision_due == (seen is anns)
    told_each_step_once(table, anns, bobs, sam)
    await table.close()


async def all_but_cy_decided(**table_options) -> tuple[Table, Member, Recorder, Recorder]:
    """A table of three people at a pace of 0 whose first turn waits on cy alone: the
    table, cy, and what ann and cy were sent."""
    table = Table(settings(bots=(), seats=3, seed=11, pace=0), **table_options)
    ann, bob, cy = (table.sit(n, f"key-{n}") for n in ("ann", "bob", "cy"))
    anns, cys = Recorder(), Recorder()
    ann.subscribe(anns)
    cy.subscribe(cys)
    await until(lambda: table.game.view_for(0).decision_due)
    ann.decide(Decision.CONTINUE)
    bob.decide(Decision.CONTINUE)
    return table, cy, anns, cys


async def test_whoever_ends_a_turn_sees_it_with_the_card_once_the_card_is_due():
    """Once the pace allows the next card, the choice that ends a turn reaches whoever made
    it with that card, in one update like everyone else's: two a few milliseconds apart
    were two frames, and two caves to draw for the table."""
    table, cy, anns, cys = await all_but_cy_decided()
    before = len(cys.updates)
    cy.decide(Decision.LEAVE)  # ends the turn
    assert len(cys.updates) == before  # not alone...
    await until(lambda: len(cys.updates) > before)
    await asyncio.sleep(CARD_GRACE * 2)  # (time for a second update, if one were sent)
    assert len(cys.updates) == before + 1  # ...but with the card
    kinds = [type(e) for e in cys.last.events]
    assert DecisionsRevealed in kinds and kinds[-1] is CardRevealed, kinds
    assert cys.last.view.step == 2 and not cys.last.view.decision_due
    told_each_step_once(table, anns, cys)
    for seen in (anns, cys):
        assert [e.seat for e in seen.events() if isinstance(e, DecisionMade)] == [0, 1, 2]
    await table.close()


async def test_whoever_ends_a_turn_sees_it_alone_when_the_card_is_late():
    """Should the card be late (its turn's choices are slow to save), whoever ended the
    turn is shown their choice alone after CARD_GRACE, and not again with the card."""
    gate = asyncio.Event()
    gate.set()

    async def save(snapshot: dict) -> None:
        await gate.wait()

    table, cy, anns, cys = await all_but_cy_decided(save=save)
    gate.clear()  # the disk is slow from now on
    before, anns_before = len(cys.updates), len(anns.updates)
    loop = asyncio.get_running_loop()
    chosen = loop.time()
    cy.decide(Decision.LEAVE)
    await until(lambda: len(cys.updates) > before)
    assert loop.time() - chosen >= CARD_GRACE * 0.9
    alone = cys.last
    assert any(isinstance(e, DecisionsRevealed) for e in alone.events)
    assert alone.view.step == 1 and not alone.view.decision_due  # no card yet
    assert len(anns.updates) == anns_before  # the others see the choices with the card
    gate.set()
    await until(lambda: cys.last.view.step == 2 and anns.last.view.step == 2)
    assert not any(isinstance(e, DecisionsRevealed) for e in cys.last.events)
    told_each_step_once(table, anns, cys)
    for seen in (anns, cys):
        assert [e.seat for e in seen.events() if isinstance(e, DecisionMade)] == [0, 1, 2]
    await table.close()


async def test_a_turn_longer_than_the_pace_is_followed_by_its_card_at_once():
    """The pace is the least time from one card to the next: once people took longer than
    that to choose, the next card comes with their choices, not a pace after them."""
    table = Table(settings(bots=(), seats=3, seed=11, pace=1.0))
    ann, bob, cy = (table.sit(n, f"key-{n}") for n in ("ann", "bob", "cy"))
    anns = Recorder()
    ann.subscribe(anns)
    await until(lambda: table.game.view_for(0).decision_due)
    await asyncio.sleep(1.1)
    ann.decide(Decision.CONTINUE)
    bob.decide(Decision.CONTINUE)
    chosen = asyncio.get_running_loop().time()
    cy.decide(Decision.CONTINUE)
    await until(lambda: anns.last.view.step == 2, timeout=3)
    # A pace (1 s) after the choices before; allow for a slow machine.
    assert asyncio.get_running_loop().time() - chosen < 0.6
    await table.close()


async def test_the_timer_runs_out_and_a_computer_decides_for_the_late_seat():
    """When the decision timer runs out a computer player decides and the seat is away."""
    table = Table(settings(timer=0.05))
    ann = table.sit("ann", "key-ann")
    rec = Recorder()
    ann.subscribe(rec)
    await until(lambda: table.seats[ann.seat].away)
    assert table.seats[ann.seat].kind is SeatKind.PERSON
    await until(lambda: any(isinstance(e, DecisionsRevealed) for e in rec.events()))
    made = [e for e in rec.events() if isinstance(e, DecisionMade) and e.seat == ann.seat]
    assert made, "a computer player decided for the late person"
    ann.wake()
    assert not table.seats[ann.seat].away
    await table.close()


async def test_when_the_timer_runs_out_everyone_is_told_whose_choice_a_computer_makes():
    """ann chooses, bob lets the timer run out: both are told, as the stand-in decides,
    that bob's time ran out (not ann's: her choice was hers). Before, nothing but a seat
    shown away said it, and bob read his own choice among the turn's as if he had made
    it, or found himself in camp without having chosen to leave."""
    table = Table(settings(seats=4, bots=("cards:3", "carry:8"), timer=0.3))
    ann, bob = table.sit("ann", "key-ann"), table.sit("bob", "key-bob")
    anns, bobs = Recorder(), Recorder()
    ann.subscribe(anns)
    bob.subscribe(bobs)
    await until(lambda: anns.asks())
    ann.decide(Decision.CONTINUE)
    await until(lambda: table.seats[bob.seat].away, timeout=5)
    told = TimeRanOut((bob.seat,))
    await until(lambda: told in anns.events() and told in bobs.events(), timeout=5)
    assert not any(isinstance(e, TimeRanOut) and ann.seat in e.late for e in anns.events())
    await table.close()


async def test_a_dropped_person_is_played_by_a_computer_and_gets_the_seat_back():
    table = Table(settings())
    ann = table.sit("ann", "key-ann")
    ann.leave()
    assert table.seats[ann.seat].away and not table.seats[ann.seat].connected
    await until(lambda: table.game.round >= 2 or table.game.over)
    again = table.sit("ann again", "key-ann")
    assert again.seat == ann.seat
    assert table.seats[ann.seat].connected and not table.seats[ann.seat].away
    assert table.seats[ann.seat].name == "ann"
    await table.close()


async def test_a_newer_connection_takes_the_seat_and_the_older_one_can_do_nothing():
    table = Table(settings(bots=(), seats=3))
    old = table.sit("ann", "key-ann")
    new = table.sit("ann", "key-ann")
    assert new.seat == old.seat and new.active and not old.active
    with pytest.raises(NotAllowed, match="no longer at this table"):
        old.say("I am the old connection")
    old.leave()  # the old connection closing does not free the seat of the new one
    assert table.seats[new.seat].kind is SeatKind.PERSON and table.seats[new.seat].connected
    await table.close()


async def test_leaving_a_waiting_table_frees_the_seat():
    table = Table(settings(bots=("ev",)))
    ann = table.sit("ann", "key-ann")
    ann.leave()
    assert table.seats[ann.seat].kind is SeatKind.EMPTY
    assert table.free_seats == 2
    await table.close()


async def test_names_are_cleaned_and_a_second_person_gets_a_visible_mark():
    """Two keys never show under one name: the second "ann" is "ann²", and nobody can
    type that mark (superscript digits become plain ones)."""
    table = Table(settings(bots=(), seats=4))
    a = table.sit("ann", "k1")
    b = table.sit("ann", "k2")
    c = table.sit("ann²", "k3")
    d = table.sit("a\x1b[31mverylongname\x07withcontrols", "k4")
    names = [s.name for s in table.seats]
    assert names[a.seat] == "ann" and names[b.seat] == "ann²" and names[c.seat] == "ann2"
    assert "\x1b" not in names[d.seat] and len(names[d.seat]) <= 16
    assert len(set(names)) == 4
    await table.close()


async def test_a_spectator_never_shows_under_a_players_name():
    table = Table(settings(bots=(), seats=3))
    table.sit("vic", "k1")
    spectator = table.watch("vic", "k2")
    assert spectator.name == "vic²"
    line = spectator.say("hello")
    assert line.author == "vic²" and line.watching
    await table.close()


async def test_a_name_whose_lines_the_chat_still_shows_is_not_given_to_someone_else():
    """A guest "rude" insults the table and leaves before the game; a stranger whose
    name is also rude sits down. The chat still shows "rude: ..." to everyone: the
    newcomer shows as "rude²", so the line is not read as theirs (nor their name found
    for it by /report or /ignore). The guest, back under the same identity, is "rude"."""
    table = Table(settings(bots=(), seats=4))
    table.sit("ann", "k-ann")
    rude = table.sit("rude", "guest-1")
    rude.say("you are all idiots")
    rude.leave()
    stranger = table.sit("rude", "k-gil")
    assert stranger.name == "rude²"
    assert table.watch("rude", "k-vic").name == "rude³"  # a spectator too
    stranger.leave()
    assert table.sit("rude", "guest-1").name == "rude"  # their own lines
    await table.close()


async def test_a_computer_player_never_takes_the_name_of_lines_the_chat_still_shows():
    """A guest named Bruno, in seat 2, says something and leaves before the game; it
    starts, and the computer player for seat 2 would be Bruno: his line
    would read as the computer's. It takes another computer's name."""
    table = Table(settings(bots=(), seats=3))
    table.sit("ann", "k-ann")
    bruno = table.sit("Bruno", "guest-1")
    bruno.say("bonne chance")
    bruno.leave()
    table.start()  # (as its opener starts it early: computers in the free seats)
    names = [seat.name for seat in table.seats]
    assert "Bruno" not in names and len(set(names)) == 3, names
    await table.close()


async def test_a_full_or_running_table_turns_people_away():
    table = Table(settings())
    table.sit("ann", "k1")
    with pytest.raises(TableFull, match="watch"):
        table.sit("bob", "k2")
    await table.close()


async def test_seats_without_computer_players_wait_for_people():
    """Three friends at a table of three seats all get a seat, in the order they come."""
    table = Table(settings(seats=3, bots=()))
    seats = [table.sit(n, f"key-{n}").seat for n in ("ann", "bob", "cy")]
    assert seats == [0, 1, 2]
    assert [s.kind for s in table.seats] == [SeatKind.PERSON] * 3
    assert table.status is TableStatus.PLAYING
    await table.close()


async def test_the_creator_can_start_early_with_computer_players():
    table = Table(settings(seats=5, bots=("cards:4",), filler="carry:12"), creator="k1")
    ann = table.sit("ann", "k1")
    rec = Recorder()
    ann.subscribe(rec)
    assert table.status is TableStatus.WAITING
    assert rec.last.may_start and rec.last.people_awaited == 3
    ann.start_now()
    assert table.status is TableStatus.PLAYING
    assert [s.bot for s in table.seats] == [None, "carry:12", "carry:12", "carry:12", "cards:4"]
    await table.close()


async def test_only_the_creator_starts_early_and_never_a_spectator():
    table = Table(settings(seats=5, bots=()), creator="k1")
    ann = table.sit("ann", "k1")
    bob = table.sit("bob", "k2")
    sam = table.watch("sam", "k3")
    rec = Recorder()
    bob.subscribe(rec)
    assert not rec.last.may_start
    with pytest.raises(NotAllowed, match="only the person who opened"):
        bob.start_now()
    with pytest.raises(NotAllowed, match="watching"):
        sam.start_now()
    assert table.status is TableStatus.WAITING
    ann.start_now()
    assert table.status is TableStatus.PLAYING
    await table.close()


async def test_when_the_opener_leaves_before_the_game_the_first_person_seated_may_start():
    """Whoever opened a table may start it early; once they have left it before the
    game, the first person in the seats may (else those left would wait for every seat
    to be taken, which nothing told them); the opener back, the right is theirs again."""
    table = Table(settings(seats=5, bots=()), creator="k1")
    ann = table.sit("ann", "k1")
    bob, cy = table.sit("bob", "k2"), table.sit("cy", "k3")
    bob_rec, cy_rec = Recorder(), Recorder()
    bob.subscribe(bob_rec)
    cy.subscribe(cy_rec)
    assert not bob_rec.last.may_start and cy_rec.last.starter == ann.seat
    ann.leave()
    assert bob_rec.last.may_start and not cy_rec.last.may_start
    assert cy_rec.last.starter == bob.seat and cy_rec.last.creator is None
    with pytest.raises(NotAllowed, match="first person seated"):
        cy.start_now()
    ann = table.sit("ann", "k1")
    assert not bob_rec.last.may_start and cy_rec.last.starter == ann.seat
    ann.leave()
    bob.start_now()
    assert table.status is TableStatus.PLAYING
    await table.close()


async def test_chat_is_cleaned_cut_and_rate_limited_per_person():
    table = Table(settings())
    ann = table.sit("ann", "k1")
    bob = table.watch("bob", "k2")
    line = ann.say("hello\x1b[2J " + "x" * 300)
    assert "\x1b" not in line.text and len(line.text) == 200
    for _ in range(CHAT_BURST - 1):
        ann.say("hi")
    with pytest.raises(ChatRejected, match="at most 5 lines every 10 s each"):
        ann.say("one too many")
    bob.say("others may still talk")
    with pytest.raises(ChatRejected, match="empty"):
        bob.say("\x00\x07  ")
    await table.close()


async def test_every_action_is_checked_on_the_table_side():
    """A spectator may only chat and leave; a seat acts only for itself; a member made
    anywhere but by this table is refused."""
    table = Table(settings(seats=3, bots=("cards:3",)), creator="k1")
    ann = table.sit("ann", "k1")
    bob = table.sit("bob", "k2")
    sam = table.watch("sam", "k3")
    await until(lambda: table.game.view_for(0).decision_due)
    for intent in (lambda: sam.decide(Decision.LEAVE), sam.vote_rematch, sam.start_now):
        with pytest.raises(NotAllowed, match="watching"):
            intent()
    with pytest.raises(NotAllowed):
        bob.start_now()
    with pytest.raises(NotAllowed, match="over"):
        ann.vote_rematch()
    forged = Member(table, 0, "k3", "ann")
    with pytest.raises(NotAllowed, match="no longer at this table"):
        forged.decide(Decision.LEAVE)
    assert not table.game.view_for(0).players[0].decided
    sam.say("watching is fine")
    bob.decide(Decision.LEAVE)
    assert table.game.view_for(1).my_decision is Decision.LEAVE
    assert table.game.view_for(0).my_decision is None
    await table.close()


async def _finished(table: Table) -> None:
    await until(lambda: table.status is TableStatus.FINISHED, timeout=60)


async def test_a_rematch_starts_when_every_person_has_voted():
    """Each connected person votes; computer players and away seats do not block it, and
    everyone is told who has voted. The rematch keeps the same seats, but for whoever
    left the table: a computer player's of its own takes theirs."""
    table = Table(settings(seats=5, bots=("cards:2", "cards:3"), timer=0.01), creator="k1")
    ann, bob, cy = (table.sit(n, f"k-{n}") for n in ("ann", "bob", "cy"))
    watcher = Recorder()
    table.watch("sam", "k-sam").subscribe(watcher)
    await _finished(table)
    for person in (ann, bob, cy):
        person.wake()  # back at the keyboard after the timer played for them
    cy.leave()  # gone: does not block the rematch
    seats_before = table.seats
    first = table.game
    ann.vote_rematch()
    assert table.status is TableStatus.FINISHED
    await until(lambda: watcher.last.rematch_votes == {ann.seat})  # within MARKS_DELAY
    assert watcher.last.rematch_voters == {ann.seat, bob.seat}
    bob.vote_rematch()
    assert table.status is TableStatus.PLAYING and table.game is not first
    after = table.seats
    kept = [i for i in range(5) if i != cy.seat]
    assert [(after[i].name, after[i].kind, after[i].bot) for i in kept] == [
        (seats_before[i].name, seats_before[i].kind, seats_before[i].bot) for i in kept]
    assert after[cy.seat].kind is SeatKind.BOT and after[cy.seat].name != "cy"
    assert after[cy.seat].bot == table.settings.filler and not after[cy.seat].away
    # Told with the new game's first card (the game's start goes out with it), and
    # first who took whose seat.
    await until(lambda: watcher.last.status is TableStatus.PLAYING)
    assert watcher.last.rematch_votes == frozenset()
    assert [type(e) for e in watcher.last.events] == [SeatGivenToComputer, RoundStarted,
                                                      CardRevealed]
    assert watcher.last.events[0] == SeatGivenToComputer(cy.seat, "cy", after[cy.seat].name)
    await table.close()


def first_update(member: Member) -> TableUpdate:
    """The update ``member`` is sent as they subscribe (they then stop listening)."""
    got = Recorder()
    member.subscribe(got)()
    return got.updates[0]


def told_first(update: TableUpdate, event, *, round: int) -> bool:
    """Whether ``update`` tells ``event`` again, then the round ``round`` so far."""
    earlier = update.earlier
    return (earlier[:1] == (event,) and isinstance(earlier[1], RoundStarted)
            and earlier[1].round == round)


async def test_whoever_arrives_during_a_rematch_is_told_who_took_whose_seat():
    """bob left after the game; the rematch gives his seat to a computer player. A
    spectator who arrives before the rematch's first card, one who arrives in its
    second round, ann back at her seat then, and ann back after a restart are each
    told, before the round so far, that it took bob's seat, as everyone at the table
    was told as it began: the table's own event, which was not among the game's
    events told again to whoever arrives."""
    table = Table(settings(bots=("cards:2",), timer=None))
    ann, bob = table.sit("ann", "k-ann"), table.sit("bob", "k-bob")
    await asyncio.gather(*(play_out(p, lambda view: Decision.LEAVE) for p in (ann, bob)))
    bob.leave()
    ann.vote_rematch()  # the only person left: the rematch begins, its first card to come
    given = SeatGivenToComputer(bob.seat, "bob", table.seats[bob.seat].name)
    early = first_update(table.watch("sam", "k-sam"))
    assert told_first(early, given, round=1), early.earlier
    # ann goes home at once in round 1, and is asked in round 2 (the game waits there).
    asked_in = asyncio.get_running_loop().create_future()

    def ann_plays(update: TableUpdate) -> None:
        view = update.view
        if view is not None and view.decision_due and view.my_decision is None:
            if view.round == 1:
                asyncio.get_running_loop().call_soon(ann.decide, Decision.LEAVE)
            elif not asked_in.done():
                asked_in.set_result(view.round)

    ann.subscribe(ann_plays)
    assert await asyncio.wait_for(asked_in, 20) == 2
    late = first_update(table.watch("tom", "k-tom"))
    back = first_update(table.sit("ann", "k-ann"))
    for update in (late, back):
        assert told_first(update, given, round=2), update.earlier
    restored = Table.restore(table.snapshot(), wait=60)
    after_restart = first_update(restored.sit("ann", "k-ann"))
    assert told_first(after_restart, given, round=2), after_restart.earlier
    await restored.close()
    await table.close()


async def test_a_vote_reaches_its_voter_at_once_and_the_others_within_the_marks_delay():
    """As a decision's mark: whoever votes for a rematch sees it at once, the others with
    the next update, at the latest the marks' delay later (votes come close together as
    a game ends, and each was a frame for every screen at the table). The vote that
    completes the agreement, or the departure of the last person who had not voted,
    starts the rematch: nobody gets an update of it alone (a frame that the new game's
    first card replaced a moment later), only the new game with its first card."""
    table = Table(settings(seats=5, bots=("cards:2", "cards:3"), timer=0.01), creator="k1",
                  marks_delay=0.3)
    ann, bob, cy = (table.sit(n, f"k-{n}") for n in ("ann", "bob", "cy"))
    seen = {name: Recorder() for name in ("ann", "bob", "sam")}
    ann.subscribe(seen["ann"])
    bob.subscribe(seen["bob"])
    table.watch("sam", "k-sam").subscribe(seen["sam"])
    await _finished(table)
    for person in (ann, bob, cy):
        person.wake()
    await asyncio.sleep(0.4)  # (the wakes' updates are put off too)
    count = {name: len(r.updates) for name, r in seen.items()}

    def new(name: str) -> list:
        return [u.rematch_votes for u in seen[name].updates[count[name]:]]

    ann.vote_rematch()
    bob.vote_rematch()
    assert new("ann") == [{ann.seat}] and new("bob") == [{ann.seat, bob.seat}]
    assert new("sam") == []
    await until(lambda: new("sam"))
    assert new("sam") == [{ann.seat, bob.seat}]
    assert new("ann") == [{ann.seat}, {ann.seat, bob.seat}]
    assert new("bob") == [{ann.seat, bob.seat}], "nothing new for whoever saw it all"
    count = {name: len(r.updates) for name, r in seen.items()}
    cy.vote_rematch()
    watcher = seen["sam"]
    await until(lambda: watcher.last.status is TableStatus.PLAYING)
    assert [type(e) for e in watcher.last.events] == [RoundStarted, CardRevealed]
    assert len(watcher.updates) == count["sam"] + 1, [u.status for u in watcher.updates[count["sam"]:]]
    await _finished(table)
    for person in (ann, bob, cy):
        person.wake()
    ann.vote_rematch()
    bob.vote_rematch()
    await asyncio.sleep(0.4)
    count = len(watcher.updates)
    cy.leave()  # the last one who had not voted
    await until(lambda: watcher.last.status is TableStatus.PLAYING)
    assert len(watcher.updates) == count + 1, [u.status for u in watcher.updates[count:]]
    assert watcher.last.seats[cy.seat].kind is SeatKind.BOT  # gone: not in the new game
    await table.close()


async def test_a_rematch_never_starts_on_one_persons_say_so():
    table = Table(settings(seats=4, bots=("cards:2", "cards:3"), timer=0.01), creator="k1")
    ann, bob = table.sit("ann", "k1"), table.sit("bob", "k2")
    await _finished(table)
    ann.wake()
    bob.wake()
    ann.vote_rematch()
    ann.vote_rematch()
    assert table.status is TableStatus.FINISHED
    bob.leave()  # the last one who had not voted goes: the others agree
    assert table.status is TableStatus.PLAYING
    await table.close()


async def test_a_table_of_computer_players_can_be_restarted_by_its_host():
    table = Table(settings(bots=("cards:3", "carry:8", "cards:2"), seats=3))
    table.start()
    await _finished(table)
    first = table.game
    table.rematch()
    assert table.game is not first and table.status is TableStatus.PLAYING
    await _finished(table)
    await table.close()


def test_impossible_settings_are_refused_with_a_reason():
    with pytest.raises(GameSetupError, match="3 to 8"):
        Table(settings(seats=9, bots=()))
    with pytest.raises(ValueError, match="unknown computer player"):
        Table(settings(bots=("wizard",)))


@pytest.mark.parametrize("kw, words", [
    ({"timer": 1e9}, "the decision timer must be more than 0 and at most 600 seconds, "
                     "not 1e+09."),
    ({"timer": 0}, "the decision timer must be more than 0 and at most 600 seconds, not 0."),
    ({"pace": 1e9}, "the pace must be 0 to 10 seconds from one card to the next, not 1e+09."),
    ({"pace": -1}, "the pace must be 0 to 10 seconds from one card to the next, not -1."),
])
def test_a_timer_or_pace_no_game_could_use_is_refused(kw, words):
    """A timer of 1e9 seconds drew a countdown of ten digits, cut, in a corner of nine
    cells; a pace of 1e9 turned the next card in 31 years."""
    with pytest.raises(GameSetupError) as refused:
        Table(settings(**kw))
    assert str(refused.value) == words


async def test_a_person_keeps_their_name_beside_a_computer_player_of_that_name():
    """A person's name is theirs at the table: a computer player already seated under it
    takes another computer's name (Bruno, sitting at a table where the computer of seat 2
    was Bruno, read himself as "Bruno²" beside the computer "Bruno"). Only another
    person showing under a name marks the newcomer's."""
    table = Table(TableSettings(name="t", seats=4, bots=("cards:3",) * 3, pace=0, seed=1))
    bots = [s.name for s in table.seats if s.kind is SeatKind.BOT]
    assert "Bruno" in bots
    table.sit("Bruno", "key:bruno")
    names = [s.name for s in table.seats]
    assert names[0] == "Bruno" and names.count("Bruno") == 1, names
    assert all(n[-1] not in "²³⁴" for n in names), names  # the computer took a name unmarked
    assert len({n.casefold() for n in names}) == 4, names
    await table.close()

    people = Table(TableSettings(name="p", seats=3, pace=0, seed=1))
    people.sit("ann", "key:ann")
    people.sit("ann", "key:other")
    assert [s.name for s in people.seats][:2] == ["ann", "ann²"]  # people: as before
    await people.close()


async def _ann_asks_for_a_rematch_and_bob_goes(return_wait: float, *, lost: bool):
    """A finished game of ann, bob and two computer players; ann asks for a rematch and
    bob's connection is lost (``lost``) or he leaves: (the table, bob)."""
    table = Table(settings(seats=4, bots=("cards:2", "cards:3"), timer=0.01), creator="k1",
                  return_wait=return_wait)
    ann, bob = table.sit("ann", "k1"), table.sit("bob", "k2")
    await _finished(table)
    ann.wake()
    bob.wake()
    ann.vote_rematch()
    if lost:
        bob.drop()
    else:
        bob.leave()
    return table, bob


async def test_a_connection_lost_at_the_final_scores_keeps_the_seat_for_the_rematch_a_while():
    """A rematch is for those who stayed, but a connection lost is not leaving: the
    rematch waits for its person (``return_wait`` seconds), who comes back to the final
    scores, asks for it, and plays it in their own seat."""
    table, bob = await _ann_asks_for_a_rematch_and_bob_goes(30, lost=True)
    # His connection is lost: the rematch does not start without him.
    assert table.status is TableStatus.FINISHED
    assert table.awaits("k2") == bob.seat and table.awaits("k1") is None
    back = table.sit("bob", "k2")
    assert back.seat == bob.seat and table.status is TableStatus.FINISHED
    back.vote_rematch()
    assert table.status is TableStatus.PLAYING
    assert table.seats[bob.seat].kind is SeatKind.PERSON and table.seats[bob.seat].name == "bob"
    await table.close()


async def test_a_seat_kept_after_a_lost_connection_goes_to_a_computer_once_the_wait_is_over():
    """Whoever does not come back within the wait is waited on no more: the rematch the
    others asked for begins, a computer player of its own in their seat. Leaving with
    ``q`` keeps nothing."""
    table, bob = await _ann_asks_for_a_rematch_and_bob_goes(0.2, lost=True)
    assert table.status is TableStatus.FINISHED
    await until(lambda: table.status is TableStatus.PLAYING, timeout=5)
    assert table.seats[bob.seat].kind is SeatKind.BOT and table.awaits("k2") is None
    await table.close()

    table, bob = await _ann_asks_for_a_rematch_and_bob_goes(30, lost=False)
    # Chosen: the rematch starts at once.
    assert table.status is TableStatus.PLAYING
    await table.close()
