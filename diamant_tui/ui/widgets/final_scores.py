"""The end of the game, over the cave: ranking with shared places, per-round results, a
chart, the rematch vote (each person asks with ``r``; the table starts again once all
agree) and the chat said meanwhile."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Button, Input, Label

from ...engine.view import PlayerView
from ...table import Member, SeatKind, TableUpdate
from ...table import clock as turn_clock
from ..veils import veil
from .blank_containers import SharedBlank
from .final_chat import FinalChat
from .one_layout import SizedInOneLayout
from .score_table import ScoreTable
from .shared_lines import SharedLines


# The final scores' parts take their first size, at the game's end, in the layout that
# shows them (see .one_layout): each asked for a second layout of every seat's screen.
# What changes as they are shown (the scores, the winners' line) asks for its layout at
# once (.direct_repaint), not once its own loop is idle: that came after the layout that
# shows them, and laid the screen out again.
class _Box(SharedBlank, SizedInOneLayout, Vertical):
    """The final scores' frame."""


class _Buttons(SharedBlank, SizedInOneLayout, Horizontal):
    """The row of the final scores' buttons."""


# Every seat at a table shows the same final scores at the same moment: each part's lines
# are drawn once for the process (:class:`SharedLines`), not by every seat's app.
def _words_key(content) -> tuple:
    """What a part's words draw: the text given (markup is read from it the same way
    every time), or a Content's text and styles (a Content's equality ignores them)."""
    if isinstance(content, str):
        return (content,)
    return (str(content), tuple(getattr(content, "spans", ())))


class _Line(SizedInOneLayout, SharedLines, Label):
    """A line of words of the final scores."""

    def shared_key(self):
        return _words_key(self.content)


class _Button(SizedInOneLayout, SharedLines, Button):
    """A button of the final scores (its focus, its classes and the mouse over it are in
    every shared drawing's key)."""

    def shared_key(self):
        return _words_key(self.label)


class _Scores(SizedInOneLayout, SharedLines, ScoreTable):
    """The final scores' table (laid out again only when it has another number of rows:
    a layout of the screen under the veil is a layout of every widget)."""

    def shared_key(self):
        view = self.view
        if view is None:
            return None
        return (view.scores, tuple(p.name for p in view.players), view.winners,
                view.round_results)

    def show(self, view: PlayerView) -> None:
        """Show the scores of ``view``."""
        rows = len(view.players)
        same = self.view is not None and len(self.view.players) == rows
        self.set_reactive(ScoreTable.view, view)
        self.refresh(layout=not same)


PARTS: tuple[type, ...] = (_Box, _Buttons, _Line, _Button, _Scores, FinalChat)
"""The kinds of widget the final scores are made of (their CSS, and their bases', is in
every app's stylesheet from the start: see :mod:`~diamant_tui.ui.widget_css`)."""


class FinalScores(SharedBlank, SizedInOneLayout, Vertical):
    """Final scores and the rematch vote, a part of the table screen, laid over the cave.

    Not a screen of its own: a new screen for every seat at every game's end composed,
    styled and laid out the whole terminal again, and was garbage once the next game
    began. This one is mounted at the first game's end and kept for the next games.
    Nor shown in the cave's place: hiding the cave and showing it again laid out the
    whole screen twice a game, for every seat, and moved the keyboard's focus. It lies
    over the table in the overlay layer, always laid out, and is shown and hidden by a
    veil (:mod:`~diamant_tui.ui.veils`), as the round summary is: each costs a frame
    of its own region only. The table screen keeps the covered buttons out of the focus
    chain. Its buttons are pressed through the table screen (``rematch``, ``quit``).
    """

    # Over the table's column below the round bar (its height is set to leave the bar's
    # line and the footer's, see fit), down to its last line, where the chat box opens
    # over it (a later dock in the same layer): the box leaves that line free, so that
    # the buttons stay in sight while a line is typed.
    # The chat takes the rows the rest leaves, up to six: at 80x24 with eight players,
    # three (no blank line between the title and the winners, nor above the buttons).
    # A share of the room, not a count worked out from what the rest takes: that was a
    # second layout of every seat's screen at the game's end.
    # On a wider column the box stays as wide as at 80 columns, in the middle: its title
    # was centred over the whole column while the table kept to the left.
    DEFAULT_CSS = """
    FinalScores {
        layer: overlay;
        dock: top;
        width: 100%;
        margin-top: 1;
        align-horizontal: center;
        & > #final-box {
            height: 1fr;
            width: 100%;
            max-width: 80;
            padding: 0 1;
            margin-bottom: 1;
            align: center middle;
        }
        #final-winners {
            width: 100%;
            text-style: bold;
            color: $success;
            margin: 0 0 1 0;
        }
        #final-note {
            /* Two lines: the longest hints wrap at 80 columns, and a fixed height
               needs no new layout when the words change. */
            width: 100%;
            height: 2;
            margin: 1 0 0 0;
        }
        #final-votes {
            /* One line: at eight seats, long names do not fit, and a line wrapped
               into one row was cut after a comma, as if nobody came after it. */
            width: 100%;
            height: 1;
            color: $text-muted;
            text-wrap: nowrap;
            text-overflow: ellipsis;
        }
        #final-buttons {
            /* A dialog's row of buttons, but right under the votes: the line that
               stood between goes to the chat. */
            height: 1;
            width: auto;
            & > Button {
                margin: 0 1;
                min-width: 12;
            }
        }
        #final-chat {
            /* The newest lines of chat, under the buttons: a toast stood over the
               rematch lines for its seconds. */
            height: 1fr;
            min-height: 1;
            max-height: 6;
        }
    }
    """

    def __init__(self, view: PlayerView, member: Member, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view
        """The game's last view, whose scores are shown."""
        self.member = member
        self._votes: TableUpdate | None = None
        self._chat: tuple[str, ...] = ()
        """The chat lines shown under the buttons (:meth:`show_chat`)."""
        self._refusal: str | None = None
        """Why this person's chat line was refused, told under them (:meth:`show_refusal`)."""
        self._refusal_timer: Timer | None = None
        self._built = False
        self._shown = False
        veil(self)  # shown by show(); what it composes is veiled as it is composed

    @property
    def may_vote(self) -> bool:
        """A player at the table, not a spectator."""
        return not self.member.watching

    def compose(self) -> ComposeResult:
        t = self.app.t
        with _Box(id="final-box") as box:
            yield _Line(t("final.title"), classes="dialog-title")
            yield _Line(Content(""), id="final-winners")
            yield _Scores(id="final-scores")
            yield _Line(Content(""), id="final-note")
            yield _Line(Content(""), id="final-votes")
            with _Buttons(id="final-buttons"):
                if self.may_vote:
                    yield _Button(Content(t("final.rematch")), id="rematch", compact=True)
                yield _Button(Content(t(f"final.{self.app.LEFT_FOR}")), id="quit",
                              compact=True)
            yield FinalChat(id="final-chat")
        veil(box, self._veiled)

    def on_mount(self) -> None:
        self._built = True
        # Fitted to the terminal before the screen's first layout, which then places it.
        self.fit(self.app.size.height)
        if self._shown:
            self._fill()

    def fit(self, screen_height: int) -> None:
        """Cover the table's column but its round bar and the footer, on a screen
        ``screen_height`` lines high (CSS has no "100% less a line" for a docked widget)."""
        height = max(1, screen_height - 2)
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height

    @property
    def shown(self) -> bool:
        """Whether the final scores are on the screen (or about to be, once mounted)."""
        return self._shown

    def show(self, view: PlayerView) -> None:
        """Show the final scores of ``view`` and put the keyboard's focus on the first
        button, unless a line of chat is being typed (the votes are those last given to
        :meth:`show_votes`)."""
        self.view = view
        self._shown = True
        veil(self, False)
        if self._built:
            self.fit(self.app.size.height)  # (the terminal may have changed under another screen)
            self._fill()

    def _fill(self) -> None:
        t = self.app.t
        view = self.view
        names = [view.players[s].name for s in view.winners]
        key = "final.winner" if len(names) == 1 else "final.winners"
        # Plain content: people's names and "[r]" must not be read as markup.
        line = self.query_one("#final-winners", Label)
        line.update(Content("★ " + t(key, names=", ".join(names))), layout=False)
        # Laid out again only when the words take another number of lines (long names).
        size = line.content_size
        if not size.width or line.get_content_height(size, size, size.width) != size.height:
            line.refresh(layout=True)
        self.query_one(_Scores).show(view)
        if not isinstance(self.screen.focused, Input):
            # Not from a chat line being typed: its next keys would press these buttons.
            # At once, not as Textual's focus() does, once the app's pending messages are
            # handled: the focused look then came a frame after the scores.
            self.screen.set_focus(self.query_one("#rematch" if self.may_vote else "#quit", Button))
        self.show_votes(self._votes)
        self.show_chat(self._chat)

    def hide(self) -> None:
        """Take the scores off the screen (a new game has begun)."""
        self._shown = False
        veil(self)
        self._votes = None
        self._refusal_over()
        self.show_chat(())

    def show_chat(self, lines: tuple[str, ...]) -> None:
        """Show ``lines``, the newest lines of chat (as typed, never markup), oldest
        first, under the buttons: those that fit."""
        self._chat = lines
        self._show_chat()

    def show_refusal(self, text: str, seconds: float) -> None:
        """Tell ``text``, why a chat line of this person's was refused, under the chat
        for ``seconds``."""
        if self._refusal_timer is not None:
            self._refusal_timer.stop()
        self._refusal = text
        self._refusal_timer = self.set_timer(seconds, self._refusal_over)
        self._show_chat()

    def _refusal_over(self) -> None:
        if self._refusal_timer is not None:
            self._refusal_timer.stop()
            self._refusal_timer = None
        if self._refusal is not None:
            self._refusal = None
            self._show_chat()

    def _show_chat(self) -> None:
        if self._built:
            self.query_one(FinalChat).show(self._chat, self._refusal)

    def show_votes(self, update: TableUpdate | None) -> None:
        """Say who has asked for a rematch, from the table's latest ``update``."""
        self._votes = update
        if update is None or not self._built:
            return
        t = self.app.t
        voters = sorted(update.rematch_voters | update.rematch_votes)
        marks = ", ".join(
            f"{update.seats[s].name} {'✓' if s in update.rematch_votes else '…'}" for s in voters)
        if self.member.watching:
            # Once every player has left, nobody is deciding anything: said so, not
            # left waiting on a rematch nobody is there to ask for.
            players_here = any(seat.kind is SeatKind.PERSON and seat.connected
                               for seat in update.seats)
            note = t("final.watching" if players_here else "final.watching_left")
            if update.departed_seats and self.app.SEATS_SPECTATORS:
                # Someone left: the spectator may play the rematch in their seat.
                note = t("final.watching_seat", name=update.seats[update.departed_seats[0]].name)
        elif update.may_hurry:
            # The rematch asked for waits on people who do not answer: h hurries them.
            late = update.hurry_late
            seconds = f"{turn_clock.HURRY_TIME:g}"
            note = (t("final.hurry_one", name=update.seats[late[0]].name, seconds=seconds)
                    if len(late) == 1 else
                    t("final.hurry_many", count=len(late), seconds=seconds))
        elif self.member.seat in update.rematch_votes:
            note = t("final.voted")
        else:
            note = t("final.vote_hint")
        # Fixed-size lines: new words need no new layout.
        self.query_one("#final-note", Label).update(Content(note), layout=False)
        votes = t("final.votes", votes=marks) if marks else ""
        self.query_one("#final-votes", Label).update(Content(votes), layout=False)
