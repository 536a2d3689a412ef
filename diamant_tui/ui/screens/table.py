"""The table screen: the cave path, the players, the deck and the decision.

It is given the :class:`~diamant_tui.table.Member` a table made for one person (in a
seat, or watching), renders each update the table sends and passes the person's intents
back through that member: the table, not this screen, decides what is allowed.
Before the game begins it shows who sits where instead of the cave.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from time import monotonic

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.messages import Prompt
from textual.widget import Widget
from textual.widgets import Button, Input

from ...engine.errors import DiamantError
from ...engine.events import (CardRevealed, DecisionMade, DecisionsRevealed, Disaster, GameEnded,
                              RoundEnded, RoundStarted)
from ...table import (ChatRejected, ComputerPlayerFailed, Hurried, Member, NotAtTable,
                     SeatKind, TableEvent, TableStatus, TableUpdate)
from ...engine.view import Decision, Phase, PlayerView
from ..describe import arrival_lines, described
from ..messages import LeaveTable, TableUpdated, TakeSeat
from ..refusals import refusal_text
from ..round_story import RoundStory
from ..widgets.blank_containers import Column, Row, SharedBlank
from ..widgets.cave_path import CavePath, PathScroll, shown_path
from ..widgets.deck_info import DeckInfo, DeckState
from ..widgets.decision import ChoiceButton, DecisionPanel, DecisionState
from ..widgets.event_banner import SHOWN, EventBanner
from ..widgets.final_scores import FinalScores
from ..widgets.game_log import KeptLog
from ..widgets.players import PlayersState, PlayerList
from ..widgets.key_bar import KeyBar
from ..widgets.round_bar import BarState, RoundBar
from ..widgets.round_summary import RoundSummary
from ..widgets.one_layout import mount_in_one_layout
from ..widgets.steady_input import SteadyInput
from ..widgets.waiting import WaitingPanel, WaitingState
from .base import DiamantScreen
from .table_chat import TableChat
from .waiting_questions import WaitingQuestions

DECISION_KEYS = frozenset({"c", "l", "enter", "space"})
"""Keys that make (or press a button that makes) a decision."""
SUMMARY_GRACE = 0.4
"""Seconds after the game closed the round summary (the next round begun) during which
Enter and Space, the keys that close it, press no button, and a click on a button
chooses nothing: a person about to close it themselves, their key or click on its way as
it went, chose in the new round unawares (the click on the button under the summary).
Less than the time it takes to read a card and decide."""
SPECTATOR_DELAY = 0.2
"""Seconds a spectator's screen lets the table's updates wait (those arriving meanwhile
are drawn together): every screen at a table draws each update, and on a server they all
take turns on one processor, so the players' screens, which have turns to take, go first."""


_DECIDING_PHASES = frozenset({Phase.REVEAL, Phase.DECISION})
"""The phases of a round under way, in which the players in the cave decide at every card."""
_NOT_WAITING = (type(None), Prompt)
"""What the message the screen's loop holds back may be for an update to be drawn at
once (:meth:`TableScreen._draw_now`): none, or a prompt to go idle."""


@dataclass(frozen=True)
class _GameParts:
    """The game's widgets as the screen made them. A table's update reaches them at
    every card, for every seat, and a query walks the screen's widgets each time: those
    walks were about 2 % of a server's CPU under load."""

    cave_path: CavePath
    path_scroll: PathScroll
    players: PlayerList
    deck: DeckInfo
    banner: EventBanner
    decision: DecisionPanel


class TableScreen(TableChat, WaitingQuestions, SharedBlank, DiamantScreen):
    """One seat's (or a spectator's) view of a table; any App can push it. Its chat
    (:class:`TableChat`) and the questions it asks at a waiting table
    (:class:`WaitingQuestions`) are in modules of their own.

    The screen's own lines (its background, under everything) are shared by every app
    (:class:`SharedBlank`), as are those of its columns and rows."""

    # Nothing is focused for the sake of it (the log, hidden, while the table waits): the
    # decision panel focuses a button when a choice is due, the final scores theirs.
    AUTO_FOCUS = ""

    # Keys the key bar presses once for a double click on them (see KeyBar).
    PRESSED_ONCE = frozenset({"c", "l"})
    BINDINGS = [
        Binding("c", "choose('continue')", "key.continue"),
        Binding("l", "choose('leave')", "key.leave"),
        Binding("left", "focus_choice('continue')", show=False),
        Binding("right", "focus_choice('leave')", show=False),
        Binding("p", "toggle_chance", "key.chance"),
        Binding("g", "toggle_log", "key.log"),
        Binding("t", "chat", "key.chat"),
        Binding("s", "start_now", "key.start_now"),
        Binding("j", "take_seat", "key.take_seat"),  # a spectator, while a seat is free
        Binding("escape", "keep_waiting", "key.keep_waiting"),  # only while asked to start
        Binding("escape", "stay", "key.stay"),  # only while asked to leave the waiting table
        Binding("r", "rematch", "key.rematch"),  # only once the game is over
        # Told on the decision panel's note line, when it may be pressed: the key bar has
        # no room for it beside Continue and Exit at 80 columns in every language.
        Binding("h", "hurry", show=False),
        Binding("q", "leave_table", "key.quit"),
        Binding("escape", "close_chat", "key.close_chat"),  # only while the chat box is open
        # Only while the log lies over the table: its border says so ("g or Esc: close"),
        # the key bar having no room for it beside the game's keys at 80 columns.
        Binding("escape", "close_log", show=False),
        # Before any widget's own keys (a button's Enter), while a round summary is shown.
        Binding("enter,escape,space", "close_summary", show=False, priority=True),
    ]

    def binding_text(self, key: str) -> str:
        # q takes the person where the host sends them: out of a local game, back to a
        # server's lobby (a spectator read "q back to the lobby" over "q Quit").
        if key == "key.quit":
            key = f"key.{self.app.LEFT_FOR}"
        return super().binding_text(key)

    def __init__(self, member: Member) -> None:
        super().__init__()
        self.member = member
        self.table = member.table
        self.seat = member.seat
        self.view: PlayerView | None = None
        self.update_: TableUpdate | None = None
        self._story = RoundStory()
        """The round's lines and the chat among them, for the feed under the path."""
        self._banner_shown = 0
        """How many of the round's newest lines the banner holds (the feed the others)."""
        self._banner_lines: list[str] = []
        """What the banner was last given: the latest turn's lines (:meth:`_show_events`)."""
        self._turn_open = False
        """Whether the banner's lines are a turn's choices still waiting for their card."""
        self._keys: tuple[bool, ...] | None = None
        self._final: FinalScores | None = None
        self._part: str | None = None
        """What stands in the main column: "waiting", "game" or "final" (:meth:`_show_part`)."""
        self._before_game: tuple[Widget, ...] = ()
        self._in_game: tuple[Widget, ...] = ()
        self._unsubscribe = None
        self._due_since: float | None = None
        """When the round's first decision reached this screen: older keys never decide."""
        self._summary_gone: float | None = None
        """When the game last closed the round summary (see :data:`SUMMARY_GRACE`)."""
        self._due_round: int | None = None
        """The turn (round, card) this person last chose in, as their view showed it."""
        self._waiting_updates: list[TableUpdate] = []
        self._first_updates: list[TableUpdate] | None = None
        """While the screen subscribes to its table: the update it sends at once."""
        # The parts check_action asks about, kept as composed (again by a new language):
        # a query walks the screen's widgets, and the key bar asks for every key it shows
        # at every change of the keys, for every seat.
        self._chat: Input | None = None
        self._summary: RoundSummary | None = None
        self._round_bar: RoundBar | None = None
        self._log = KeptLog()
        """The game log, whose widget is made when it is first shown (:meth:`_want_log`)."""
        self._parts: _GameParts | None = None
        """The game's widgets, once made (:meth:`_game_parts`); used once mounted."""
        self._told: list[str] | None = []
        """Lines told before the screen was mounted (:meth:`tell_aside`); None after."""
        self.idle_follows = False
        """Whether the screen's loop is handling a table's update, after which it goes
        idle by itself (:class:`~diamant_tui.ui.widgets.direct_repaint.RepaintedDirectly`
        asks)."""

    @property
    def game_goes_on(self) -> bool:
        """Whether the game at this table is being played (not waiting, not over)."""
        update = self.update_
        return update is not None and update.status is TableStatus.PLAYING

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        hidden = self.app.ignored_chat  # whose lines this person hides, at every table
        self._story.hidden = hidden
        with Row(id="table-columns"):
            with Column(id="table-main"):
                self._round_bar = RoundBar(id="round-bar")
                yield self._round_bar
                waiting = WaitingPanel(id="waiting")
                yield waiting
                self._before_game = (waiting,)
                # The game's parts are made with the screen, hidden while the table waits:
                # made as the game began, they were mounted for every seat of the table at
                # once, a third of what its beginning cost each seat.
                yield from self._game_parts()
                # Before they are first laid out, so that hidden ones are never drawn.
                self._show_part("waiting" if self.table.status is TableStatus.WAITING
                                else "game")
                # Its Enter sends the line as the box handles it, in its place among the
                # keys typed with it (the next line's t among them).
                chat = SteadyInput(id="chat-input", placeholder=self.app.t("chat.placeholder"),
                                   max_length=200, compact=True, on_submit=self.send_chat)
                chat.can_focus = False  # closed: no line of its own, no place in the focus chain
                self._chat = chat
                yield chat
            self._log = KeptLog(hidden)  # (a new language: a new log, as a new screen has)
            if self._log_shown:
                yield self._log.make()
        self._summary = RoundSummary(id="summary")
        yield self._summary
        yield KeyBar()

    def _game_parts(self) -> tuple[Widget, ...]:
        """The cave, the players, the deck, the banner and the decision, made with the
        screen (hidden while the table waits, :meth:`_show_part`)."""
        cave_path = CavePath(id="cave-path")
        cave_path.empty_text = self.app.t("path.empty")
        parts = self._parts = _GameParts(
            cave_path, PathScroll(cave_path, id="path-scroll"), PlayerList(id="players"),
            DeckInfo(id="deck", keep_lines=True), EventBanner(id="banner"), DecisionPanel(id="decision"))
        self._in_game = (
            # The path's scrolling area stands in the column itself, in no box of its
            # own: every widget is a message pump, with its styles, caches and lines.
            parts.path_scroll,
            Row(parts.players, parts.deck, id="table-middle"),
            parts.banner,
            parts.decision,
        )
        return self._in_game

    @property
    def _game_shown(self) -> bool:
        """Whether the game's parts are on the screen (from the game's start on): before
        it the waiting panel stands in their place, and nothing may be told on their note
        line or focused among their buttons."""
        return self._part not in (None, "waiting")

    async def on_mount(self) -> None:
        self._parts.decision.watching = self.seat is None
        # The table sends its first update as it is subscribed to: shown here, before the
        # screen's first frame, rather than as a message after it. As a message it came
        # after the screen showed itself, which drew the table without its state, then
        # again with it, unless Textual's start happened to be still under way then (it
        # holds frames back while it starts, and a seat's screen took long enough to
        # compose that it was).
        first: list[TableUpdate] = []
        self._first_updates = first
        try:
            self._unsubscribe = self.member.subscribe(self._on_table_update)
        except NotAtTable:
            # Given up while this screen was being made (the table closed by a host,
            # the server stopping): away from the table, as leaving it takes them.
            self.post_message(LeaveTable())
            return
        finally:
            self._first_updates = None
        for update in first:
            try:
                await self._show_update(TableUpdated(update))
            finally:
                self.app.table_update_shown(update)
        told, self._told = self._told or [], None
        for text in told:
            self.tell_aside(text)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_table_update(self, update: TableUpdate) -> None:
        # The table calls this on the event loop; hand the update to the screen's queue.
        if self._first_updates is not None:
            self._first_updates.append(update)  # the first, shown as the screen mounts
            return
        if self.seat is None and self.update_ is not None:
            # A spectator's screen (once it shows the table) draws after the players'.
            self._waiting_updates.append(update)
            if len(self._waiting_updates) == 1:
                asyncio.get_running_loop().call_later(SPECTATOR_DELAY, self._post_waiting)
            return
        self.post_message(TableUpdated(update))

    def _post_waiting(self) -> None:
        waiting, self._waiting_updates = self._waiting_updates, []
        for update in waiting:
            self.post_message(TableUpdated(update))

    # -- updates -------------------------------------------------------------------

    async def on_table_updated(self, message: TableUpdated) -> None:
        # The screen's loop goes idle after this message (or after those waiting behind
        # it): the widgets the update changes need not prompt it to (see
        # RepaintedDirectly), which was one more message to handle, for every seat at
        # every update.
        self.idle_follows = True
        try:
            await self._show_update(message)
        finally:
            self.idle_follows = False
            # Told whatever became of this screen meanwhile, as it was when the update
            # bubbled up to it.
            self.app.table_update_shown(message.update)
        self._draw_now()

    def _on_idle(self, event: events.Idle) -> None:
        if type(self._pending_message) is TableUpdated:
            # Textual goes idle between a message and the one its loop has taken out to
            # look at: here another update, after which the screen draws both at once
            # (:meth:`_draw_now`). Textual's idle (the screen's, next in the classes'
            # order) would wake the screen's timer for nothing meanwhile.
            event.prevent_default()

    def _draw_now(self) -> None:
        """Draw what the update changed now, not at the screen's timer.

        Textual draws a screen from a timer of its own, woken when the screen is idle:
        the update's frame waited for the timer's task to take its turn on the event
        loop, behind whatever the other seats had queued meanwhile, and its sleep after
        the frame was one more turn (at every card, for every seat). Drawn here, at the
        end of the update's handling, when no other message waits (those are drawn
        together, at the screen's idle, as Textual would; a prompt to go idle, which
        the widgets changed by the update no longer send but other code may, is no
        message of that kind).
        ``_on_timer_update``, Textual's own frame, the queue's ``values`` and the message
        the loop has taken out to look at (``_pending_message``) are private: this relies
        on the pinned minor version of Textual."""
        if (self.is_current and not self.app._batch_count
                and type(self._pending_message) in _NOT_WAITING
                and all(type(waiting) is Prompt for waiting in self._message_queue.values)):
            self._on_timer_update()

    async def _show_update(self, message: TableUpdated) -> None:
        update = message.update
        view = update.view
        if view is not None and self.view is None:
            self._summary.reserve(view)  # sized in the layout that shows the game
        if view is not None and view.decision_due and view.round != self._due_round:
            # The round's first decision: keys sent before it arrived were meant for
            # something else (the round summary), never for this choice (see on_key).
            self._due_round, self._due_since = view.round, message.time
        arriving = self.update_ is None
        self.update_ = update
        self._follow_question(update)
        waiting = view is None and update.status is TableStatus.WAITING
        if waiting:
            self._show_part("waiting")
            self._show_seats(update)
        self._begin_if_rematch(update)
        if not waiting and self._part == "waiting":
            self._show_part("game")
        if view is not None:
            first = self.view is None
            self._show_view(view, update)
            if first and all(isinstance(event, Hurried) for event in update.events):
                # (A rematch hurried as they come back is told with their arrival.)
                self._show_arrival(view, update.earlier)
        self._show_events(view, update)
        self._show_chat(update.chat, arriving=arriving)
        await self._finish_if_over(view, update)
        if not self.is_attached:
            return  # closed as the final scores mounted (the person left, the session ended)
        self._tell_rematch_hurried(view, update)
        self._refresh_keys()

    def _show_part(self, part: str) -> None:
        """Show what stands in the main column: before the game ("waiting") the seats stand
        where the cave will be; at its end ("final") the final scores lie over the cave.

        Each widget is shown or hidden by its own ``display``, not through a class on the
        screen: a class there makes Textual apply the stylesheet again to every widget of
        the screen, which was about a tenth of a join's CPU, and as much again for every
        seat when the game starts. The cave stays laid out under the final scores (see
        :class:`FinalScores`), which show and hide themselves."""
        if part == self._part:
            return
        self._part = part
        for widget in self._before_game:
            widget.display = part == "waiting"
        for widget in self._in_game:
            widget.display = part != "waiting"
        if self._final is not None and part != "final":
            self._final.hide()

    @property
    def focus_chain(self) -> list[Widget]:
        """Textual's focus chain, but for the game's buttons while the final scores lie
        over them, and for veiled widgets (the final scores during a game): Tab would
        otherwise move the focus to a button nobody can see. While the chat box is open,
        it alone: Tab typed in it (a name's completion in other chat programs) left it
        open but without the focus, and the next letters acted on the game."""
        chat = self._chat
        if chat is not None and chat.has_class("-open"):
            return [chat]
        chain = [widget for widget in super().focus_chain if not widget._veiled]
        if self._part != "final" or self._parts is None:
            return chain
        covered = self._in_game
        return [widget for widget in chain
                if not any(node in covered for node in widget.ancestors_with_self)]

    def _show_seats(self, update: TableUpdate) -> None:
        settings = self.table.settings
        t = self.app.t
        # The panel already counts the free seats, that is the people still awaited.
        hint = question = None
        asked = self._asked[0] if self._asked is not None else None
        if asked == "start":
            question = (t("waiting.start_question", count=update.people_awaited),
                        t("waiting.start_answers"))
        elif asked == "leave":
            question = (self._leave_question(update), t("waiting.leave_answers"))
        elif update.may_start:
            hint = t("waiting.start_hint")
        elif update.starter is not None and update.people_awaited:
            # Said why they may: they opened the table, or its opener has left it.
            told = "creator_can_start" if update.starter == update.creator else "first_can_start"
            hint = t(f"waiting.{told}", name=update.seats[update.starter].name)
        if update.watching:
            note = "watching.note_seat" if self._seat_offered(update) else "watching.note"
            hint = "\n".join(filter(None, (t(note), hint)))
        self.query_one(WaitingPanel).state = WaitingState(
            name=self.table.name,
            rules=settings.rules,
            timer=settings.timer,
            hidden_chests=settings.hidden_chests,
            seats=update.seats,
            me=self.seat,
            hint=hint,
            question=question,
            note=self.app.waiting_note(self.table),
            watchers=update.watchers,
        )

    def _show_view(self, view: PlayerView, update: TableUpdate) -> None:
        self.view = view
        parts = self._parts
        self._round_bar.state = BarState.of(view, len(update.watchers))
        cave_path = parts.cave_path
        path = shown_path(view)
        if cave_path.path != path:
            # Scrolled to its end only when it takes another height: a scroll is one more
            # message and frame for every seat at every card.
            moved = cave_path.changes_height(path)
            cave_path.path = path
            if moved:
                # Forced: the scroll bar a taller path brings is not there yet, and
                # Textual scrolls nothing without it (the newest cards stayed out of sight).
                parts.path_scroll.scroll_end(animate=False, force=True)
        people = frozenset(s.seat for s in update.seats if s.kind is SeatKind.PERSON)
        # A person not connected is away too, before a computer plays for them: after a
        # restart the game waits for them a while, and they are not choosing meanwhile.
        away = frozenset(s.seat for s in update.seats
                         if s.away or (s.kind is SeatKind.PERSON and not s.connected))
        parts.players.state = PlayersState(view, away, people)
        parts.deck.state = DeckState.of(view)
        me = view.me
        parts.decision.state = DecisionState(
            due=view.decision_due,
            choice=view.my_decision,
            in_cave=me is not None and me.in_cave,
            playing=me is not None and view.phase is not Phase.OVER,
            deadline=update.deadline,
            by_computer=update.chosen_by_computer,
            hurry=(tuple(view.players[seat].name for seat in update.hurry_late)
                   if update.may_hurry else ()),
        )
        summary = self._summary
        if summary.view is not None and summary.view.round != view.round:
            if self._summary_shown:
                self._summary_gone = monotonic()  # the clock of a key's time
            self._close_summary()  # the next round has begun

    def _show_arrival(self, view: PlayerView, earlier: tuple[TableEvent, ...]) -> None:
        """Arriving at a game already under way (or back after a restart): the round so
        far as it was told (``earlier``, from the table), else where it stands. What the
        table told as the game began (who took whose seat) goes to the log first, as
        the others read it; under the path only in the first round, whose story it was
        part of for them. Which computer players failed is for the log alone."""
        failures = self._described(view, tuple(event for event in earlier
                                               if isinstance(event, ComputerPlayerFailed)))
        earlier = tuple(event for event in earlier
                        if not isinstance(event, ComputerPlayerFailed))
        start = next((n for n, event in enumerate(earlier) if isinstance(event, RoundStarted)),
                     len(earlier))
        before, earlier = self._described(view, earlier[:start]), earlier[start:]
        lines = self._described(view, earlier)
        if not lines:
            lines = arrival_lines(self.app.t, view)
        if view.round == 1:
            lines, before = before + lines, []
        for line in before + lines + failures:
            self._log.write(line)
        self._story.begin(lines)
        # Before the round's first card (the last to sit down, as the game begins) the
        # turn is open: the card's lines join the round's start in the banner, as all the
        # others read them together, rather than pushing the start under the path.
        self._show_banner(lines, turn_open=not view.path,
                          disaster=any(isinstance(event, Disaster) for event in earlier))

    def _described(self, view: PlayerView, events: tuple[TableEvent, ...]) -> list[str]:
        """The lines that tell ``events`` (who decided is told by the player list)."""
        names = tuple(p.name for p in view.players)
        return [text for text in (described(self.app.translator, names, event)
                                  for event in events if not isinstance(event, DecisionMade))
                if text is not None]

    def _show_events(self, view: PlayerView | None, update: TableUpdate) -> None:
        if not update.events or view is None:
            return
        names = tuple(p.name for p in view.players)
        log = self._log
        lines: list[str] = []
        disaster = False
        for event in update.events:
            if isinstance(event, RoundStarted):
                self._story.begin()
            if isinstance(event, DecisionMade):
                continue  # the ticks in the player list say who has chosen
            if isinstance(event, Hurried) and self.seat in event.late:
                self.app.bell()  # whoever walked away may hear it from across the room
            text = described(self.app.translator, names, event)
            if text is None:
                continue
            log.write(text)
            if isinstance(event, ComputerPlayerFailed):
                continue  # read in the log only: the round's lines stay the game's
            lines.append(text)
            disaster = disaster or isinstance(event, Disaster)
        if lines:
            self._story.add(lines)
            if self._turn_open:
                # The person whose choice ended the turn was shown its choices at once;
                # the others get them with the card that follows. With that card the
                # banner and the feed read as theirs: one drawing of the cave and the
                # banner for the whole table, not one more for whoever decided last.
                lines = self._banner_lines + lines
            turn_open = (any(isinstance(e, DecisionsRevealed) for e in update.events)
                         and not any(isinstance(e, (CardRevealed, RoundEnded, RoundStarted))
                                     for e in update.events))
            self._show_banner(lines, turn_open=turn_open, disaster=disaster)
        ended = [e for e in update.events if isinstance(e, RoundEnded)]
        if ended and not any(isinstance(e, GameEnded) for e in update.events):
            self._show_summary(view)

    def _show_summary(self, view: PlayerView) -> None:
        """Sum up the round just ended in place of the table, until closed."""
        self._summary.show(view)

    @property
    def _summary_shown(self) -> bool:
        return self._summary is not None and self._summary.shown

    def _close_summary(self) -> None:
        if self._summary_shown:
            self._summary.hide()

    def action_close_summary(self) -> None:
        self._close_summary()

    def _show_banner(self, lines: list[str], *, turn_open: bool, disaster: bool = False) -> None:
        """The banner shows the last of ``lines`` (the newest of the round's lines), the
        feed the round's others."""
        self._banner_lines, self._turn_open = lines[-SHOWN:], turn_open
        self._banner_shown = self._parts.banner.show(lines, disaster=disaster)
        self._show_feed()

    def on_event_banner_refitted(self, message: EventBanner.Refitted) -> None:
        self._banner_shown = message.shown
        self._show_feed()

    def _show_feed(self) -> None:
        """The feed shows the round's lines that the banner does not hold, and the chat
        said among them."""
        self._parts.cave_path.feed = self._story.feed(min(SHOWN, self._banner_shown))

    def _to_top(self) -> None:
        """Close whatever is shown over this screen (rules, summary, a question)."""
        self._close_summary()
        while self in self.app.screen_stack and self.app.screen is not self:
            self.app.pop_screen()

    def _begin_if_rematch(self, update: TableUpdate) -> None:
        if update.status is TableStatus.PLAYING and self._part == "final":
            self._show_part("game")
            self._to_top()
            self._log.clear()
            self._story.begin()
            self._show_banner([], turn_open=False)

    def _tell_rematch_hurried(self, view: PlayerView | None, update: TableUpdate) -> None:
        """Those hurried to answer the rematch's question read, where it is answered and
        as long as they have, that it starts soon: once the final scores are made, so
        that someone who comes back to them as the rematch is hurried reads it too."""
        if update.status is not TableStatus.FINISHED or self._final is None or view is None:
            return  # (a rematch is hurried only at the final scores: no card pays for this)
        for event in update.events:
            if isinstance(event, Hurried) and event.rematch and self.seat in event.late:
                self._final.show_refusal(
                    self.app.t("final.hurried", name=view.players[event.seat].name,
                               seconds=f"{event.seconds:g}"), event.seconds)

    async def _make_final(self, view: PlayerView) -> None:
        """Make the final scores, veiled, at the first game's end (held through every
        game, they were a fifth of a playing seat's memory).

        Mounted and composed before they are shown, in one layout, and sized in it: they
        took two or three layouts of every seat's screen (placed, then their parts
        placed, then sized), each a frame of its own. Before the chat box, which opens
        over them."""
        final = FinalScores(view, self.member, id="final")
        await mount_in_one_layout(self.query_one("#table-main"), final, before=self._chat)
        self._final = final

    async def _finish_if_over(self, view: PlayerView | None, update: TableUpdate) -> None:
        if update.status is not TableStatus.FINISHED or view is None:
            return
        if self._final is None:
            await self._make_final(view)
            if not self.is_attached or not self.app.is_running:
                # Closed meanwhile (the person left, the session ended): an app that
                # stops takes its screens' parts down, the scores' parts first.
                return
        if self._part != "final":
            self._to_top()
            self._show_part("final")
            self._final.show(view)
            self._show_chat_aside()  # what was said as the last round ended, still news
        self._final.show_votes(update)  # who has asked for a rematch

    def _refresh_keys(self) -> None:
        """Ask the footer to look at the keys again only when what they offer has changed."""
        view = self.view
        update = self.update_
        keys = (view is None, view is not None and view.decision_due, self._in_the_cave,
                view is not None and view.phase is Phase.OVER,
                update is not None and update.may_start, self._part,
                update is not None and self._seat_offered(update),
                self._asked is not None and self._asked[0])
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        final = self._part == "final"
        if action == "focus_choice" and final:
            return True  # ← and → move between the final scores' buttons
        if action == "rematch":
            return self._rematch_offered
        if action in ("choose", "focus_choice"):
            if not self._in_the_cave:
                # A spectator, no game, or a player in camp (nothing to decide until the
                # next round): the keys are not offered at all.
                return False
            return True if view.decision_due else None  # shown dimmed until a choice is due
        if action == "toggle_chance":
            return view is not None and not final
        if action == "start_now":
            return self.update_ is not None and self.update_.may_start
        if action == "take_seat":
            return self.update_ is not None and self._seat_offered(self.update_)
        if action == "keep_waiting":
            return self._asked is not None and self._asked[0] == "start"
        if action == "stay":
            return self._asked is not None and self._asked[0] == "leave"
        if action == "close_summary":
            # Otherwise the key goes on to whatever would have had it (the chat box).
            return self._summary_shown and not isinstance(self.focused, Input)
        if action == "close_chat":
            return self._chat is not None and self._chat.has_class("-open")
        if action == "close_log":
            return self.has_class("-log-open")
        return True

    @property
    def _in_the_cave(self) -> bool:
        """Whether this person is a player in the cave of a round under way: they have a
        choice to make at every card, or will have one at the next. In camp (gone home
        this round), between rounds, at the game's end or watching, they have none, and
        the key bar shows no Continue or Exit (it changes at most twice a round)."""
        view = self.view
        if self.seat is None or view is None or view.phase not in _DECIDING_PHASES:
            return False
        me = view.me
        return me is not None and me.in_cave

    def passes_keys(self) -> bool:
        """Whether a key would reach this screen from the focused widget untouched, as it
        does while a button or nothing has the focus (not a text box, which takes
        letters): the app may then hand it to :meth:`on_key` and the bindings itself (see
        ``DiamantApp.on_event``); a button's Enter is its binding, found from it."""
        focused = self.focused
        return self.maximized is None and (
            focused is None or isinstance(focused, (ChoiceButton, Button)))

    def on_key(self, event: events.Key) -> None:
        # A key sent before the round's first decision reached the screen (an Enter that
        # closed the round summary, a key held down) must not become that decision.
        closes_summary = (event.key in ("enter", "space")
                          and not isinstance(self.focused, Input))  # (a chat line's Enter)
        if event.key in DECISION_KEYS and self._too_early(event.time, closes_summary):
            event.stop()
            event.prevent_default()
            return
        if self._asked is not None:
            self._answer_question(event)
        elif (self.seat is None and event.key in ("c", "l") and self._part == "game"
                and self.passes_keys()):
            # A spectator pressing Continue or Exit as a player would: their keys are
            # not offered and act on nothing; the note line says why, or it looked broken.
            self._parts.decision.said(self.app.t("refused.watching"))

    # -- intents -------------------------------------------------------------------

    def wake(self) -> None:
        """The person pressed a key: if a computer was playing their seat, they take it back."""
        if self.seat is not None and self.update_ is not None:
            if self.update_.seats[self.seat].away:
                self._act(self.member.wake)

    def on_decision_panel_decision_chosen(self, message: DecisionPanel.DecisionChosen) -> None:
        clicked = message.clicked_at
        # A click is held to what holds a key (see on_key): one that came before the
        # round's first decision, or a moment after the summary went by itself (it was
        # meant for the summary, and fell on the button that was under it), chooses nothing.
        if clicked is not None and self._too_early(clicked, closes_summary=True):
            return
        self.action_choose(message.decision.value)

    def _too_early(self, when: float, closes_summary: bool) -> bool:
        """Whether a key or click made at ``when`` must not decide: it came before the
        round's first decision reached this screen, or, being one that closes the round
        summary (``closes_summary``), within :data:`SUMMARY_GRACE` of the game's closing
        it."""
        return ((self._due_since is not None and when < self._due_since)
                or (closes_summary and self._summary_gone is not None
                    and when < self._summary_gone + SUMMARY_GRACE))

    def action_choose(self, decision: str) -> None:
        view = self.view
        if self.seat is None or view is None or not view.decision_due:
            return
        try:
            self.member.decide(Decision(decision))
        except DiamantError as error:
            # A key after the turn ended (a choice of theirs, or a computer's for them
            # while away, ended it; the table shows it with the card, which is due) is
            # simply too late: nothing is said (see ui/refusals.py).
            self._refused(error)
            return
        self._parts.decision.follow_choice(Decision(decision))

    def _act(self, intent, *args) -> None:
        """Pass an intent to the table; what it refuses is said in a short note."""
        try:
            intent(*args)
        except ChatRejected as error:  # says why, and when the person may speak again
            self._refuse_chat(error)
        except DiamantError as error:
            self._refused(error)

    def _refused(self, error: DiamantError) -> None:
        """Say in a short note, in the person's language, what the table refused and why
        (nothing for a key that came too late: :func:`refusal_text`)."""
        text = refusal_text(self.app.t, error)
        if text is not None:
            self.notify(text, severity="warning", markup=False)

    def action_focus_choice(self, decision: str) -> None:
        if self._part == "final":
            if decision == Decision.CONTINUE.value:
                self.focus_previous(Button)
            else:
                self.focus_next(Button)
            return
        self._parts.decision.focus_choice(Decision(decision))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        # The final scores' buttons (the decision panel's are its own), which act only
        # while the scores are on show: hidden under the next game, a button that kept
        # the focus (or a click queued before it was hidden) must do nothing.
        event.stop()
        if self._part != "final" or self._final is None or not self._final.shown:
            return
        if event.button.id == "rematch":
            self.action_rematch()
        elif event.button.id == "quit":
            self.post_message(LeaveTable())

    def action_hurry(self) -> None:
        """Hurry the people the turn waits on (h), when the panel says it may be done."""
        update = self.update_
        if update is not None and update.may_hurry:
            self._act(self.member.hurry)  # the table checks, as ever

    def _seat_offered(self, update: TableUpdate) -> bool:
        """Whether ``j`` takes a seat now: a spectator's, at a table waiting for players
        with a seat free, or at the final scores with the seat of someone who left (for
        the rematch), in an app that seats spectators (a server's)."""
        return (update.watching and self.app.SEATS_SPECTATORS
                and (update.status is TableStatus.WAITING and update.people_awaited > 0
                     or bool(update.departed_seats)))

    def action_take_seat(self) -> None:
        """A spectator takes one of the waiting table's free seats (the app seats them)."""
        self.post_message(TakeSeat())

    def action_rematch(self) -> None:
        """Ask for a rematch (a player at a finished game); the table starts it once all agree."""
        if self._rematch_offered:
            self._act(self.member.vote_rematch)

    @property
    def _rematch_offered(self) -> bool:
        """The final scores are shown to a player (not a spectator)."""
        return self._part == "final" and not self.member.watching

    def action_toggle_chance(self) -> None:
        deck = self._parts.deck
        deck.show_chance = not deck.show_chance

    def action_toggle_log(self) -> None:
        self.toggle_class("-log-open")
        self._want_log()

    def action_close_log(self) -> None:
        """Close the log opened over the table (Escape, as ``g`` does)."""
        self.remove_class("-log-open")

    @property
    def _log_shown(self) -> bool:
        """Whether the stylesheet shows the log: opened, or a terminal wide enough for a
        column of its own (the screen's classes, see ``diamant.tcss``)."""
        return self.has_class("-log-open") or self.has_class("-wide")

    def _want_log(self, wide: bool = False) -> None:
        """Make and mount the log's widget, if it is (or, ``wide``, will be) shown and
        not made yet."""
        if self._log.widget is None and (wide or self._log_shown) and self.is_attached:
            self.query_one("#table-columns").mount(self._log.make())

    def on_resize(self, event: events.Resize) -> None:
        # Before Textual sets the screen's size classes (its own handler comes after):
        # a terminal grown wide enough will show the log in a column of its own.
        if "-wide" in self._get_breakpoint_classes(event.size.width, self.HORIZONTAL_BREAKPOINTS):
            self._want_log(wide=True)
        # What lies over the table follows the terminal's height, which changes nothing
        # of their own width-long size.
        if self._summary is not None:
            self._summary.fit(event.size.height)
        if self._final is not None:
            self._final.fit(event.size.height)
