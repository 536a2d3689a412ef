"""The questions asked at a waiting table before its keys act: start now? leave?

A part of :class:`~diamant_tui.ui.screens.table.TableScreen`, kept apart for its size.
A question is asked in place, at the foot of the waiting seats (the screen draws it with
them), and answered by its key again or Enter once it has been read, never by the keys
typed with the one that asked it (:data:`READ_FIRST`).
"""

from __future__ import annotations

from textual import events
from textual._time import get_time  # private: the clock keys are stamped with (pinned)

from ...table import SeatKind, TableStatus, TableUpdate
from ..messages import LeaveTable
from .confirm import ConfirmScreen

READ_FIRST = 0.5
"""Seconds a question at a waiting table (start now? leave?) stays on screen before its
keys answer it, as the question to leave a game does (:class:`ConfirmScreen`): the keys
typed with the s or q that asked it (a chat line typed without t: the second s of
"pass", the q of "qui veut jouer ?", the Enter after "yes") must not start the game for
everyone, or give the seat away, unread."""
ANSWERS = {"start": frozenset({"s", "enter"}), "leave": frozenset({"q", "enter"})}
"""The keys that answer yes to each question asked at a waiting table (any other key
cancels it): the key that asked it again, or Enter."""


class WaitingQuestions:
    """The table screen's questions at a waiting table (see the module docstring)."""

    _asked: tuple[str, float] | None = None
    """The question this person is asked at the waiting table, while it is asked:
    "start" (s: start now?) or "leave" (q: leave the table?), and when it was asked.
    One at a time: asking one takes the other away."""

    def _answer_question(self, event: events.Key) -> None:
        """The key pressed while this person is asked a question at the waiting table:
        whether to start now (s or Enter starts the game) or to leave (q or Enter goes),
        once the question has been on screen long enough to be read (:data:`READ_FIRST`;
        sooner, the key is dropped and the question stays); Escape answers no. Any other
        key takes the question away too, and then does what it always does (t opens the
        chat, s or q asks the other question): nobody has to answer before going on."""
        what, since = self._asked
        if event.key in ANSWERS[what]:
            event.stop()
            event.prevent_default()
            if event.time - since >= READ_FIRST:
                self._close_question()
                if what == "start":
                    self._act(self.member.start_now)  # the table checks who may, as ever
                else:
                    self.post_message(LeaveTable())
            return
        self._close_question()
        if event.key == "escape":
            event.stop()
            event.prevent_default()

    def action_start_now(self) -> None:
        """Start the waiting game, asking first when computer players would take seats
        still free: an s typed by mistake (a chat line begun without t) would start it
        for everyone, and the people about to sit down would lose their seats. With
        every seat taken there is nothing to ask (a table starts by itself then)."""
        update = self.update_
        if update is None or not update.people_awaited:
            self._act(self.member.start_now)
            return
        self._ask("start", update)

    def action_keep_waiting(self) -> None:
        """Answer no to the question to start now (Escape, or its key in the key bar)."""
        self._close_question()

    def action_stay(self) -> None:
        """Answer no to the question to leave the waiting table (Escape, or its key in
        the key bar)."""
        self._close_question()

    def _ask(self, what: str, update: TableUpdate) -> None:
        """Ask ``what`` ("start" or "leave") in place, at the foot of the waiting seats,
        instead of the question asked there before, if any."""
        self._asked = (what, get_time())
        self._show_seats(update)
        self._refresh_keys()

    def _close_question(self) -> None:
        """Take the question asked at the waiting table away, leaving the line that was
        there before."""
        if self._asked is None:
            return
        self._asked = None
        update = self.update_
        if update is not None and self._part == "waiting":
            self._show_seats(update)
        self._refresh_keys()

    def _follow_question(self, update: TableUpdate) -> None:
        """Keep the question asked at the waiting table only while it still means
        something: either goes as the game begins (its last seat taken, the host
        starting it). The question to start now goes too when this person may no longer
        start it (the table's opener is back) or no seat is free any more; the question
        to leave, once they hold no seat. Otherwise it follows the table (the free seats
        it counts, who would start the game)."""
        if self._asked is None:
            return
        if self._asked[0] == "start":
            still = update.may_start and update.people_awaited
        else:
            still = update.status is TableStatus.WAITING and update.seat is not None
        if not still:
            self._asked = None

    def _leave_question(self, update: TableUpdate) -> str:
        """The question to leave the waiting table, saying what leaving costs: the seat,
        and for the person who may start the game, that right, which goes to the first
        person left in the seats (or the first to sit down), and comes back to the
        table's opener if they sit down again before the game (see ``Seats.starter``)."""
        t = self.app.t
        if update.starter is None or update.starter != self.seat:
            return t("waiting.leave_question")
        # Those there: a seat kept after a restart for someone not back is no one's
        # to start from (see ``Seats.starter``).
        others = [seat.name for seat in update.seats
                  if seat.kind is SeatKind.PERSON and seat.seat != self.seat and seat.connected]
        opener = update.creator == self.seat
        if not others:
            return t("waiting.leave_opener_alone" if opener else "waiting.leave_question")
        return t("waiting.leave_opener" if opener else "waiting.leave_gives_start",
                 name=others[0])

    def action_leave_table(self) -> None:
        """Leave the table, asking first a person who holds a seat: in place at a waiting
        table (a chat line typed without t, "qui veut jouer ?", would give their seat
        away at its first q), in a dialog during a game; a spectator, or a player at a
        finished game, just goes."""
        update = self.update_
        status = update.status if update is not None else None
        if self.seat is not None and status is TableStatus.WAITING:
            self._ask("leave", update)
        elif self.seat is not None and status is TableStatus.PLAYING:
            self.app.push_screen(
                ConfirmScreen(self.app.t("confirm.leave"), read_first=READ_FIRST),
                lambda yes: self.post_message(LeaveTable()) if yes else None,
            )
        else:
            self.post_message(LeaveTable())
