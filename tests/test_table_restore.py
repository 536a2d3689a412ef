"""A table saved as it goes and rebuilt after a restart: it goes on to the same end."""

from __future__ import annotations

import asyncio
import copy
import json
import logging

import pytest

from diamant_tui.engine.view import Decision, Phase
from diamant_tui.table import SeatKind, Table, TableSettings, TableStatus
from diamant_tui.table.journal import GATHER
from diamant_tui.table.snapshot import SnapshotError, _rng_from_json

from playing import until

BOTS = ("carry:12", "cards:4", "hazards:2")


class Disk:
    """Keeps every snapshot a table hands over, as JSON text (as a database would)."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.choices: list[str] = []
        """The turns' choices saved alone (by a table given :meth:`save_choices`)."""

    async def save(self, snapshot: dict) -> None:
        await asyncio.sleep(0)  # a write completes later, as a real one does
        self.kept.append(json.dumps(snapshot))
        self.choices.clear()  # a database replaces them with the snapshot

    async def save_choices(self, choices: dict) -> None:
        await asyncio.sleep(0)
        self.choices.append(json.dumps(choices))


def rounds_of(table: Table) -> list:
    return table.record()["rounds"]


async def play_out(table: Table) -> None:
    await until(lambda: table.status is TableStatus.FINISHED)


async def two_people_deciding(disk: Disk):
    """A table of ann, bob and one computer player saving to ``disk``, at its first
    decision; returns the table and ann's place at it."""
    table = Table(TableSettings(name="t", seats=3, bots=BOTS[:1], pace=0, seed=3),
                  save=disk.save)
    ann = table.sit("ann", "key:ann")
    table.sit("bob", "key:bob")
    await until(lambda: table.game is not None and table.game.phase is Phase.DECISION)
    return table, ann


async def computers_game(seed: int) -> tuple[Disk, list]:
    """A whole game of computer players saved to a disk: the disk, and its rounds."""
    disk = Disk()
    table = Table(TableSettings(name="t", seats=3, bots=BOTS, pace=0, seed=seed), save=disk.save)
    table.start()
    await play_out(table)
    await table.close()
    return disk, rounds_of(table)


async def rebuilt_rounds(saved: dict) -> list:
    """The rounds of the game rebuilt from ``saved`` and played out."""
    again = Table.restore(saved, wait=30)
    await play_out(again)
    await again.close()
    return rounds_of(again)


async def test_a_table_of_computers_rebuilt_from_any_save_ends_as_it_would_have():
    disk, whole = await computers_game(11)
    assert len(disk.kept) > 10
    # Rebuilt from saves all through the game (cards drawn, turns half done), each goes on
    # to exactly the same game.
    for text in disk.kept[1::max(1, len(disk.kept) // 7)]:
        assert await rebuilt_rounds(json.loads(text)) == whole


async def test_a_decision_made_before_the_restart_stays_made_and_secret():
    disk = Disk()
    table, ann = await two_people_deciding(disk)
    ann.decide(Decision.LEAVE)
    await table.saved()
    saved = json.loads(disk.kept[-1])
    await table.close()

    again = Table.restore(saved, wait=30)
    game = again.game
    turn = (game.round, game.step)
    assert game is not None and game.pending[0] is Decision.LEAVE and 1 not in game.pending
    # bob sees that ann has decided, not what.
    view = game.view_for(1)
    assert view.players[0].decided and "leave" not in repr(view.players[0]).lower()
    # The game waits for its people: nothing moves until both are back.
    bob_again = again.sit("bob", "key:bob")
    await asyncio.sleep(0.05)
    assert again.game.phase is Phase.DECISION and again.game.pending == game.pending
    again.sit("ann", "key:ann")
    bob_again.decide(Decision.CONTINUE)
    await until(lambda: (game.round, game.step) > turn)
    await again.close()


async def test_people_not_back_in_time_are_played_for():
    disk = Disk()
    table = Table(TableSettings(name="t", seats=3, bots=BOTS[:2], pace=0, seed=5),
                  save=disk.save)
    table.sit("ann", "key:ann")
    await until(lambda: table.game is not None and table.game.phase is Phase.DECISION)
    await table.saved()
    saved = json.loads(disk.kept[-1])
    await table.close()

    again = Table.restore(saved, wait=0.05)
    ann_seat = again.seats[0]
    assert ann_seat.kind is SeatKind.PERSON and not ann_seat.connected
    await play_out(again)
    assert again.seats[0].away
    await again.close()


@pytest.mark.parametrize("damage", [
    lambda s: s.update(format="something else"),
    lambda s: s["seats"].pop(),
    lambda s: s["game"]["record"]["rounds"][0]["cards"].insert(0, "T99"),
    lambda s: s.update(settings="nonsense"),
    lambda s: s["game"]["rng"].update(state="not base64!"),
])
async def test_a_damaged_save_is_refused_with_a_reason(damage):
    disk = Disk()
    table = Table(TableSettings(name="t", seats=3, bots=BOTS, pace=0, seed=1), save=disk.save)
    table.start()
    await until(lambda: len(disk.kept) > 3)
    await table.close()
    saved = json.loads(disk.kept[-1])
    broken = copy.deepcopy(saved)
    damage(broken)
    with pytest.raises(SnapshotError):
        Table.restore(broken, wait=1)


async def test_chat_saves_nothing_a_decision_saves_the_table():
    """Chat is not kept, so a line said (and the update that carries it) costs no save."""
    disk = Disk()
    table, ann = await two_people_deciding(disk)
    # The computer player decides in a thread of its own, and its decision is saved:
    # counted before it came, that save would be taken for the chat's.
    await until(lambda: 2 in table.game.pending)
    await table.saved()
    saves = len(disk.kept)
    for line in ("hello", "good luck"):
        ann.say(line)
    await asyncio.sleep(1.0)  # longer than chat is gathered for
    await table.saved()
    assert len(disk.kept) == saves
    ann.decide(Decision.LEAVE)
    await table.saved()
    assert len(disk.kept) > saves
    await table.close()


def _as_first_format(saved: dict) -> dict:
    """``saved`` as the first format wrote it: each generator's state a list of numbers."""
    old = copy.deepcopy(saved)
    old["format"] = "diamant-table/1"
    for holder in (old, old["game"]):
        version, internal, gauss = _rng_from_json(holder["rng"]).getstate()
        holder["rng"] = [version, list(internal), gauss]
    return old


async def test_a_save_holds_its_generators_packed_and_one_of_the_first_format_still_restores():
    """The generators' states are packed (a save went from about 17 KB to under 9 KB), and
    a table saved by the first format (lists of numbers) is rebuilt to the same end."""
    disk, whole = await computers_game(5)
    middle = disk.kept[len(disk.kept) // 2]
    assert len(middle) < 9000, len(middle)
    saved = json.loads(middle)
    assert saved["game"] is not None and saved["game"]["record"]["rounds"]
    for form in (saved, _as_first_format(saved)):
        assert await rebuilt_rounds(form) == whole


async def test_a_choice_is_saved_as_progress_after_its_turns_snapshot_and_restored_with_it():
    """A choice that does not end its turn saves the game's progress since the last
    snapshot, a few hundred bytes, not the whole table; rebuilt from the snapshot and that
    progress, the choice stays made, secret. The card that follows is progress too."""
    disk = Disk()
    table = Table(TableSettings(name="t", seats=3, bots=BOTS[:1], pace=0, seed=3),
                  save=disk.save, save_choices=disk.save_choices)
    ann = table.sit("ann", "key:ann")
    bob = table.sit("bob", "key:bob")
    await until(lambda: table.game is not None and table.game.phase is Phase.DECISION
                and 2 in table.game.pending)  # the computer player has chosen
    await table.saved()
    snapshots = len(disk.kept)
    ann.decide(Decision.LEAVE)
    await table.saved()
    assert len(disk.kept) == snapshots
    snapshot, chosen = json.loads(disk.kept[-1]), json.loads(disk.choices[-1])
    game = table.game
    assert chosen["turn"] == [0, game.round, game.step]
    assert chosen["pending"] == {"0": "leave", "2": game.pending[2].value}
    # The last snapshot was taken as the game began; since then, its first card.
    assert chosen["since"] == [0, -1, 0] and snapshot["game"]["record"]["rounds"] == []
    assert chosen["steps"] == rounds_of(table)[0]["cards"] == [game.path[0].card.code]
    assert len(disk.choices[-1]) < len(disk.kept[-1]) / 10

    again = Table.restore(snapshot, wait=30, chosen=chosen)
    assert again.game.pending[0] is Decision.LEAVE and 1 not in again.game.pending
    assert rounds_of(again) == rounds_of(table)
    await again.close()
    # Progress made after another snapshot (one whose save was lost), choices of another
    # turn, or damaged, are left out: the table is rebuilt from its snapshot alone.
    other_turn = {**chosen, "turn": [0, game.round, game.step + 1]}
    for left_out in ({**chosen, "since": [0, 0, 99]}, other_turn,
                     {"turn": chosen["turn"], "pending": "damaged"}, ["damaged"],
                     {"turn": chosen["turn"], "pending": {"0": "maybe"}}):
        again = Table.restore(snapshot, wait=30, chosen=left_out)
        assert 0 not in again.game.pending
        await again.close()

    # As the first servers saved them: the turn's choices alone, after a snapshot of
    # that turn (a database saved before an upgrade).
    of_the_turn = table.snapshot()
    of_the_turn["game"]["pending"] = {}
    first_form = {"turn": chosen["turn"], "pending": chosen["pending"]}
    again = Table.restore(of_the_turn, wait=30, chosen=first_form)
    assert again.game.pending[0] is Decision.LEAVE and rounds_of(again) == rounds_of(table)
    await again.close()

    bob.decide(Decision.CONTINUE)  # the turn's last choice: the card follows
    # A card is saved with the next choice (the computer player's, which thinks in a
    # thread of its own): until then the disk holds the choices that led to it.
    await until(lambda: game.over or game.round > 1 or (game.step > 1 and 2 in game.pending))
    await table.saved()
    if not game.over and game.round == 1:
        assert len(disk.kept) == snapshots
        after = json.loads(disk.choices[-1])
        assert after["since"] == chosen["since"]
        assert after["steps"][-1] == rounds_of(table)[0]["cards"][-1] == game.path[-1].card.code
    await table.close()


class RecordingDisk(Disk):
    """A disk that also keeps, for every progress saved, the snapshot it follows."""

    def __init__(self) -> None:
        super().__init__()
        self.states: list[tuple[str, str | None]] = []
        """Every state the disk held, in order: (snapshot, progress after it or None)."""

    async def save(self, snapshot: dict) -> None:
        await super().save(snapshot)
        self.states.append((self.kept[-1], None))

    async def save_choices(self, choices: dict) -> None:
        await super().save_choices(choices)
        self.states.append((self.kept[-1], self.choices[-1]))


@pytest.mark.parametrize("seed", [11, 12])
async def test_a_table_rebuilt_from_any_snapshot_and_progress_ends_as_it_would_have(seed):
    """Computer players' games saved as snapshots and progress: rebuilt from what the
    disk held at any moment, each game goes on to exactly the same end (the cards drawn
    again by its generator), and most saves were progress."""
    disk = RecordingDisk()
    table = Table(TableSettings(name="t", seats=3, bots=BOTS, pace=0, seed=seed),
                  save=disk.save, save_choices=disk.save_choices)
    table.start()
    await play_out(table)
    await table.close()
    whole = rounds_of(table)
    progress = [state for state in disk.states if state[1] is not None]
    assert len(progress) > 3 * (len(disk.states) - len(progress))
    for snapshot, chosen in disk.states[1::max(1, len(disk.states) // 12)]:
        again = Table.restore(json.loads(snapshot), wait=30,
                              chosen=None if chosen is None else json.loads(chosen))
        await play_out(again)
        await again.close()
        assert rounds_of(again) == whole


async def test_progress_that_the_generator_does_not_draw_again_is_refused_with_a_reason():
    disk = RecordingDisk()
    table = Table(TableSettings(name="t", seats=3, bots=BOTS, pace=0, seed=4),
                  save=disk.save, save_choices=disk.save_choices)
    table.start()
    await until(lambda: any(chosen is not None and any(isinstance(step, str) for step in
                                                       json.loads(chosen)["steps"])
                            for _, chosen in disk.states))
    await table.close()
    snapshot, chosen = next((json.loads(a), json.loads(b)) for a, b in disk.states
                            if b is not None and '"steps":["' in b.replace(" ", ""))
    card = next(i for i, step in enumerate(chosen["steps"]) if isinstance(step, str))
    chosen["steps"][card] = "T99" if chosen["steps"][card] != "T99" else "T1"
    with pytest.raises(SnapshotError, match="the generator draws"):
        Table.restore(snapshot, wait=1, chosen=chosen)


class FailingOnceDisk(RecordingDisk):
    """A disk on which the first snapshot of a game under way fails to be written."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = False

    async def save(self, snapshot: dict) -> None:
        if snapshot["game"] is not None and not self.failed:
            self.failed = True
            self.failed_at = len(self.states)
            raise OSError("disk full")
        await super().save(snapshot)


async def test_after_a_snapshot_that_could_not_be_kept_the_next_save_is_a_snapshot(caplog):
    """Progress is only ever saved after a snapshot that is on the disk."""
    disk = FailingOnceDisk()
    table = Table(TableSettings(name="t", seats=3, bots=BOTS[:1], pace=0, seed=3),
                  save=disk.save, save_choices=disk.save_choices)
    ann = table.sit("ann", "key:ann")
    table.sit("bob", "key:bob")  # the game starts: its first snapshot fails
    await until(lambda: table.game is not None and table.game.phase is Phase.DECISION)
    await table.saved()
    assert disk.failed and "could not be saved" in caplog.text
    ann.decide(Decision.LEAVE)
    await table.saved()
    # The save after the one lost is a snapshot, not progress after the snapshot lost.
    assert len(disk.states) > disk.failed_at and disk.states[disk.failed_at][1] is None
    assert json.loads(disk.states[disk.failed_at][0])["game"] is not None
    await table.close()


async def test_choices_close_together_are_one_save_and_a_card_waits_for_the_last():
    """The game's progress is gathered: two choices a moment apart go to the disk in one
    save, within GATHER, not one save each at once; the choice that ends a turn is on
    the disk before the card it leads to is turned."""
    disk = RecordingDisk()
    table = Table(TableSettings(name="t", seats=3, bots=(), pace=0, seed=3),
                  save=disk.save, save_choices=disk.save_choices)
    ann, bob, cy = (table.sit(name, f"key:{name}") for name in ("ann", "bob", "cy"))
    await until(lambda: table.game is not None and table.game.phase is Phase.DECISION)
    await table.saved()
    saves = len(disk.states)
    ann.decide(Decision.CONTINUE)
    await asyncio.sleep(0.05)
    bob.decide(Decision.CONTINUE)
    await asyncio.sleep(0.2)
    assert len(disk.states) == saves  # gathered, not saved yet
    await until(lambda: len(disk.states) > saves, GATHER * 3)
    await asyncio.sleep(0.1)
    assert len(disk.states) == saves + 1
    assert json.loads(disk.states[-1][1])["pending"] == {"0": "continue", "1": "continue"}

    game = table.game
    on_disk_at_the_card = []
    reveal = game.reveal_random

    def revealed():
        on_disk_at_the_card.append(json.loads(disk.states[-1][1]))
        return reveal()

    game.reveal_random = revealed
    cy.decide(Decision.LEAVE)
    await until(lambda: on_disk_at_the_card)
    assert on_disk_at_the_card[0]["steps"][-1] == {"0": "continue", "1": "continue",
                                                   "2": "leave"}
    await table.close()


async def saved_waiting(seats: int, people: tuple[str, ...], creator: str | None = None,
                        ) -> dict:
    """A table of ``seats`` (opened by ``creator``, an identity) waiting for its players,
    where ``people`` sat down, as its last save before a stop kept it."""
    disk = Disk()
    table = Table(TableSettings(name="t", seats=seats, pace=0, seed=5), creator=creator,
                  save=disk.save)
    for name in people:
        table.sit(name, f"key:{name}")
    await table.saved()
    saved = json.loads(disk.kept[-1])
    await table.close()
    return saved


async def test_seats_kept_at_a_rebuilt_waiting_table_are_freed_once_the_wait_is_over():
    """A waiting table rebuilt after a restart keeps the seats of those not back for
    ``wait`` seconds, then frees them for others, as if they had left; those who came
    back keep theirs. (They were kept for ever: a table full of people who never came
    back could not be joined, and was listed so.)"""
    saved = await saved_waiting(4, ("ann", "bob", "cy"), creator="key:ann")
    again = Table.restore(saved, wait=0.2)
    updates = []
    bob = again.sit("bob", "key:bob")
    bob.subscribe(updates.append)
    assert [s.kind for s in again.seats[:3]] == [SeatKind.PERSON] * 3
    await until(lambda: again.seats[0].kind is SeatKind.EMPTY)
    assert [s.kind for s in again.seats] == [SeatKind.EMPTY, SeatKind.PERSON,
                                              SeatKind.EMPTY, SeatKind.EMPTY]
    assert updates[-1].seats[0].kind is SeatKind.EMPTY  # told to those there
    assert again.free_seats == 3 and again.status is TableStatus.WAITING
    assert again.seat_of("key:ann") is None and again.seat_of("key:bob") == 1
    # The right to start the game goes to the one person there, as when people leave.
    assert updates[-1].starter == 1
    dan = again.sit("dan", "key:dan")
    assert dan.seat == 0
    await again.close()


async def test_a_rebuilt_waiting_table_whose_game_began_frees_nobody_at_the_wait_end():
    """Begun before the wait is over, the game plays for those not back (see below):
    the wait's end takes no seat from them."""
    saved = await saved_waiting(3, ("ann", "bob"))
    again = Table.restore(saved, wait=0.2)
    again.sit("ann", "key:ann")
    again.sit("carl", "key:carl")  # the last seat: the game begins, bob not back
    await until(lambda: again.game is not None)
    await asyncio.sleep(0.4)
    assert again.seats[1].kind is SeatKind.PERSON and again.seat_of("key:bob") == 1
    await again.close()


async def test_a_game_begun_at_a_rebuilt_table_plays_for_those_not_back():
    """A waiting table rebuilt after a restart keeps its people's seats for them; if its
    game begins before one of them is back (its last seat taken), a computer plays for
    them until they are, as for anyone away: the game never waits on someone who is not
    there, shown as still choosing."""
    saved = await saved_waiting(3, ("ann", "bob"))

    again = Table.restore(saved, wait=30)
    assert again.status is TableStatus.WAITING
    ann = again.sit("ann", "key:ann")
    carl = again.sit("carl", "key:carl")  # the last seat: the game begins, bob not back
    await until(lambda: again.game is not None and again.game.phase is Phase.DECISION)
    assert again.seats[1].away and not again.seats[1].connected
    game = again.game
    turn = (game.round, game.step)
    ann.decide(Decision.CONTINUE)
    carl.decide(Decision.CONTINUE)
    await until(lambda: (game.round, game.step) > turn)
    # bob, back, has his seat again, and plays it himself.
    again.sit("bob", "key:bob")
    assert not again.seats[1].away and again.seats[1].connected
    await again.close()


async def finished_with_votes(disk: Disk, voters: tuple[str, ...]) -> dict:
    """A table of ann, bob and carl played to its final scores, where ``voters`` asked
    for a rematch; returns its last save."""
    from playing import play_out as play_seat

    table = Table(TableSettings(name="t", seats=3, pace=0, seed=5), save=disk.save)
    members = {name: table.sit(name, f"key:{name}") for name in ("ann", "bob", "carl")}
    await asyncio.gather(*(play_seat(m, lambda view: Decision.LEAVE)
                           for m in members.values()))
    for name in voters:
        members[name].vote_rematch()
    await table.saved()
    saved = json.loads(disk.kept[-1])
    await table.close()
    assert saved["status"] == TableStatus.FINISHED.value
    return saved


async def test_a_rematch_asked_for_before_a_restart_keeps_the_seat_of_those_not_back(
        caplog):
    """The restart is not their leaving: bob asked for the rematch, then the server
    restarted; the others asking for it once back began it with his seat given to a
    computer player for good, and him back a moment later found a game going on without
    him. His seat is kept for him, a computer playing it until he is back, as in a game
    rebuilt after a restart."""
    saved = await finished_with_votes(Disk(), ("ann", "bob"))
    again = Table.restore(saved, wait=30)
    ann = again.sit("ann", "key:ann")
    carl = again.sit("carl", "key:carl")
    carl.vote_rematch()
    await until(lambda: again.status is TableStatus.PLAYING)
    assert [s.kind for s in again.seats] == [SeatKind.PERSON] * 3
    assert again.seat_of("key:bob") == 1 and again.seats[1].away
    assert ann.seat == 0 and carl.seat == 2
    bob = again.sit("bob", "key:bob")
    assert bob.seat == 1 and not again.seats[1].away and again.seats[1].connected
    # One game going on, played to its end (him back, the restart's wait was over).
    from playing import play_out as play_seat

    with caplog.at_level(logging.WARNING):
        await asyncio.gather(*(play_seat(m, lambda view: Decision.LEAVE)
                               for m in (ann, bob, carl)))
    assert len(rounds_of(again)) == 5 and "result" in again.record()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    await again.close()


async def test_a_rematch_at_a_rebuilt_table_waits_for_those_not_back_to_answer():
    """Someone who had not answered when the server stopped is waited on, once back,
    as the others are: the rematch does not begin without their say while they have not
    had the time to come back."""
    saved = await finished_with_votes(Disk(), ("ann",))
    again = Table.restore(saved, wait=30)
    again.sit("ann", "key:ann")
    carl = again.sit("carl", "key:carl")
    carl.vote_rematch()
    await asyncio.sleep(0.05)
    assert again.status is TableStatus.FINISHED, "it waits for bob"
    bob = again.sit("bob", "key:bob")
    assert again.status is TableStatus.FINISHED
    bob.vote_rematch()
    await until(lambda: again.status is TableStatus.PLAYING)
    assert [s.kind for s in again.seats] == [SeatKind.PERSON] * 3
    assert not any(s.away for s in again.seats)
    await again.close()


async def test_a_rematch_at_a_rebuilt_table_goes_on_without_those_not_back_in_time():
    """Past the wait, those not back are no longer waited on, as in a game: the rematch
    the others asked for begins, a computer player taking the seat of each."""
    saved = await finished_with_votes(Disk(), ("ann",))
    again = Table.restore(saved, wait=0.2)
    ann = again.sit("ann", "key:ann")
    carl = again.sit("carl", "key:carl")
    carl.vote_rematch()
    assert again.status is TableStatus.FINISHED, "it waits for bob"
    await until(lambda: again.status is TableStatus.PLAYING)
    assert again.seats[1].kind is SeatKind.BOT
    assert ann.seat == 0


async def test_a_rebuilt_waiting_table_is_started_by_the_first_person_back():
    """"If they leave before the game, the first person in the seats may start it, until
    they come back": after a restart, the person who opened a waiting table is not there
    until they are back, and the first person there may start it meanwhile. (Its opener,
    never back, kept that right: the screen said they could start it now, and nobody at
    the table could, waiting for every seat to be taken.)"""
    saved = await saved_waiting(4, ("ann", "bob"), creator="key:ann")

    again = Table.restore(saved, wait=30)
    assert again.status is TableStatus.WAITING
    carl = again.sit("carl", "key:carl")
    assert again.starter_seat == carl.seat == 2  # ann and bob not back: carl, who is
    bob = again.sit("bob", "key:bob")
    assert again.starter_seat == bob.seat == 1  # the first person in the seats who is there
    ann = again.sit("ann", "key:ann")
    assert again.starter_seat == ann.seat == 0  # and the opener's own, once back
    await again.close()


async def test_a_rebuilt_waiting_table_may_be_started_by_someone_there():
    """The first person back starts the rebuilt waiting table: computer players take the
    seats still free, and a computer plays for the people not back yet, until they are."""
    saved = await saved_waiting(3, ("ann",), creator="key:ann")

    again = Table.restore(saved, wait=30)
    carl = again.sit("carl", "key:carl")
    carl.start_now()
    await until(lambda: again.game is not None and again.game.phase is Phase.DECISION)
    assert again.seats[0].away and not again.seats[0].connected
    assert again.seats[2].kind is SeatKind.BOT
    await again.close()


class FullDisk:
    """A disk that refuses every write until it is given room."""

    def __init__(self) -> None:
        self.full = True
        self.kept: list[str] = []

    async def save(self, snapshot: dict) -> None:
        if self.full:
            raise OSError(28, "No space left on device")
        self.kept.append(json.dumps(snapshot))


async def test_saves_failing_one_after_another_are_logged_once_then_counted(caplog):
    """On a full disk every change of every table fails to be saved: the first failure
    is logged whole, the next ones not each again (they were, a traceback for every
    change, filling the log, often on that same disk), and the first save that works
    again says how many failed."""
    caplog.set_level(logging.INFO, logger="diamant_tui.table")
    disk = FullDisk()
    table = Table(TableSettings(name="t", seats=6, pace=0, seed=5), save=disk.save)
    for name in ("ann", "bob", "cy", "dan"):
        table.sit(name, f"key:{name}")
        await table.saved()
    failures = [r for r in caplog.records if "could not be saved" in r.getMessage()]
    assert len(failures) == 1 and failures[0].exc_info is not None
    disk.full = False
    table.sit("eve", "key:eve")
    await table.saved()
    assert disk.kept
    again = [r.getMessage() for r in caplog.records if "saved again" in r.getMessage()]
    assert again == ["table t: saved again, after 4 failed save(s)"]
    await table.close()
