"""The table screen: the cave path, the players, the deck and the decision.

It subscribes to a :class:`~diamant_tui.table.Table` for one seat (None: a spectator),
renders each update it is sent and sends the person's intents back to the table.
Before the game begins it shows who sits where instead of the cave.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, RichLog

from ...errors import DiamantError
from ...events import DecisionMade, Disaster, GameEnded, RoundEnded, RoundStarted
from ...table import ChatLine, SeatKind, Table, TableStatus, TableUpdate
from ...view import Decision, Phase, PlayerView
from ..describe import arrival_lines, describe
from ..messages import TableUpdated
from ..widgets.cave_path import CavePath
from ..widgets.deck_info import DeckInfo, DeckState
from ..widgets.decision import DecisionPanel, DecisionState
from ..widgets.event_banner import SHOWN, EventBanner
from ..widgets.event_feed import EventFeed
from ..widgets.game_log import GameLog
from ..widgets.players import PlayersState, PlayerList
from ..widgets.quiet_footer import QuietFooter
from ..widgets.round_bar import BarState, RoundBar
from ..widgets.waiting import WaitingPanel, WaitingState
from .base import DiamantScreen
from .confirm import ConfirmScreen
from .final import FinalScreen
from .summary import RoundSummaryScreen

KEPT_LINES = 40
"""Lines of the current round kept for the feed under the path."""


class TableScreen(DiamantScreen):
    """One seat's (or a spectator's) view of a table; any App can push it.

    The app may define ``waiting_hint(table) -> str | None``: a line shown under the
    seats while the table waits for players (e.g. how its creator starts it early).
    """

    BINDINGS = [
        Binding("c", "choose('continue')", "key.continue"),
        Binding("l", "choose('leave')", "key.leave"),
        Binding("left", "focus_choice('continue')", show=False),
        Binding("right", "focus_choice('leave')", show=False),
        Binding("p", "toggle_chance", "key.chance"),
        Binding("g", "toggle_log", "key.log"),
        Binding("t", "chat", "key.chat"),
        Binding("q", "leave_table", "key.quit"),
    ]

    def __init__(self, table: Table, seat: int | None) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self.view: PlayerView | None = None
        self.update_: TableUpdate | None = None
        self._chat_seen: tuple[ChatLine, ...] = ()
        self._round_lines: list[str] = []
        self._keys: tuple[bool, ...] | None = None
        self._final: FinalScreen | None = None
        self._unsubscribe = None

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="table-columns"):
            with Vertical(id="table-main"):
                yield RoundBar(id="round-bar")
                yield WaitingPanel(id="waiting")
                with Vertical(id="path-area"):
                    with VerticalScroll(id="path-scroll"):
                        yield CavePath(id="cave-path")
                    yield EventFeed(id="feed")
                with Horizontal(id="table-middle"):
                    yield PlayerList(id="players")
                    yield DeckInfo(id="deck")
                yield EventBanner(id="banner")
                yield DecisionPanel(id="decision")
                yield Input(id="chat-input", placeholder=self.app.t("chat.placeholder"),
                            max_length=200, compact=True)
            yield GameLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield QuietFooter()

    def on_mount(self) -> None:
        self.query_one(CavePath).empty_text = self.app.t("path.empty")
        # A spectator has no choice to make: offer no buttons.
        self.query_one(DecisionPanel).display = self.seat is not None
        self._unsubscribe = self.table.subscribe(self.seat, self._on_table_update)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_table_update(self, update: TableUpdate) -> None:
        # The table calls this on the event loop; hand the update to the screen's queue.
        self.post_message(TableUpdated(update))

    # -- updates -------------------------------------------------------------------

    def on_table_updated(self, message: TableUpdated) -> None:
        update = message.update
        self.update_ = update
        view = update.view
        waiting = view is None and update.status is TableStatus.WAITING
        self.set_class(waiting, "-waiting")
        if waiting:
            self._show_waiting(update)
        self._begin_if_rematch(update)
        if view is not None:
            first = self.view is None
            self._show_view(view, update)
            if first and not update.events:
                self._show_arrival(view)
        self._show_events(view, update)
        self._show_chat(update.chat)
        self._finish_if_over(view, update)
        self._refresh_keys()

    def _show_waiting(self, update: TableUpdate) -> None:
        settings = self.table.settings
        hint = getattr(self.app, "waiting_hint", None)
        self.query_one(WaitingPanel).state = WaitingState(
            name=self.table.name,
            rules=settings.rules,
            timer=settings.timer,
            hidden_chests=settings.hidden_chests,
            seats=update.seats,
            me=self.seat,
            hint=hint(self.table) if hint is not None else None,
        )

    def _show_view(self, view: PlayerView, update: TableUpdate) -> None:
        self.view = view
        self.query_one(RoundBar).state = BarState.of(view)
        cave_path = self.query_one(CavePath)
        if cave_path.path != view.path:
            cave_path.path = view.path
            self.query_one("#path-scroll", VerticalScroll).scroll_end(animate=False)
        people = frozenset(s.seat for s in update.seats if s.kind is SeatKind.PERSON)
        away = frozenset(s.seat for s in update.seats if s.away)
        self.query_one(PlayerList).state = PlayersState(view, away, people)
        self.query_one(DeckInfo).state = DeckState.of(view)
        me = view.me
        self.query_one(DecisionPanel).state = DecisionState(
            due=view.decision_due,
            choice=view.my_decision,
            in_cave=me is not None and me.in_cave,
            playing=me is not None and view.phase is not Phase.OVER,
            deadline=update.deadline,
        )
        on_top = self.app.screen
        if isinstance(on_top, RoundSummaryScreen) and on_top.view.round != view.round:
            on_top.close()  # the next round has begun

    def _show_arrival(self, view: PlayerView) -> None:
        # Arriving at a game already under way: say where it stands.
        lines = arrival_lines(self.app.t, view)
        log = self.query_one(RichLog)
        for line in lines:
            log.write(line)
        shown = self.query_one(EventBanner).show(lines)
        self._round_lines = lines
        self._show_feed(shown)

    def _show_events(self, view: PlayerView | None, update: TableUpdate) -> None:
        if not update.events or view is None:
            return
        names = [p.name for p in view.players]
        log = self.query_one(RichLog)
        lines: list[str] = []
        disaster = False
        for event in update.events:
            if isinstance(event, RoundStarted):
                self._round_lines = []
            text = describe(self.app.t, names, event)
            if text is None or isinstance(event, DecisionMade):
                continue  # the ticks in the player list say who has chosen
            log.write(text)
            lines.append(text)
            disaster = disaster or isinstance(event, Disaster)
        if lines:
            shown = self.query_one(EventBanner).show(lines, disaster=disaster)
            self._round_lines = (self._round_lines + lines)[-KEPT_LINES:]
            self._show_feed(shown)
        ended = [e for e in update.events if isinstance(e, RoundEnded)]
        if ended and not any(isinstance(e, GameEnded) for e in update.events):
            self.app.push_screen(RoundSummaryScreen(view))

    def _show_feed(self, latest: int) -> None:
        """The feed shows the round's lines that the banner does not hold (``latest``)."""
        kept = len(self._round_lines) - min(SHOWN, latest)
        self.query_one(EventFeed).lines = tuple(self._round_lines[:kept])

    def _show_chat(self, chat: tuple[ChatLine, ...]) -> None:
        # The table sends its last lines each time: show only those not seen yet.
        seen = self._chat_seen
        overlap = next(
            (n for n in range(min(len(seen), len(chat)), -1, -1) if seen[len(seen) - n:] == chat[:n]),
            0,
        )
        fresh = chat[overlap:]
        self._chat_seen = chat
        log = self.query_one(RichLog)
        for line in fresh:
            log.write(f"» {line.author}: {line.text}")
            self.notify(f"{line.author}: {line.text}", title=self.app.t("chat.title"),
                        timeout=4, markup=False)

    def _to_top(self) -> None:
        """Close whatever is shown over this screen (rules, summary, a question)."""
        while self in self.app.screen_stack and self.app.screen is not self:
            self.app.pop_screen()

    def _begin_if_rematch(self, update: TableUpdate) -> None:
        if update.status is TableStatus.PLAYING and self._final is not None:
            self._final = None
            self._to_top()
            self.query_one(RichLog).clear()
            self.query_one(EventBanner).show([])
            self._round_lines = []
            self._show_feed(0)

    def _finish_if_over(self, view: PlayerView | None, update: TableUpdate) -> None:
        if update.status is TableStatus.FINISHED and view is not None and self._final is None:
            self._to_top()
            self._final = FinalScreen(view, self.table)
            self.app.push_screen(self._final)

    def _refresh_keys(self) -> None:
        """Ask the footer to look at the keys again only when what they offer has changed."""
        view = self.view
        keys = (view is None, view is not None and view.decision_due,
                view is not None and view.phase is Phase.OVER)
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        if action in ("choose", "focus_choice"):
            if self.seat is None or view is None or view.phase is Phase.OVER:
                return False  # a spectator, or no game: the keys are not offered at all
            return True if view.decision_due else None  # shown dimmed until a choice is due
        if action == "toggle_chance":
            return view is not None
        return True

    # -- intents -------------------------------------------------------------------

    def wake(self) -> None:
        """The person pressed a key: if a computer was playing their seat, they take it back."""
        if self.seat is not None and self.update_ is not None:
            if self.update_.seats[self.seat].away:
                self.table.wake(self.seat)

    def on_decision_panel_decision_chosen(self, message: DecisionPanel.DecisionChosen) -> None:
        self.action_choose(message.decision.value)

    def action_choose(self, decision: str) -> None:
        if self.seat is None or self.view is None or not self.view.decision_due:
            return
        try:
            self.table.submit(self.seat, Decision(decision))
        except DiamantError as error:
            self.notify(str(error), severity="warning", markup=False)

    def action_focus_choice(self, decision: str) -> None:
        self.query_one(DecisionPanel).focus_choice(Decision(decision))

    def action_toggle_chance(self) -> None:
        deck = self.query_one(DeckInfo)
        deck.show_chance = not deck.show_chance

    def action_toggle_log(self) -> None:
        self.toggle_class("-log-open")

    def action_chat(self) -> None:
        chat = self.query_one("#chat-input", Input)
        chat.add_class("-open")
        chat.focus()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        chat = message.input
        text = message.value
        chat.value = ""
        chat.remove_class("-open")
        self.query_one(DecisionPanel).focus_choice(Decision.CONTINUE)
        if not text.strip():
            return
        author = self._my_name()
        try:
            self.table.say(author, text)
        except DiamantError as error:
            self.notify(str(error), severity="warning", markup=False)

    def _my_name(self) -> str:
        if self.seat is not None and self.update_ is not None:
            return self.update_.seats[self.seat].name
        return self.app.t("chat.spectator")

    def action_leave_table(self) -> None:
        if self.update_ is not None and self.update_.status is TableStatus.PLAYING:
            self.app.push_screen(
                ConfirmScreen(self.app.t("confirm.leave")),
                lambda yes: self.app.leave_table() if yes else None,
            )
        else:
            self.app.leave_table()
