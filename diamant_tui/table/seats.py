"""Who sits where at a table, who is at it, and who may do what.

:class:`Seats` keeps the table's seats (people and computer players, each seat's
:class:`~diamant_tui.table.state.Seat` in the table's state) and its members: the people
in a seat and the spectators, each with the callback their updates go to. It asks
nothing of the game: the table decides when a seat is freed or played for its person,
and this module carries it out, naming people so that nobody shows as someone else.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator, Protocol

from ..bots import Bot, make_bot
from ..engine.game import Game
from ..names import clean_name, distinct_name, look_alike_key
from .info import STAND_IN_BOT, NotAtTable, OnlyPlayers, SeatInfo, SeatKind, TableUpdate
from .state import Seat

BOT_NAMES = ("Ana", "Bruno", "Chiara", "Dmytro", "Elena", "Farid", "Greta", "Hugo")
"""Names given to computer seats, in seat order of filling."""

Listener = Callable[[TableUpdate], None]
"""Where a member's updates go (set when they subscribe)."""


class Attendee(Protocol):
    """What the seats know of a member (:class:`~diamant_tui.table.Member`)."""

    seat: int | None
    identity: str
    name: str

    @property
    def watching(self) -> bool: ...


class Seats:
    """The seats of one table and the members at it; iterating gives each seat in order."""

    def __init__(self, seats: list[Seat], rng: random.Random) -> None:
        self._seats = seats
        self.rng = rng
        """The table's; each computer player is seeded from it, in the order they come."""
        self.members: dict[Attendee, Listener | None] = {}
        """Everyone at the table (seated or watching) in the order they came, with the
        callback their updates go to (None until they subscribe)."""
        self.awaited: set[int] = set()
        """The seats of the people a table rebuilt at its final scores waits for: at the
        table when it was saved, not back yet, their say in the rematch kept for them."""
        self.said_names: Callable[[str], set[str]] = lambda identity: set()
        """The names the table's chat still shows lines of, said by others than the
        identity given (set by the table, from its chat)."""

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    def __getitem__(self, seat: int) -> Seat:
        return self._seats[seat]

    def __len__(self) -> int:
        return len(self._seats)

    # -- who sits where ----------------------------------------------------------

    def infos(self) -> tuple[SeatInfo, ...]:
        """Every seat as everyone sees it."""
        return tuple(s.info(i) for i, s in enumerate(self._seats))

    @property
    def free(self) -> int:
        """How many seats still wait for a person."""
        return sum(1 for s in self._seats if s.kind is SeatKind.EMPTY)

    @property
    def people_connected(self) -> int:
        """How many seated people are connected now."""
        return sum(1 for s in self._seats if s.kind is SeatKind.PERSON and s.connected)

    def seat_of(self, identity: str) -> int | None:
        """The seat a person with ``identity`` holds, if any."""
        for i, s in enumerate(self._seats):
            if s.kind is SeatKind.PERSON and s.identity == identity:
                return i
        return None

    def starter(self, creator: str | None) -> int | None:
        """The seat whose person may start the waiting table early: the ``creator``'s,
        or, while the creator is not at the table, the first seat a person holds (else
        those left would wait for every seat to be taken). None without a creator: a
        table opened by its host is started by its host.

        A seat kept after a restart for someone not back yet is not at the table: the
        first person there starts it (the opener, never back, kept the right, and
        nobody there could start it)."""
        if creator is None:
            return None
        people = [i for i, s in enumerate(self._seats) if s.kind is SeatKind.PERSON]
        there = [i for i in people if self._seats[i].connected]
        seat = self.seat_of(creator)
        if seat is None or (seat not in there and there):
            seat = next(iter(there or people), None)
        return seat

    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators, in the order they came."""
        return tuple(m.name for m in self.members if m.watching)

    def watcher_identities(self) -> tuple[str, ...]:
        """Who the spectators are (their identities), in the order they came."""
        return tuple(m.identity for m in self.members if m.watching)

    def rematch_voters(self) -> list[int]:
        """The seats whose people must agree to a rematch: connected and at the keyboard,
        or awaited after a restart (:attr:`awaited`)."""
        return [i for i, s in enumerate(self._seats)
                if s.kind is SeatKind.PERSON and (s.connected and not s.away
                                                  or i in self.awaited)]

    def departed(self, kept: set[int]) -> list[int]:
        """At the final scores, the seats whose people have left the table (not awaited,
        and not ``kept``: those who asked for the rematch): the rematch would give each
        to a computer player (:meth:`give_up_departed`)."""
        return [i for i, s in enumerate(self._seats)
                if s.kind is SeatKind.PERSON and not s.connected
                and i not in self.awaited and i not in kept]

    def await_people(self) -> None:
        """After a restart at the final scores: wait for the people who were at the table
        (not away) before the rematch begins, as a game waits for its people."""
        self.awaited = {i for i, s in enumerate(self._seats)
                        if s.kind is SeatKind.PERSON and not s.away}

    # -- people coming and going ---------------------------------------------------

    def seat_person(self, name: str, identity: str, index: int | None = None) -> int:
        """Put a person in the first free seat (there must be one), or in seat ``index``,
        under a name of their own at this table; returns the seat."""
        if index is None:
            index = next(i for i, s in enumerate(self._seats) if s.kind is SeatKind.EMPTY)
        wanted = clean_name(name)
        self._make_way_for(wanted, identity)
        shown = distinct_name(wanted, self._names_taken_from(identity))
        self._seats[index] = Seat(shown, SeatKind.PERSON, identity=identity, connected=True)
        return index

    def come_back(self, seat: int) -> None:
        """The seat's person is here again, at the keyboard: an earlier member for the
        seat (an older connection) can do nothing more."""
        s = self._seats[seat]
        s.connected, s.away = True, False
        self.awaited.discard(seat)
        for old in [m for m in self.members if m.seat == seat]:
            del self.members[old]

    def watching_name(self, name: str, identity: str) -> str:
        """The name a spectator shows under: the one they watch under already, or their
        own at this table (``ann²`` when someone else shows as ``ann``)."""
        shown = next((m.name for m in self.members if m.watching and m.identity == identity), None)
        if shown is None:
            shown = distinct_name(clean_name(name), self._names_taken_from(identity))
        return shown

    def _make_way_for(self, name: str, identity: str) -> None:
        """A computer player showing under ``name`` (or a name like it), the name the
        person ``identity`` sits down under, takes another computer's name, free here: a
        person's own name is theirs at the table, marked only beside another person's (a
        Bruno read himself as "Bruno²" beside the computer of seat 2). Only before the
        game: people sit down in free seats."""
        key = look_alike_key(name)
        for seat in self._seats:
            if seat.kind is SeatKind.BOT and look_alike_key(seat.name) == key:
                taken = self._names_taken_from(identity) | {name}
                seat.name = _bot_name_unlike(taken) or distinct_name(seat.name, taken)

    def _names_taken_from(self, identity: str) -> set[str]:
        """The names others (people, computer players, spectators) show under here, or
        said the lines the chat still shows under: someone who left is still the author
        of those, and a stranger sitting down under their name read as the author."""
        taken = {s.name for s in self._seats if s.kind is not SeatKind.EMPTY and s.identity != identity}
        taken |= {m.name for m in self.members if m.identity != identity}
        taken |= self.said_names(identity)
        return taken

    def join(self, member: Attendee) -> None:
        """Count ``member`` at the table (they get updates once they subscribe)."""
        self.members[member] = None

    def part(self, member: Attendee) -> bool:
        """``member`` is no longer at the table; False if they were not (any more)."""
        if member not in self.members:
            return False
        del self.members[member]
        return True

    def free_seat(self, seat: int) -> None:
        """Empty a seat (its person left before the game began)."""
        self._seats[seat] = Seat()

    def give_up_departed(self, kept: set[int]) -> dict[int, str]:
        """Empty the seats of the people no longer connected as a new game begins (they
        left the table, or lost their connection, after the last game), but for the
        seats ``kept`` (those who asked for it: only a restart leaves someone who did
        not connected, and a computer plays for them until they are back); returns
        which, each with the name its person showed under.

        A computer player then takes each as its own (:meth:`fill`): a new game is played
        by those who stayed for it, and one who was not there is neither kept nor rated
        as having played it."""
        gone = {i: s.name for i, s in enumerate(self._seats)
                if s.kind is SeatKind.PERSON and not s.connected and i not in kept}
        for i in gone:
            self._seats[i] = Seat()
        return gone

    def set_away(self, seat: int) -> None:
        """A computer plays for the seat's person now (a stand-in, unless it has one)."""
        s = self._seats[seat]
        s.away = True
        self.awaited.discard(seat)  # (hurried, or not back in time: waited on no more)
        if s.bot is None:
            s.bot_seed = self.rng.random()
            s.bot = make_bot(STAND_IN_BOT, rng=random.Random(s.bot_seed))
            s.spec = STAND_IN_BOT

    def set_away_not_connected(self) -> None:
        """A computer plays for each person whose seat waits for them but who is not
        connected (not back yet after a restart), until they are back."""
        for seat, s in enumerate(self._seats):
            if s.kind is SeatKind.PERSON and not s.connected:
                self.set_away(seat)

    def wake(self, seat: int) -> bool:
        """The seat's person is at the keyboard again; False if nothing changed."""
        s = self._seats[seat]
        if s.kind is SeatKind.PERSON and s.away and s.connected:
            s.away = False
            return True
        return False

    def late(self, game: Game) -> tuple[int, ...]:
        """The seats of the people the turn under way waits on: in the cave, undecided,
        at the keyboard (a computer decides at once for someone away)."""
        return tuple(seat for seat in game.players_in_cave
                     if seat not in game.pending and self._seats[seat].kind is SeatKind.PERSON
                     and not self._seats[seat].away)

    def late_voters(self, votes: set[int]) -> tuple[int, ...]:
        """The seats whose people a rematch asked for waits on (:meth:`rematch_voters`
        who have not voted)."""
        return tuple(seat for seat in self.rematch_voters() if seat not in votes)

    # -- computer players ----------------------------------------------------------

    def seat_bot(self, seat: int, spec: str) -> None:
        """Put the computer player ``spec`` in ``seat``, named after the seat, or after
        another seat when the chat still shows lines said under that name: someone who
        has left said them, and they would read as the computer's."""
        seed = self.rng.random()
        bot = make_bot(spec, rng=random.Random(seed))
        taken = {s.name for s in self._seats if s.kind is not SeatKind.EMPTY}
        said = self.said_names("")  # (a computer says nothing: every author is another)
        name = BOT_NAMES[seat]
        if look_alike_key(name) in {look_alike_key(n) for n in said}:
            name = _bot_name_unlike(taken | said) or name
        name = distinct_name(name, taken | said)
        self._seats[seat] = Seat(name, SeatKind.BOT, spec, bot, seed, connected=True)

    def fill(self, spec: str) -> None:
        """Put the computer player ``spec`` in every seat still free."""
        for i, s in enumerate(self._seats):
            if s.kind is SeatKind.EMPTY:
                self.seat_bot(i, spec)

    def stand_in(self) -> Bot:
        """A new computer player to decide for someone who cannot now."""
        return make_bot(STAND_IN_BOT, rng=random.Random(self.rng.random()))

    # -- who may act -------------------------------------------------------------

    def check(self, member: Attendee, *, seated: bool = True) -> int | None:
        """The member's seat, if they may act: still at this table, and seated when it
        matters; raises :class:`NotAtTable` or :class:`OnlyPlayers` saying why not."""
        if member not in self.members:  # left, replaced by a newer connection, or elsewhere
            raise NotAtTable("you are no longer at this table.")
        if seated and member.seat is None:
            raise OnlyPlayers("you are watching this table; only its players can do that.")
        return member.seat


def _bot_name_unlike(taken: set[str]) -> str | None:
    """The first computer player's name that looks like none of ``taken``, if any."""
    keys = {look_alike_key(name) for name in taken}
    return next((name for name in BOT_NAMES if look_alike_key(name) not in keys), None)
