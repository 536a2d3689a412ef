"""The table screen: the cave path, the players, the deck and the decision.

It subscribes to a :class:`~diamant_tui.table.Table` for one seat (None: a spectator),
renders each update it is sent and sends the person's intents back to the table.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, RichLog

from ...errors import DiamantError
from ...events import DecisionMade, Disaster, GameEnded, RoundEnded
from ...table import ChatLine, Table, TableStatus, TableUpdate
from ...view import Decision, Phase, PlayerView
from ..describe import card_name, describe
from ..messages import TableUpdated
from ..widgets.cave_path import CavePath
from ..widgets.deck_info import DeckInfo
from ..widgets.decision import DecisionPanel, DecisionState
from ..widgets.event_banner import EventBanner
from ..widgets.players import PlayersState, PlayerList
from ..widgets.round_bar import RoundBar
from .base import DiamantScreen
from .confirm import ConfirmScreen
from .final import FinalScreen
from .summary import RoundSummaryScreen


class TableScreen(DiamantScreen):
    """One seat's (or a spectator's) view of a table; any App can push it."""

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
        self._unsubscribe = None

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="table-columns"):
            with Vertical(id="table-main"):
                yield RoundBar(id="round-bar")
                with VerticalScroll(id="path-scroll"):
                    yield CavePath(id="cave-path")
                with Horizontal(id="table-middle"):
                    yield PlayerList(id="players")
                    yield DeckInfo(id="deck")
                yield EventBanner(id="banner")
                yield DecisionPanel(id="decision")
                yield Input(id="chat-input", placeholder=self.app.t("chat.placeholder"),
                            max_length=200, compact=True)
            yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(CavePath).empty_text = self.app.t("path.empty")
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
        if view is not None:
            first = self.view is None
            self._show_view(view, update)
            if first and not update.events:
                self._show_arrival(view)
        self._show_events(view, update)
        self._show_chat(update.chat)
        self._follow_status(view, update)

    def _show_view(self, view: PlayerView, update: TableUpdate) -> None:
        self.view = view
        self.query_one(RoundBar).view = view
        self.query_one(CavePath).path = view.path
        self.query_one("#path-scroll", VerticalScroll).scroll_end(animate=False)
        people = frozenset(s.seat for s in update.seats if s.kind.value == "person")
        away = frozenset(s.seat for s in update.seats if s.away)
        self.query_one(PlayerList).state = PlayersState(view, away, people)
        self.query_one(DeckInfo).view = view
        me = view.me
        self.query_one(DecisionPanel).state = DecisionState(
            due=view.decision_due,
            choice=view.my_decision,
            in_cave=me is not None and me.in_cave,
            playing=me is not None and view.phase is not Phase.OVER,
            deadline=update.deadline,
        )
        if view.decision_due and isinstance(self.app.screen, RoundSummaryScreen):
            self.app.screen.dismiss()

    def _show_arrival(self, view: PlayerView) -> None:
        # Arriving at a game already under way: say where it stands.
        t = self.app.t
        lines = [t("event.round_started", round=view.round)]
        if view.path:
            lines.append(card_name(t, view.path[-1].card))
        for line in lines:
            self.query_one(RichLog).write(line)
        self.query_one(EventBanner).show(lines)

    def _show_events(self, view: PlayerView | None, update: TableUpdate) -> None:
        if not update.events or view is None:
            return
        names = [p.name for p in view.players]
        log = self.query_one(RichLog)
        lines: list[str] = []
        disaster = False
        for event in update.events:
            text = describe(self.app.t, names, event)
            if text is None:
                continue
            if isinstance(event, DecisionMade):
                continue  # the ticks in the player list say it; the log keeps what matters
            log.write(text)
            lines.append(text)
            disaster = disaster or isinstance(event, Disaster)
        if lines:
            self.query_one(EventBanner).show(lines, disaster=disaster)
        ended = [e for e in update.events if isinstance(e, RoundEnded)]
        if ended and not any(isinstance(e, GameEnded) for e in update.events):
            self.app.push_screen(RoundSummaryScreen(view))

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
            self.notify(f"{line.author}: {line.text}", title=self.app.t("chat.title"), timeout=4)

    def _follow_status(self, view: PlayerView | None, update: TableUpdate) -> None:
        on_top = self.app.screen
        if update.status is TableStatus.FINISHED and view is not None:
            if not isinstance(on_top, FinalScreen):
                if on_top is not self:
                    self.app.pop_screen()
                self.app.push_screen(FinalScreen(view, self.table))
        elif update.status is TableStatus.PLAYING and isinstance(on_top, FinalScreen):
            self.app.pop_screen()
            self.query_one(RichLog).clear()
            self.query_one(EventBanner).show([])

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
            self.notify(str(error), severity="warning")

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
            self.notify(str(error), severity="warning")

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
