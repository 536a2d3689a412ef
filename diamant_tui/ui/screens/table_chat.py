"""The chat at a table: the lines shown where they are read, the chat box, and what is
told when a line is refused or a chat command is run.

A part of :class:`~diamant_tui.ui.screens.table.TableScreen`, kept apart for its size:
it uses the screen's parts (its feed under the cave, the waiting seats, the final
scores, the log) as the screen made them, and the screen shows each update's chat
through :meth:`TableChat._show_chat`.
"""

from __future__ import annotations

import time

from textual.timer import Timer
from textual.widgets import Button

from ...engine.errors import DiamantError
from ...engine.view import Decision
from ...table import ChatLine, ChatRejected, SeatKind
from ..ignored_chat import TableNames, is_command, line_to_send, run_command
from ..messages import ReportAsked

CHAT_ASIDE_LINES = 3
"""Chat lines shown at most at the foot of the waiting seats (the game log keeps them all)."""
CHAT_FINAL_LINES = 6
"""Chat lines offered to the final scores, which show the newest that fit (six rows at
most, three at 80x24 with eight players)."""
CHAT_RECAP = 3
"""Chat lines said before someone arrives (or comes back) that the feed under the path
recalls; the log holds them all."""
REFUSAL_SHOWN = 4.0
"""Seconds a chat refusal stays on screen; asking again meanwhile adds no other note."""


class TableChat:
    """The table screen's chat: what it shows of the table's lines, its box and the
    notes told about them (see the module docstring)."""

    _chat_seen: tuple[ChatLine, ...] = ()
    """The table's last lines as the latest update sent them (each sends its last few)."""
    _refusal_until = float("-inf")
    """Until when the note told last (:meth:`_tell_chat_note`) stays on screen."""
    _refusal_said: str | None = None
    """Which refusal is on screen until then: the wait at ``t`` ("wait"), a line kept in
    the box ("kept"), or what a chat command did ("command")."""
    _refusal_timer: Timer | None = None
    """Ends the refusal told before the game or under the cave (:meth:`_tell_refusal`)."""

    def _show_chat(self, chat: tuple[ChatLine, ...], *, arriving: bool = False) -> None:
        """Show the chat lines not seen yet: all in the log; during the game in the feed
        under the path (no toast over the player list), before it and at its end (the
        feed hidden) in rows of their own (:meth:`_show_chat_aside`). Lines said before
        this screen came (``arriving``: a person joining or coming back) are no news:
        the log keeps them and the feed recalls the last few; nothing pops up over the
        game for them, nor is a spectator's own line of then told on their note line as
        just said. The lines of someone this person hides (``/ignore``) are shown nowhere."""
        # The table sends its last lines each time: show only those not seen yet.
        seen = self._chat_seen
        overlap = next(
            (n for n in range(min(len(seen), len(chat)), -1, -1) if seen[len(seen) - n:] == chat[:n]),
            0,
        )
        fresh = chat[overlap:]
        self._chat_seen = chat
        log = self._log
        in_feed = self._part == "game"
        shown = []
        hidden = self.app.ignored_chat
        for line in fresh:
            author = self.app.t("chat.watching", name=line.author) if line.watching else line.author
            log.write(f"» {author}: {line.text}", line.author)
            if line.watching and self.seat is None:
                # A spectator's screen shows the players' lines only. The other
                # spectators' lines go to its log, and its own line is told on its
                # note line (before the game and at the final scores, which have no
                # such line, among the chat there): a crowd chatting would cost each
                # of its apps a frame for each line. (Not over why a line was refused:
                # that came after this line was said.)
                mine = not arriving and line.author == self.member.name
                if mine and self._part in ("waiting", "final"):
                    shown.append((author, line.text, line.author))
                elif (mine and self._game_shown
                        and time.monotonic() >= self._refusal_until):
                    self._parts.decision.said(self.app.t("chat.you_said", line=line.text))
                continue
            shown.append((author, line.text, line.author))
        if arriving:
            shown = [said for said in shown if said[2] not in hidden][-CHAT_RECAP:]
        for author, text, said_by in shown:
            # Kept whatever is shown now: a game that begins (or a rematch) carries the
            # lines said a moment before into the feed (RoundStory.begin). Those of
            # someone hidden are kept too, left out of what is drawn (RoundStory.hidden).
            self._story.say(f"» {author}: {text}", said_by)
        if not any(said_by not in hidden for _, _, said_by in shown):
            return  # nothing new to read: no frame for a hidden line
        if in_feed:
            self._show_feed()  # the feed's own rows redrawn, nothing laid out
        else:
            self._show_chat_aside()

    def tell_aside(self, text: str) -> None:
        """Tell the person a line from the host (a guest's resume code, an admin's
        message to everyone) where the chat is read: among the round's lines under the
        cave during the game, at the foot of the seats before it, under the rematch
        votes at its end; and in the log. A toast stood over the banner, the round's
        newest lines, for all its seconds. ``text`` is shown as written, never markup."""
        if self._told is not None:
            self._told.append(text)  # the screen is not up yet: told as it mounts
            return
        self._log.write(text)
        self._story.say(text)
        if self._part == "game":
            self._show_feed()
        else:
            self._show_chat_aside()

    def _show_chat_aside(self) -> None:
        """Before the game and at its end (no feed on screen), the newest chat lines in
        rows kept for them: at the foot of the waiting seats, under the final scores'
        buttons. A toast stood over the line telling how to start or ask for a rematch, and
        each one cost a layout of the whole screen coming and going."""
        if self._part == "final" and self._final is not None:
            self._final.show_chat(self._story.chat(CHAT_FINAL_LINES))
        elif self._part == "waiting":
            self._before_game[0].chat = self._story.chat(CHAT_ASIDE_LINES)

    def action_chat(self) -> None:
        """Open the chat box. Over the chat allowance it opens all the same, the wait
        told at once: someone typing fast has sent the rest of their line before they
        read any note, and its letters must go into the box, never to the game (the
        ``l`` of "hello" would choose Exit). A line sent too early is kept in the box
        (:meth:`send_chat`)."""
        try:
            self.member.may_chat()
        except ChatRejected as error:
            self._refuse_chat(error)
        except DiamantError:
            pass  # no longer at the table: sending the line will say so
        # The round's summary lies over the box: closed, as Enter would, so that what is
        # typed shows (it was typed blind under the summary).
        self._close_summary()
        chat = self._chat
        chat.can_focus = True
        chat.add_class("-open")
        # Focused now, not at the loop's next turn as ``focus()`` does: the keys typed
        # with the t (in one packet over SSH) come next, and must find the box focused.
        self.set_focus(chat)

    def _refuse_chat(self, error: ChatRejected, *, kept: bool = False) -> None:
        """Say why a line is refused and when to try again (``kept``: that the line
        sent stays in the box until then), unless that is on screen already: a person
        hammering t or Enter would otherwise have it drawn again and again (a toast, a
        layout of the whole screen coming and going each time)."""
        now = time.monotonic()
        said = "kept" if kept else "wait"
        if now < self._refusal_until and self._refusal_said == said:
            return
        self._refusal_said = said
        self._tell_chat_note(error.text(self.app.t), kept=kept)

    def _tell_chat_note(self, text: str, *, kept: bool = False) -> None:
        """Tell ``text`` (why a chat line was refused, or what a chat command did) where
        the chat is read, for :data:`REFUSAL_SHOWN` seconds; ``kept``: saying that the
        line stays in the box."""
        self._refusal_until = time.monotonic() + REFUSAL_SHOWN
        if (self.seat is None and self._part == "game"
                and self._parts.decision.fits_first_line(text)):
            # A spectator reads it on their note line (as their own lines): a crowd
            # watching is who meets the spectators' allowance, each of them at once.
            # The open box covers the line's second row: the reason alone, first,
            # beside their line, which stays in the box. A longer one (a mute's reason,
            # a wordier language) would lose its end under the box: it is told where a
            # player's is.
            self._parts.decision.said(text)
            return
        if kept:
            text = self.app.t("chat.kept", why=text)
        # Where the chat is read, for a player as for a spectator, the line kept staying
        # in the open box, in sight: a toast stood over what says how to go on (how to
        # start, the rematch lines) or, under the cave, over the round's newest lines.
        # (A toast only when the cards fill the whole cave, leaving it no row there.)
        if self._part == "final" and self._final is not None:
            self._final.show_refusal(text, REFUSAL_SHOWN)  # under the chat there
        elif self._part == "waiting" or (
                self._part == "game" and self._parts.cave_path.fits_under_path(text)):
            self._tell_refusal(text)
        else:
            self.notify(text, severity="warning", timeout=REFUSAL_SHOWN, markup=False)

    def _tell_refusal(self, text: str | None) -> None:
        """Tell ``text`` (None: nothing any more) at the foot of the waiting seats, or
        under the round's lines beneath the cave, for :data:`REFUSAL_SHOWN` seconds. Both
        are given it: the game may begin meanwhile, and its seconds run on."""
        if self._refusal_timer is not None:
            self._refusal_timer.stop()
            self._refusal_timer = None
        if text is not None:
            self._refusal_timer = self.set_timer(REFUSAL_SHOWN, lambda: self._tell_refusal(None))
        self._before_game[0].refusal = text
        self._parts.cave_path.refusal = text

    def send_chat(self, text: str) -> None:
        """Send the chat line typed (Enter), as the box handles its Enter. One refused
        for now (over the allowance, or its person muted by a server's host:
        :attr:`ChatRejected.line_kept`) stays in the box, open and focused, with a note
        of why: nothing typed is lost, and the next keys still go into the box; Enter
        sends it once it is taken. The table (and a server around it) alone decides
        whether a line may go."""
        if not text.strip():
            self.action_close_chat()
            return
        if is_command(text):
            self._run_chat_command(text)
            return
        try:
            self.member.say(line_to_send(text))
        except ChatRejected as error:
            if error.line_kept:  # too early, or muted: not a bad line
                self._refuse_chat(error, kept=True)
                return
            self.action_close_chat()
            self._refuse_chat(error)
            return
        except DiamantError as error:
            self.action_close_chat()
            self._refused(error)
            return
        self.action_close_chat()

    def _run_chat_command(self, typed: str) -> None:
        """Do a command typed in the chat box (``/ignore NAME``: see
        :mod:`~diamant_tui.ui.ignored_chat`), never sent to the table, and say what it
        did where a refusal is told. A name or command mistyped stays in the box."""
        answer = run_command(typed, self.app.ignored_chat, self._table_names(), self.app.t)
        if answer.changed:
            self._show_hidden_chat()
        if not answer.keep:
            self.action_close_chat()
        if answer.report is not None:
            # The app knows whether there are hosts to tell: it answers in a moment.
            self.post_message(ReportAsked(*answer.report, self._tell_command_answer))
            return
        self._tell_command_answer(answer.text)

    def _tell_command_answer(self, text: str) -> None:
        """Tell what a chat command did (or, for a report, what became of it), unless
        the person has left the table meanwhile."""
        if not self.is_attached:
            return
        # What is told now: a refusal that follows is told over it, not held back as
        # one already on screen (:meth:`_refuse_chat`).
        self._refusal_said = "command"
        self._tell_chat_note(text)

    def _table_names(self) -> TableNames:
        """The names a chat command may name here: the people in the seats and watching,
        whoever said the lines the table still keeps, and the computer players."""
        update = self.update_
        seats = update.seats if update is not None else ()
        people = [seat.name for seat in seats if seat.kind is SeatKind.PERSON]
        people += update.watchers if update is not None else ()
        people += [line.author for line in self._chat_seen]
        computers = tuple(seat.name for seat in seats if seat.kind is SeatKind.BOT)
        me = self.member.name
        return TableNames(me, tuple(name for name in dict.fromkeys(people) if name != me),
                          computers)

    def _show_hidden_chat(self) -> None:
        """Someone's lines were hidden or shown again: the log, the feed under the cave
        and the chat's rows drawn again without (or with) them."""
        self._log.refilter()
        if self._part == "game":
            self._show_feed()
        else:
            self._show_chat_aside()

    def action_close_chat(self) -> None:
        """Close the chat box, what was typed in it dropped (Escape; Enter sends it)."""
        chat = self._chat
        chat.value = ""
        chat.remove_class("-open")
        if self._part == "final":
            self.focus_next(Button)  # the final scores' first button
        elif not self._game_shown or self.seat is None:
            self.set_focus(None)  # no buttons (yet, or ever) to go back to
        else:
            # At once, not at the loop's next turn: a t typed with the Enter that closed
            # the box (one packet) opens it again, and must not lose it to Continue.
            self.set_focus(self._parts.decision.choice_button(Decision.CONTINUE))
        chat.can_focus = False
