"""The :class:`Table`, and the :class:`Member` it hands to each person at it.

A table is the one way in: people reach it only through their member, and every intent
(decide, chat, vote for a rematch, start early, leave) is checked here (by
:meth:`Seats.check <diamant_tui.table.seats.Seats.check>`) before the part concerned acts:
the seats (:mod:`.seats`), the chat (:mod:`.chat`), the game loop (:mod:`.play`), the
updates that tell everyone (:mod:`.updates`). Everything a table would save to be rebuilt
is in its :class:`~diamant_tui.table.state.TableState`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import datetime, timezone
from typing import Callable

from ..engine.game import Game, GameConfig
from ..engine.view import Decision
from .chat import Chat
from .clock import TurnClock
from .info import (
    ChatLimits,
    ChatLine,
    Hurried,
    NotNow,
    NotTheCreator,
    SeatGivenToComputer,
    SeatInfo,
    SeatKind,
    TableError,
    TableEvent,
    TableFull,
    TableSettings,
    TableStatus,
    TableUpdate,
)
from .snapshot import Base, base_of
from .snapshot import progress as take_progress
from .snapshot import restore as restore_snapshot
from .snapshot import snapshot as take_snapshot
from .journal import Journal, Save, SaveChoices
from .play import BOT_TIME_LIMIT, Play
from .seats import Seats
from .state import Seat, TableState
from .updates import MARKS_DELAY, Updates

log = logging.getLogger("diamant_tui.table")

RETURN_WAIT = 60.0
"""Seconds the final scores keep a seat, and its say in the rematch, for a person whose
connection was lost there (not chosen: a client killed, a network gone) before the
rematch may begin without them."""


class Member:
    """Someone at a table: the person in a seat, or a spectator (``seat`` None).

    Made by the table only (:meth:`Table.sit`, :meth:`Table.watch`); each method is one
    intent, which the table checks and refuses with a :class:`TableError` that says why.
    """

    def __init__(self, table: Table, seat: int | None, identity: str, name: str) -> None:
        self.table = table
        self.seat = seat
        self.identity = identity
        self.name = name
        """The name this member chats under (their seat's name, or their watching name)."""

    @property
    def watching(self) -> bool:
        """A spectator, not a seat."""
        return self.seat is None

    @property
    def active(self) -> bool:
        """Still at the table (not left, not replaced by a newer connection)."""
        return self in self.table._seats.members

    @property
    def seated_in_a_game(self) -> bool:
        """Holding a seat in a game being played: a turn may be theirs, and quitting
        leaves their seat to a computer player."""
        return (self.seat is not None and self.active
                and self.table.status is TableStatus.PLAYING)

    def subscribe(self, callback: Callable[[TableUpdate], None]) -> Callable[[], None]:
        """Send ``callback`` an update now and after every change; returns the unsubscriber."""
        return self.table._subscribe(self, callback)

    def decide(self, decision: Decision) -> None:
        """Continue or leave, for this turn; it may change until the last choice is in."""
        self.table._decide(self, decision)

    def say(self, text: str) -> ChatLine:
        """Add a line to the table's chat, under this member's name."""
        return self.table._say(self, text)

    def may_chat(self) -> None:
        """Raise :class:`ChatRejected` (saying when to try again) if a line from this
        member would be refused now for its allowance: asked before the chat box opens."""
        self.table._may_chat(self)

    def vote_rematch(self) -> None:
        """Ask for a rematch of the finished game; it starts once every person agrees."""
        self.table._vote_rematch(self)

    def hurry(self) -> None:
        """Give the people the turn waits on :data:`~diamant_tui.table.clock.HURRY_TIME`
        seconds to decide, at a table without a timer, once it has waited on them for
        :data:`~diamant_tui.table.clock.HURRY_AFTER` seconds; by a player done with
        the turn (:attr:`TableUpdate.may_hurry`)."""
        self.table._hurry(self)

    def start_now(self) -> None:
        """The table's creator starts the game early; computer players take free seats."""
        self.table._start_now(self)

    def wake(self) -> None:
        """This person is at the keyboard again: a computer no longer plays for them."""
        self.table._wake(self)

    def leave(self) -> None:
        """Leave the table: a waiting seat is freed, a seat in a game is played for them."""
        self.table._leave(self)

    def drop(self) -> None:
        """The connection was lost (not chosen): as :meth:`leave`, but at the final scores
        the rematch waits :data:`RETURN_WAIT` seconds for the person to come back (their
        vote, if they gave it, kept), rather than starting at once without them."""
        self.table._leave(self, dropped=True)


class Table:
    """Runs one game (and its rematches) for people and computer players."""

    def __init__(
        self,
        settings: TableSettings,
        *,
        creator: str | None = None,
        on_game_over: Callable[["Table"], None] | None = None,
        marks_delay: float = MARKS_DELAY,
        chat: ChatLimits = ChatLimits(),
        save: Save | None = None,
        save_choices: SaveChoices | None = None,
        bot_time_limit: float = BOT_TIME_LIMIT,
        return_wait: float = RETURN_WAIT,
        _restored: tuple[TableState, random.Random] | None = None,
    ) -> None:
        """``save`` keeps the table's snapshots (see :mod:`.journal`), and
        ``save_choices`` the game's progress (cards and choices) since the last of them
        (without it, every change is saved as a snapshot); without ``save``, the table
        lives in memory only. A
        computer player that thinks longer than ``bot_time_limit`` seconds has a
        stand-in decide for it. ``return_wait``: see :data:`RETURN_WAIT`."""
        self.settings = settings.checked()
        self.return_wait = return_wait
        self._return_timers: dict[int, asyncio.TimerHandle] = {}
        """The seats the final scores keep for a lost connection, each with its wait's end."""
        self.chat_limits = chat
        self.on_game_over = on_game_over
        if _restored is not None:
            self._state, rng = _restored
            self._seats = Seats(self._state.seats, rng)
        else:
            self._state = TableState([Seat() for _ in range(self.settings.seats)], creator)
            self._seats = Seats(self._state.seats, random.Random(self.settings.seed))
            first_bot = self.settings.seats - len(self.settings.bots)
            for seat, spec in enumerate(self.settings.bots, start=first_bot):
                self._seats.seat_bot(seat, spec)
        # self._state: all the table would save (with its settings), see TableState.
        self._journal: Journal[Base] = Journal(
            save, self._snapshot_and_base, self.settings.name, save_progress=save_choices,
            take_progress=lambda base: take_progress(base, self.settings, self._state,
                                                     self._seats.rng))
        self._chat = Chat(chat, self.settings.name)
        self._seats.said_names = self._chat.authors_besides
        clock = self._clock = TurnClock(self.settings.timer)
        self._updates = Updates(self._state, self._seats, self._chat, clock,
                                table_name=self.name,
                                marks_delay=marks_delay, chat_gather=chat.gather,
                                on_change=self._journal.changed,
                                on_progress=self._journal.progressed)
        self._play = Play(self._state, self._seats, self._updates, clock,
                          pace=self.settings.pace, table_name=self.name,
                          on_over=self._game_over,
                          saved=self._journal.saved if save is not None else None,
                          bot_time_limit=bot_time_limit)
        self._waiting_for_people: asyncio.TimerHandle | None = None
        """After a restart: when the game goes on without the people not back yet."""
        self._vote_timer: asyncio.TimerHandle | None = None
        """At the final scores: when the voters may hurry the others, or when the others'
        time is up (:meth:`_open_votes`, :meth:`_hurry`)."""

    @classmethod
    def restore(cls, data: dict, *, wait: float, on_game_over: Callable[["Table"], None] | None = None,
                marks_delay: float = MARKS_DELAY, chat: ChatLimits = ChatLimits(),
                save: Save | None = None, save_choices: SaveChoices | None = None,
                bot_time_limit: float = BOT_TIME_LIMIT, chosen: dict | None = None) -> "Table":
        """The table saved in ``data`` (a :meth:`snapshot`), at the point it had reached,
        with the choices saved after it (``chosen``).

        Nobody is connected: each person comes back through :meth:`sit` with their
        identity. A game in progress goes on once they are all back, or ``wait`` seconds
        after now for those who are not (computer players then play their seats), so a
        restart does not play people's games for them. Raises
        :class:`~diamant_tui.table.snapshot.SnapshotError` for a snapshot that makes no
        table. Must be called with an event loop running."""
        settings, state, rng = restore_snapshot(data, chosen)
        table = cls(settings, on_game_over=on_game_over, marks_delay=marks_delay, chat=chat,
                    save=save, save_choices=save_choices, bot_time_limit=bot_time_limit,
                    _restored=(state, rng))
        loop = asyncio.get_running_loop()
        if state.status is TableStatus.PLAYING:
            table._waiting_for_people = loop.call_later(wait, table._go_on)
            table._back_after_restart()  # nobody to wait for: computer players only
        elif state.status is TableStatus.FINISHED:
            # The restart is not their leaving: the rematch waits for them as long.
            table._seats.await_people()
            table._waiting_for_people = loop.call_later(wait, table._stop_awaiting)
        else:
            # Nor at a waiting table: their seats are kept as long, then given to others.
            table._waiting_for_people = loop.call_later(wait, table._free_seats_not_back)
        return table

    def snapshot(self) -> dict:
        """Everything needed to rebuild this table after a restart, as plain JSON values
        (see :mod:`.snapshot`)."""
        return take_snapshot(self.settings, self._state, self._seats.rng)

    def _snapshot_and_base(self) -> tuple[dict, Base]:
        """A :meth:`snapshot`, and what it was taken of (for the progress after it)."""
        rng = self._seats.rng
        return (take_snapshot(self.settings, self._state, rng),
                base_of(self.settings, self._state, rng))

    def _go_on(self) -> None:
        """After a restart: play on; computer players play the seats of people not back."""
        if self._waiting_for_people is None:
            return
        self._waiting_for_people.cancel()
        self._waiting_for_people = None
        self._seats.set_away_not_connected()
        self._updates.publish(())
        self._play.begin()

    def _stop_awaiting_timer(self) -> None:
        if self._waiting_for_people is not None:
            self._waiting_for_people.cancel()
            self._waiting_for_people = None

    def _stop_awaiting(self) -> None:
        """After a restart at the final scores: those not back in time are waited on no
        more, and the rematch the others asked for begins."""
        self._waiting_for_people = None
        if self.status is not TableStatus.FINISHED:
            return
        self._seats.awaited.clear()
        if not self._rematch_if_agreed():
            self._updates.publish(())

    def _free_seats_not_back(self) -> None:
        """After a restart at a waiting table: the seats of the people not back in time
        are freed for others, as if they had left the waiting room (which gives the
        right to start the game to the first person there, see ``Seats.starter``)."""
        self._waiting_for_people = None
        if self.status is not TableStatus.WAITING:
            return
        gone = [i for i, s in enumerate(self._seats)
                if s.kind is SeatKind.PERSON and not s.connected]
        for seat in gone:
            self._seats.free_seat(seat)
        if gone:
            log.info("table %r: %d seat(s) kept after a restart freed (not back in time)",
                     self.name, len(gone))
            self._updates.publish(())

    def _back_after_restart(self) -> None:
        """Someone came back after a restart: once everyone is, play on at once."""
        if self.status is not TableStatus.PLAYING:
            return  # (at the final scores, the rematch's votes say when it begins)
        if self._waiting_for_people is not None and all(
                s.connected for s in self._seats if s.kind is SeatKind.PERSON):
            self._go_on()

    # -- what everyone may know ----------------------------------------------------

    @property
    def name(self) -> str:
        """The table's name, from its settings."""
        return self.settings.name

    @property
    def creator(self) -> str | None:
        """The identity of the person who opened the table (who may start it early)."""
        return self._state.creator

    @property
    def status(self) -> TableStatus:
        """Where the table is in its life: waiting for people, playing, or finished."""
        return self._state.status

    @property
    def game(self) -> Game | None:
        """The current (or last) game; None until the first begins."""
        return self._state.game

    @property
    def games_played(self) -> int:
        """The rematches begun: games this table played before the current one."""
        return self._state.games_played

    @property
    def started(self) -> datetime | None:
        """When the current game began."""
        return self._state.started

    @property
    def ended(self) -> datetime | None:
        """When the current game ended, if it has."""
        return self._state.ended

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        """Every seat as everyone sees it."""
        return self._seats.infos()

    @property
    def free_seats(self) -> int:
        """How many seats still wait for a person."""
        return self._seats.free

    @property
    def departed_seats(self) -> list[int]:
        """At the final scores, the seats whose people have left the table: a person may
        take one for the rematch (:meth:`sit`), else a computer player takes it then."""
        if self.status is not TableStatus.FINISHED:
            return []
        return self._seats.departed(self._state.votes)

    @property
    def people_connected(self) -> int:
        """How many seated people are connected now."""
        return self._seats.people_connected

    @property
    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators, in the order they came."""
        return self._seats.watchers()

    @property
    def chat_lines(self) -> tuple[ChatLine, ...]:
        """The chat lines the table keeps, oldest first (what every update carries)."""
        return tuple(self._chat)

    @property
    def watcher_identities(self) -> tuple[str, ...]:
        """Who the spectators are (their identities), in the order they came."""
        return self._seats.watcher_identities()

    @property
    def creator_seat(self) -> int | None:
        """The seat of the person who opened the table, if they sit at it."""
        return None if self.creator is None else self._seats.seat_of(self.creator)

    @property
    def starter_seat(self) -> int | None:
        """The seat of the person who may start the waiting table early: its creator's,
        or, once the creator has left it, the first seat a person holds."""
        return self._seats.starter(self.creator)

    def seat_of(self, identity: str) -> int | None:
        """The seat a person with ``identity`` holds at this table, if any."""
        return self._seats.seat_of(identity)

    def holds(self, identity: str) -> int | None:
        """The seat ``identity`` still holds here, if any: their seat before and during a
        game; at the final scores, while they are at them (a newer connection of theirs
        takes it over, as in a game) or the rematch awaits them (:meth:`awaits`), not
        once they have left them."""
        seat = self._seats.seat_of(identity)
        if (seat is not None and self.status is TableStatus.FINISHED
                and not self._seats[seat].connected):
            return self.awaits(identity)
        return seat

    def awaits(self, identity: str) -> int | None:
        """At the final scores, the seat the rematch waits for ``identity`` to come back
        to (their connection lost there, or not back yet after a restart), if any."""
        seat = self._seats.seat_of(identity)
        if (self.status is not TableStatus.FINISHED or seat is None
                or seat not in self._seats.awaited or self._seats[seat].connected):
            return None
        return seat

    # -- coming and going ------------------------------------------------------------

    def sit(self, name: str, identity: str) -> Member:
        """Seat a person: the seat ``identity`` already holds (they come back, and any
        earlier member for that seat can do nothing more) or the first free one."""
        held = self._seats.seat_of(identity)
        if held is not None:
            self._seats.come_back(held)
            member = self._join(Member(self, held, identity, self._seats[held].name))
            self._back_after_restart()
            return member
        departed = self.departed_seats
        if departed:
            # Someone left at the final scores: a person who wants to play (a
            # spectator, most often) takes their seat for the rematch, rather than
            # watching a computer player take it as the rematch begins.
            seat = self._seats.seat_person(name, identity, departed[0])
            return self._join(Member(self, seat, identity, self._seats[seat].name))
        if self.status is not TableStatus.WAITING:
            raise TableFull(f"the game at table {self.name!r} has begun; you can watch it.")
        if not self._seats.free:
            raise TableFull(f"table {self.name!r} is full; you can watch it.")
        seat = self._seats.seat_person(name, identity)
        member = Member(self, seat, identity, self._seats[seat].name)
        if self._seats.free:
            return self._join(member)
        # The last free seat: the others learn of it with the game's first card, in one
        # update (and one frame) with its start, not in one of its own just before.
        self._seats.join(member)
        self.start()
        return member

    def watch(self, name: str, identity: str) -> Member:
        """A spectator: they see what a player in camp sees, chat marked as watching,
        and can do nothing else. Their name is their own at this table (``ann²`` when
        someone else shows as ``ann``)."""
        return self._join(Member(self, None, identity, self._seats.watching_name(name, identity)))

    def _join(self, member: Member) -> Member:
        self._seats.join(member)
        self._updates.publish(())
        return member

    def _leave(self, member: Member, dropped: bool = False) -> None:
        if not self._seats.part(member):
            return  # left already, or a newer connection took the seat over
        if member.seat is not None:
            if self.status is TableStatus.WAITING:
                self._seats.free_seat(member.seat)
            else:
                self._seats[member.seat].connected = False
                self._set_away(member.seat)
            if dropped and self.status is TableStatus.FINISHED:
                self._await_return(member.seat)
            else:
                self._state.votes.discard(member.seat)
        if not self._rematch_if_agreed():
            self._updates.publish(())  # (else told with the new game, as a last vote is)

    def _await_return(self, seat: int) -> None:
        """The final scores keep ``seat`` for its person, whose connection was lost: the
        rematch waits for them (as for those not back after a restart) until they are
        back, they are hurried, or :attr:`return_wait` is over."""
        self._seats.awaited.add(seat)
        self._stop_return_timer(seat)
        self._return_timers[seat] = asyncio.get_running_loop().call_later(
            self.return_wait, self._return_wait_over, seat)

    def _return_wait_over(self, seat: int) -> None:
        self._return_timers.pop(seat, None)
        if self.status is not TableStatus.FINISHED or self._seats[seat].connected:
            return
        self._seats.awaited.discard(seat)
        if not self._rematch_if_agreed():
            self._updates.publish(())

    def _stop_return_timer(self, seat: int | None = None) -> None:
        """Stop the wait for ``seat`` (all of them if None)."""
        for kept in list(self._return_timers) if seat is None else [seat]:
            handle = self._return_timers.pop(kept, None)
            if handle is not None:
                handle.cancel()

    def _wake(self, member: Member) -> None:
        seat = self._seats.check(member, seated=False)
        if seat is not None and self._seats.wake(seat):
            self._updates.publish(())

    def _set_away(self, seat: int) -> None:
        self._seats.set_away(seat)
        self._play.wake()  # the turn may wait on this seat, which a computer now plays

    # -- intents -----------------------------------------------------------------

    def _subscribe(self, member: Member, callback: Callable[[TableUpdate], None]) -> Callable[[], None]:
        self._seats.check(member, seated=False)
        return self._updates.subscribe(member, callback)

    def _decide(self, member: Member, decision: Decision) -> None:
        seat = self._seats.check(member)
        if self.game is None:
            raise NotNow("the game has not started yet.")
        events = self.game.submit(seat, decision)
        self._seats[seat].away = False
        self._seats[seat].stand_in_chose = None  # the choice is their own now
        self._updates.decided(events, member)
        self._play.wake()

    def _say(self, member: Member, text: str) -> ChatLine:
        """At most 200 characters, no control characters, within the chat allowances
        (:class:`ChatLimits`): each person's, the spectators' together, the table's."""
        self._seats.check(member, seated=False)
        line = self._chat.say(member.identity, member.name, member.watching, text,
                              len(self._seats.members))
        self._updates.chat_said()
        return line

    def _may_chat(self, member: Member) -> None:
        self._seats.check(member, seated=False)
        self._chat.may_chat(member.identity, member.watching)

    def _start_now(self, member: Member) -> None:
        seat = self._seats.check(member)
        if self.status is not TableStatus.WAITING:
            raise NotNow("the game has already begun.")
        if seat != self.starter_seat:
            raise NotTheCreator("only the person who opened the table (or, once they have "
                                "left it, the first person seated) can start it early.")
        assert seat is not None
        self.start()

    def _vote_rematch(self, member: Member) -> None:
        seat = self._seats.check(member)
        if self.status is not TableStatus.FINISHED:
            raise NotNow("a rematch can only be asked for once the game is over.")
        assert seat is not None
        self._seats[seat].away = False  # voting is being at the keyboard
        self._state.votes.add(seat)
        # The vote that completes the agreement goes out with the new game: told on its
        # own, it was a frame for every screen at the table that the game's first card
        # replaced a moment later.
        if not self._rematch_if_agreed():
            self._open_votes()
            self._updates.told_first(member)  # the others within a second, as a mark

    def _open_votes(self) -> None:
        """At the first vote for a rematch, time the others' answers as a turn is timed:
        once they have been waited on long enough, the screens are told that the voters
        may hurry them (:meth:`_hurry`)."""
        clock = self._clock
        if clock.opened is not None:
            return
        clock.open_votes()
        loop = asyncio.get_running_loop()
        self._vote_timer = loop.call_at(clock.hurry_from(), self._offer_vote_hurry)

    def _offer_vote_hurry(self) -> None:
        self._vote_timer = None
        if self.status is TableStatus.FINISHED and self._seats.late_voters(self._state.votes):
            self._updates.publish(())

    def _hurry(self, member: Member) -> None:
        """Hurry those the turn (at the final scores, the rematch asked for) has waited
        on long enough, the same people every update names to the screens
        (``hurry_late``): by a player done with the turn, or who asked for the rematch."""
        seat = self._seats.check(member)
        late = self._updates.hurry_late()
        if not late:
            raise NotNow("nobody can be hurried now: nobody is awaited, they are hurried "
                         "already, or they have not been waited on long enough.")
        rematch = self.status is TableStatus.FINISHED
        if seat in late:
            raise NotNow("you are still choosing yourself.")
        if rematch and seat not in self._state.votes:
            raise NotNow("ask for the rematch yourself first.")
        self._seats[seat].away = False  # hurrying is being at the keyboard
        seconds = self._clock.hurry()
        hurried = Hurried(seat, late, seconds, rematch=rematch)
        self._updates.publish((hurried,), changed=False)
        if rematch:
            # Once their time is up, the rematch starts, a computer playing for each of
            # them until they are back (as for anyone away when it starts).
            self._stop_vote_timer()
            self._updates.rematch_hurry = hurried
            self._vote_timer = asyncio.get_running_loop().call_later(
                seconds, self._votes_time_up)
        else:
            self._play.wake()  # to wait for the new deadline

    def _votes_time_up(self) -> None:
        self._vote_timer = None
        self._updates.rematch_hurry = None
        if self.status is not TableStatus.FINISHED or not self._state.votes:
            return  # (the voters left meanwhile: nobody waits any more)
        for seat in self._seats.late_voters(self._state.votes):
            self._seats.set_away(seat)  # a computer plays for them until they are back
        if not self._rematch_if_agreed():
            self._updates.publish(())

    def _stop_vote_timer(self) -> None:
        self._updates.rematch_hurry = None
        if self._vote_timer is not None:
            self._vote_timer.cancel()
            self._vote_timer = None

    def _rematch_if_agreed(self) -> bool:
        """Start the rematch if every person who may vote has voted; whether it began."""
        votes = self._state.votes
        if self.status is not TableStatus.FINISHED or not votes:
            return False
        if all(seat in votes for seat in self._seats.rematch_voters()):
            self.rematch()
            return True
        return False

    # -- the host's commands -----------------------------------------------------------

    def start(self) -> None:
        """Fill empty seats with computer players and begin the game (the host's command;
        people start a table early through :meth:`Member.start_now`)."""
        if self.status is TableStatus.PLAYING:
            return
        self._begin(())

    def _begin(self, told: tuple[TableEvent, ...]) -> None:
        """Fill empty seats with computer players and begin a game; ``told`` (what the
        table did to begin it) goes out just before the game's first events."""
        self._stop_awaiting_timer()  # (a rebuilt waiting table's seats: no longer kept)
        self._seats.fill(self.settings.filler)
        # Only at a waiting table rebuilt after a restart may a seat's person not be
        # connected as the game begins (elsewhere a seat goes free as its person leaves
        # the waiting room): the game must not wait on them, shown as still choosing.
        self._seats.set_away_not_connected()
        state = self._state
        seed = None if self.settings.seed is None else self.settings.seed + self.games_played
        state.started, state.ended = datetime.now(timezone.utc), None
        state.game = Game(
            GameConfig(
                tuple(s.name for s in self._seats),
                self.settings.rules,
                chests_hidden=self.settings.hidden_chests,
            ),
            seed=seed,
        )
        state.status = TableStatus.PLAYING
        state.votes.clear()
        self._stop_vote_timer()
        self._clock.stop()  # the votes' time, if they were timed
        state.told_at_start = told
        state.failures_told = ()
        # With the first card, as later rounds' starts go: on its own it was a frame for
        # every screen at the table, and an update to handle, followed within
        # milliseconds (the time to save the table) by the card.
        self._updates.publish_with_next((*told, *state.game.events))
        self._play.begin()

    def rematch(self) -> None:
        """Play again at the same table (once the people agree): the same seats, but a
        computer player's for each person who is no longer connected."""
        if self.status is not TableStatus.FINISHED:
            raise TableError("a rematch can only start once the game is over.")
        # Begun within the wait after a restart: nobody is awaited any more (and the
        # wait's end, or someone back, must not set the new game going a second time).
        self._stop_awaiting_timer()
        self._stop_return_timer()
        self._seats.awaited.clear()
        departed = self._seats.give_up_departed(kept=self._state.votes)
        for seat in departed:
            log.info("table %r: seat %d given to a computer player for the rematch "
                     "(its person has left)", self.name, seat)
        self._seats.fill(self.settings.filler)
        # Everyone at the table reads who took each seat, and whose it was: the new
        # name alone in the player list told nobody that a person had gone.
        told = tuple(SeatGivenToComputer(seat, person, self._seats[seat].name)
                     for seat, person in departed.items())
        self._state.games_played += 1
        self._begin(told)

    async def close(self) -> None:
        """Stop the game task; nobody at the table gets anything more. The last change
        is saved first (a table closed as the server stops is rebuilt as it was)."""
        self._seats.members.clear()
        self._updates.cancel()
        self._stop_vote_timer()
        self._stop_awaiting_timer()
        self._stop_return_timer()
        await self._play.stop()
        await self._journal.saved()

    def save_again(self) -> None:
        """Save a whole snapshot of the table soon: what its keeper adds to one (the
        server's part, such as a guest's resume code) has changed, not the table."""
        self._journal.changed_outside()

    async def saved(self) -> None:
        """Wait until every change so far has been saved."""
        await self._journal.saved()

    def record(self) -> dict:
        """The current game as a ``diamant-record/1`` dict (finished or not)."""
        from ..engine.record import PERSON, game_to_record, record_meta

        if self.game is None:
            raise TableError("no game has started at this table.")
        seed = self.settings.seed
        meta = record_meta(
            table=self.name, started=self.started, ended=self.ended,
            seats={s.name: PERSON if s.kind is SeatKind.PERSON else str(s.spec) for s in self._seats},
            seed=None if seed is None else seed + self.games_played,
        )
        return game_to_record(self.game, meta)

    def _game_over(self) -> None:
        """The game has ended and everyone was told: hand it on to be kept."""
        if self.on_game_over is not None:
            try:
                self.on_game_over(self)
            except Exception:
                log.exception("table %s: saving the finished game failed", self.name)
