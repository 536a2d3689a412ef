"""What a table sends the people at it, and when.

Every change reaches every member as a :class:`~diamant_tui.table.info.TableUpdate`: their
own view, the events since their last update, the seats, the chat. Each update is a frame
for every screen at the table, so :class:`Updates` sends fewer of them where nobody loses
by it: a mark that someone has decided, or a vote for a rematch, reaches the others a
moment later (:data:`MARKS_DELAY`), a turn's choices reach them with the card that
follows (and reach whoever ended the turn with it too, when it is due:
:data:`CARD_GRACE`), lines of chat said close together go out together, and whatever was
put off rides on the next update, one timer for all of it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
from dataclasses import replace
from typing import Callable, Iterable

from ..engine.events import DecisionMade, Event, RoundStarted
from ..engine.view import Phase
from .clock import TurnClock
from .info import ChatLine, Hurried, TableEvent, TableStatus, TableUpdate
from .seats import Attendee, Listener, Seats
from .state import TableState

log = logging.getLogger("diamant_tui.table")

CHAT_GATHER_PEOPLE = 10
"""Past this many people at a table, chat updates are gathered for proportionally longer."""
MARKS_DELAY = 1.0
"""Seconds the others may wait to see that a player has decided (or asked for a rematch).
Marks made meanwhile go out together, or with the card when the turn ends first: every
update is a frame for every screen at the table, and one per decision was most of what a
table cost a server.
A second is about when a wait begins to be noticed, that is when who is still choosing
starts to matter. Whoever decides sees it at once."""
CARD_GRACE = 0.05
"""Seconds whoever ends a turn may wait to see their choice when the next card is due by
then: they see it with the card, in the update everyone else gets (one frame, and the same
cave for the whole table), rather than alone and again a few milliseconds later with the
card. Should the card be later (its turn's choices are being saved), they see their
choice alone after this long. Below a tenth of a second, which reads as at once."""


def only_a_mark(events: Iterable[TableEvent]) -> bool:
    """Whether ``events`` only say that someone decided (the turn goes on)."""
    return all(isinstance(event, DecisionMade) for event in events)


class Updates:
    """Sends every member of one table their update, at once or a little later."""

    def __init__(self, state: TableState, seats: Seats, chat: Iterable[ChatLine],
                 clock: TurnClock, *, table_name: str, marks_delay: float,
                 chat_gather: float, on_change: Callable[[], None] = lambda: None,
                 on_progress: Callable[[], None] | None = None) -> None:
        self._state = state
        self._on_change = on_change
        """Told of every change sent out (the table's journal saves it)."""
        self._on_progress = on_change if on_progress is None else on_progress
        """Told instead of a choice (the journal gathers those)."""
        self._seats = seats
        self._chat = chat
        self._clock = clock
        self._table_name = table_name
        self._marks_delay = marks_delay
        self._chat_gather = chat_gather
        self._chat_sent = -math.inf
        self._chat_waiting = False
        """Chat lines said since the last update, waiting for the next one."""
        self._held: list[tuple[set[Attendee], TableEvent]] = []
        """Decision marks not yet sent to everyone, each with who was sent it already."""
        self._later: asyncio.TimerHandle | None = None
        """The one update put off (held marks, gathered chat), whatever put it off."""
        self._ahead: tuple[TableEvent, ...] = ()
        """Events that go out at the head of the next update to everyone (see
        :meth:`publish_with_next`)."""
        self._ahead_seen: set[Attendee] = set()
        """Members whose first update came after those events: their view holds them."""
        self.card_due = -math.inf
        """The loop's time from which the next card may be turned (set by the game loop;
        see :data:`CARD_GRACE`)."""
        self._owed: tuple[Attendee, asyncio.TimerHandle] | None = None
        """Whoever ended the turn, and the timer that sends them their choice alone if the
        card is late."""
        self._behind: set[Attendee] = set()
        """Members not yet sent a change put off for them (:meth:`told_first`): the
        update put off goes to them too, not only to those owed marks."""
        self.rematch_hurry: Hurried | None = None
        """The hurry whose time runs at the final scores (set and cleared by the table):
        told again to whoever comes back to them meanwhile (:meth:`subscribe`)."""

    def subscribe(self, member: Attendee, callback: Listener) -> Callable[[], None]:
        """Send ``member``'s updates to ``callback``, starting with one now; returns the
        unsubscriber (the member must be at the table)."""
        self._seats.members[member] = callback
        # Their first update shows the table as it is: what happened before it (the
        # game's start waiting for its first card, the marks held) is never sent to
        # them after it, or they read it twice (whoever took the last seat read the
        # first round begin again with its first card).
        for sent, _event in self._held:
            sent.add(member)
        if self._ahead:
            self._ahead_seen.add(member)
        self._send(member, callback, self._hurry_for(member), self._shared(),
                   earlier=self._round_so_far())

        def unsubscribe() -> None:
            if self._seats.members.get(member) is callback:
                self._seats.members[member] = None

        return unsubscribe

    def _hurry_for(self, member: Attendee) -> tuple[TableEvent, ...]:
        """Someone back at the final scores while a rematch is hurried: it starts with
        them too, a computer playing for them until they press a key, so they are told
        as those hurried were, with the seconds left. They had been told nothing, and
        found a new game begun under them."""
        hurried, left = self.rematch_hurry, self._clock.left()
        if (hurried is None or not left or self._state.status is not TableStatus.FINISHED
                or member.seat is None or member.seat in self._state.votes):
            return ()
        return (replace(hurried, late=(member.seat,), seconds=float(math.ceil(left))),)

    def publish(self, events: Iterable[TableEvent], *,
                decider: Attendee | None = None, mark: bool = False,
                changed: bool = True, put_off: bool = False) -> None:
        """Send everyone their update with ``events``; ``changed`` says the table changed
        with it (the journal saves it), which an update that only carries chat or what was
        put off does not say.

        A ``mark`` (a choice that does not end the turn, by ``decider`` or a computer
        player) goes at once to the decider only; the others get it with the next
        update, at the latest :data:`MARKS_DELAY` later (see there why). That update,
        when it goes out by itself (``put_off``) with only marks, skips whoever has
        seen them all: whoever made them, alone, sees nothing new in it (at a table of
        two, every other such update; at tables of five, rare).
        """
        events = tuple(events)
        if changed:
            self._on_change()
        if mark and self._marks_delay > 0:
            self._hold(events, decider)
            self._publish_within(self._marks_delay)
            return
        ahead: tuple[TableEvent, ...] = ()
        seen: set[Attendee] = set()
        if self._ahead and events:
            # With what follows them (the card), not with a join or a line of chat
            # that came first.
            ahead, self._ahead = self._ahead, ()
            seen, self._ahead_seen = self._ahead_seen, set()
        held, self._held = self._held, []
        behind, self._behind = self._behind, set()
        self.cancel()  # this update carries whatever was put off
        only_marks = put_off and not events and not self._chat_waiting
        if self._chat_waiting:
            self._chat_waiting = False
            self._chat_sent = asyncio.get_running_loop().time()
        shared = self._shared()
        for member, callback in list(self._seats.members.items()):
            if callback is not None:
                mine = tuple(event for sent, event in held if member not in sent)
                if only_marks and not mine and member not in behind:
                    continue
                told = events if member in seen else ahead + events
                self._send(member, callback, mine + told, shared)

    def publish_with_next(self, events: Iterable[TableEvent]) -> None:
        """A change whose ``events`` go out at the head of the next update to everyone
        that has events of its own, which follows at once (a round's start, with its
        first card): each update is a frame for every screen at the table, and one that
        nothing can be done with, followed within milliseconds by the card, was one frame
        too many. It is saved as a change now."""
        self._on_change()
        self._ahead += tuple(events)

    def told_first(self, member: Attendee) -> None:
        """A change made by ``member`` (a vote for a rematch): they see it at once, the
        others with the next update, at the latest :data:`MARKS_DELAY` later, as they
        see a decision mark. Votes come close together as a game ends, and each went
        out to the whole table, a frame for every screen."""
        self._on_change()
        if self._marks_delay <= 0:
            self.publish((), changed=False)
            return
        callback = self._seats.members.get(member)
        if callback is not None:
            self._send(member, callback, (), self._shared())
        self._behind = {other for other in self._seats.members if other is not member}
        self._publish_within(self._marks_delay)

    def decided(self, events: list[Event], decider: Attendee | None = None) -> None:
        """Send the events of a decision (by ``decider``, or by a computer player).

        The decision that ends a turn whose round goes on reaches the others with the next
        card, which the game turns as soon as the table's pace allows (see
        :class:`~diamant_tui.table.play.Play`): the choices shown and, a moment later, the
        card were two frames for every screen at the table, where one shows the same. The
        decider sees it at once, or with the card if that is due within
        :data:`CARD_GRACE`.
        """
        game = self._state.game
        if only_a_mark(events):
            self._on_progress()
            self.publish(events, decider=decider, mark=True, changed=False)
        elif game is not None and game.phase is Phase.REVEAL:
            # Saved before the card is turned: the game loop asks for it.
            self._on_progress()
            self.cancel()  # the marks held go out with the card, not before it
            loop = asyncio.get_running_loop()
            if decider is not None and self.card_due - loop.time() <= CARD_GRACE:
                self._owed = (decider, loop.call_later(CARD_GRACE, self._pay_owed))
                self._held.extend((set(), event) for event in events)
            else:
                self._hold(tuple(events), decider)
        else:
            self.publish(events)

    def _pay_owed(self) -> None:
        """The card is late: send whoever ended the turn their choice alone."""
        if self._owed is None:
            return
        decider, _timer = self._owed
        self._owed = None
        callback = self._seats.members.get(decider)
        if callback is not None:
            # In the game's order, with the others' marks not sent to them yet.
            owed = [(sent, event) for sent, event in self._held if decider not in sent]
            for sent, _event in owed:
                sent.add(decider)
            self._send(decider, callback, tuple(event for _sent, event in owed),
                       self._shared())

    def _hold(self, events: tuple[TableEvent, ...], decider: Attendee | None) -> None:
        """Send ``events`` to ``decider`` now (if a person listening) and hold them for
        everyone else's next update."""
        self._held.extend(({decider} if decider is not None else set(), event)
                          for event in events)
        callback = self._seats.members.get(decider) if decider is not None else None
        if callback is not None:
            self._send(decider, callback, events, self._shared())

    def chat_said(self) -> None:
        """Send the chat to everyone, gathering lines said close together: each update
        costs every app at the table a redraw, however short the line."""
        if self._chat_waiting and self._later is not None:
            return  # an update is on its way already; it carries this line too
        self._chat_waiting = True
        # The more people at the table, the more an update costs: gather for longer.
        gather = self._chat_gather * max(1.0, len(self._seats.members) / CHAT_GATHER_PEOPLE)
        wait = self._chat_sent + gather - asyncio.get_running_loop().time()
        if wait <= 0:
            self.publish((), changed=False)
        else:
            self._publish_within(wait)

    def cancel(self) -> None:
        """Forget the update put off, if any (it is sent now, or never)."""
        if self._later is not None:
            self._later.cancel()
            self._later = None
        if self._owed is not None:
            self._owed[1].cancel()
            self._owed = None

    def _publish_within(self, wait: float) -> None:
        """Send everyone an update ``wait`` seconds from now at the latest: one update put
        off carries all that was put off (marks, chat), at the earliest time any needs."""
        loop = asyncio.get_running_loop()
        when = loop.time() + wait
        if self._later is not None:
            if self._later.when() <= when:
                return
            self._later.cancel()
        # What was put off was saved when it happened (a mark) or is not kept (chat).
        self._later = loop.call_at(
            when, functools.partial(self.publish, (), changed=False, put_off=True))

    def _round_so_far(self) -> tuple[TableEvent, ...]:
        """The game's events since the start of its latest round (none without a game),
        after what the table told as the game began (who took whose seat at a rematch)
        and which computer players failed: whoever arrives during the game, or in the
        moment before its first card, reads that in their log as the others did, not
        only who sits there now.

        Taken from the game itself, not kept as text: a game rebuilt after a restart
        (played again from its record) has the same events, so those who come back read
        the round as it was, not only its start and its last card."""
        game = self._state.game
        if game is None:
            return ()
        events = game.events
        start = next((i for i in range(len(events) - 1, -1, -1)
                      if isinstance(events[i], RoundStarted)), 0)
        state = self._state
        return (*state.told_at_start, *state.failures_told, *events[start:])

    def _shared(self) -> dict:
        """What every update of one publish has in common (computed once)."""
        state, seats = self._state, self._seats
        return dict(
            seats=seats.infos(),
            status=state.status,
            chat=tuple(self._chat),
            creator=None if state.creator is None else seats.seat_of(state.creator),
            starter=seats.starter(state.creator),
            rematch_votes=frozenset(state.votes),
            rematch_voters=frozenset(seats.rematch_voters()),
            departed_seats=(tuple(seats.departed(state.votes))
                            if state.status is TableStatus.FINISHED else ()),
            watchers=seats.watchers(),
            hurry_late=self.hurry_late(),
        )

    def hurry_late(self) -> tuple[int, ...]:
        """The seats of the people the turn has waited on long enough, untimed, for the
        others to hurry them (:meth:`~diamant_tui.table.clock.TurnClock.may_hurry`); at
        the final scores, those whose answer to a rematch asked for is awaited."""
        state = self._state
        if not self._clock.may_hurry():
            return ()
        if state.status is TableStatus.FINISHED:
            return self._seats.late_voters(state.votes)
        if state.game is None or state.game.phase is not Phase.DECISION:
            return ()
        return self._seats.late(state.game)

    def _send(self, member: Attendee, callback: Listener, events: tuple[TableEvent, ...],
              shared: dict, earlier: tuple[TableEvent, ...] = ()) -> None:
        game = self._state.game
        view = game.view_for(member.seat) if game else None
        deadline = self._clock.deadline
        seat = member.seat
        update = TableUpdate(
            view=view,
            events=events,
            deadline=deadline if view is not None and view.decision_due else None,
            seat=seat,
            chosen_by_computer=(
                view is not None and seat is not None and view.my_decision is not None
                and self._seats[seat].stand_in_chose == (view.round, view.step)),
            may_start=(self._state.status is TableStatus.WAITING and member.seat is not None
                       and member.seat == shared["starter"]),
            earlier=earlier,
            **shared,
        )
        try:
            callback(update)
        except Exception:  # one broken listener must not stop the table
            log.exception("table %s: a subscriber failed; it is dropped", self._table_name)
            if self._seats.members.get(member) is callback:
                self._seats.members[member] = None
