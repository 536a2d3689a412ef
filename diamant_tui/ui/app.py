"""The Diamant app: the setup screen for local play, or a table's screen for a seat.

``make_app(member=...)`` is the factory a host calls for a person already at a table;
``DiamantApp()`` alone shows the setup screen and plays locally, and
``DiamantApp(replay=...)`` shows a recorded game again.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

from textual import events
from textual.app import App
from textual.binding import Binding

from ..engine.record import Replay
from ..i18n import Translator, detect_language
from ..table import Member, Table, TableStatus, TableUpdate
from .bindings import translate_bindings
from .colours import apply_colours
from .ignored_chat import IgnoredNames
from .literal import printable
from .messages import LeaveReplay, LeaveTable, ReportAsked
from .screens.base import _Guarded
from .screens.confirm import QuitQuestion
from .screens.replay import ReplayScreen
from .shared_css import share_parsed_css
from .shared_rules import share_applied_rules
from .span_chops import gather_frames_from_spans
from .kept_together import keep_marks_with_their_words
from .cursor_moves import keep_cursor_moves
from .kept_binding_chains import keep_binding_chains
from .dispatch_plans import plan_dispatches
from .lazy_strip_caches import make_strip_caches_lazy
from .light_component_nodes import use_light_component_nodes
from .light_pump_queues import use_light_pump_queues
from .parameter_counts import count_parameters_once
from .strip_cycles import keep_strips_acyclic
from .positioned_styles import keep_positioned_styles
from .quick_styled_lines import style_lines_quickly
from .mount_waits import wait_for_mounts_in_turn
from .reflowed_maps import keep_reflowed_maps
from .same_size_layouts import lay_out_only_new_sizes
from .shown_pieces import send_only_changed_pieces
from .unchanged_filters import keep_unfiltered_lines
from .veils import use_veils
from .widget_css import add_widget_css
from .screens.rules import RulesScreen
from .screens.setup import SetupScreen
from .screens.table import TableScreen
from .screens.waiting_questions import READ_FIRST
from .setup_choices import SetupChoices

LeaveHandler = Callable[["DiamantApp"], None]

share_parsed_css()  # every app in this process parses its CSS once, together
share_applied_rules()  # and finds which rules hold for a widget in its place once
keep_strips_acyclic()  # a frame's lines are freed with it, not by the cycle collector
make_strip_caches_lazy()  # and make no cache they do not use
keep_unfiltered_lines()  # nor a copy of each line that the colour filter leaves as it is
keep_positioned_styles()  # and a run of text's style in its place is made once
use_light_component_nodes()  # component classes are styled without a message pump each
plan_dispatches()  # a message's handlers are looked up once per kind of widget and message
use_light_pump_queues()  # and each message pump's queue and events hold no deque
count_parameters_once()  # a callback's parameters are counted once per function, not per call
use_veils()  # widgets hidden and shown again without a layout (the round summary)
keep_cursor_moves()  # a frame's cursor moves are made once per cell, not once per move
gather_frames_from_spans()  # a frame's lines are gathered only where they are sent
keep_reflowed_maps()  # and a layout arranges the screen once, not again for the sizes it gave
style_lines_quickly()  # a widget's lines are styled from what they share, worked out once
send_only_changed_pieces()  # a frame leaves out what the terminal shows already
wait_for_mounts_in_turn()  # and widgets being mounted are waited for without a task each
lay_out_only_new_sizes()  # and a screen told the size it has keeps its layout
keep_binding_chains()  # its key bindings' chain is worked out once while the focus stays
keep_marks_with_their_words()  # a line never begins with French's ":" nor splits "30 s"
QUIT_KEYS = frozenset({"ctrl+q", "ctrl+c"})
"""Keys that still work behind the "enlarge your terminal" overlay: quitting the app."""


class DiamantApp(App):
    """Plays Diamant in a terminal, in one language of its own."""

    # Absolute, so that subclasses defined elsewhere (a host's app) find it too.
    CSS_PATH = str(Path(__file__).with_name("diamant.tcss"))
    TITLE = "Diamant"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("f1,question_mark", "rules", "key.rules")]
    LEFT_FOR = "quit"
    """Where leaving a table (``q``) takes the person, as its key and its button say:
    "quit" (the app ends, as a local game does) or "lobby" (a host's lobby)."""
    SEATS_SPECTATORS = False
    """Whether a spectator at a table waiting for its players may take one of its free
    seats (``j``, :class:`~diamant_tui.ui.messages.TakeSeat`): the host must seat them."""

    def __init__(
        self,
        *,
        lang: str | None = None,
        member: Member | None = None,
        choices: SetupChoices | None = None,
        on_leave: LeaveHandler | None = None,
        replay: Replay | None = None,
        **app_options,
    ) -> None:
        super().__init__(**app_options)
        # No widget here has a tooltip: Textual would still give every screen a tooltip
        # widget of its own to compose, style and lay out (about 5 % of a join's CPU on a
        # server, two screens an app). Textual's tests run without them too.
        self._disable_tooltips = True
        add_widget_css(self.stylesheet)  # all at once, before the first parse
        self.translator = Translator(lang or detect_language())
        self.member = member
        """Where this person is: their place at a table (seat or watching), if any."""
        self.choices = choices
        self._on_leave = on_leave
        self.replay = replay
        """A recorded game this app was opened to show (``diamant replay FILE``), if any."""
        self.ignored_chat = IgnoredNames()
        """Whose chat lines this person has hidden (``/ignore``): for this app, so for
        every table its connection visits."""
        self.help_note: str | None = None
        """A line the host wants shown at the top of the rules (e.g. a guest's resume code)."""
        self._own_table: Table | None = None
        self._game_was_on = False
        self._notes_shown: dict[tuple[str, str, str], float] = {}
        """The toasts on screen (text, title, severity), and when each goes."""
        # NO_COLOR asks for no colour when it is set and not empty (no-color.org).
        self.no_color = bool(os.environ.get("NO_COLOR"))
        apply_colours(self)

    @property
    def table(self) -> Table | None:
        """The table this person is at, if any."""
        return self.member.table if self.member is not None else None

    @property
    def seat(self) -> int | None:
        """This person's seat (None when watching or at no table)."""
        return self.member.seat if self.member is not None else None

    def t(self, key: str, **fmt: object) -> str:
        """The text for ``key`` in this app's language."""
        return self.translator(key, **fmt)

    def waiting_note(self, table: Table) -> str | None:
        """A note the host wants under the settings of ``table`` while it waits for its
        players (a server's: how friends reach a private table); none here."""
        return None

    def on_mount(self) -> None:
        translate_bindings(self, self.t)
        if self.member is not None:
            self.push_screen(TableScreen(self.member))
        elif self.replay is not None:
            self.push_screen(ReplayScreen(self.replay))
        else:
            self.push_screen(SetupScreen(self.choices))

    async def set_language(self, lang: str) -> None:
        """Switch this app (only) to ``lang`` and redraw every screen."""
        self.translator = Translator(lang)
        translate_bindings(self, self.t)
        for screen in self.screen_stack:
            if isinstance(screen, _Guarded):
                await screen.retranslate()

    async def on_event(self, event: events.Event) -> None:
        # Behind the "enlarge your terminal" overlay a key would act on a screen nobody
        # can see (decide, start a game, leave a table): drop keys and pastes there.
        if (
            isinstance(event, (events.Key, events.Paste))
            and not event.is_forwarded
            and self.size_guard_shown()
            and not (isinstance(event, events.Key)
                     and (event.key in QUIT_KEYS
                          or event.key in self.screen.KEYS_BEHIND_OVERLAY))
        ):
            return
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            # Any key, on any screen, shows the person is back at the keyboard: here,
            # before any widget takes it, for the chat box's letters (and the t that
            # opens it) never bubble up; a computer kept choosing for someone typing.
            for table_screen in self.screen_stack:
                if isinstance(table_screen, TableScreen):
                    table_screen.wake()
        if isinstance(event, events.Key) and not event.is_forwarded:
            screen = self.screen
            if isinstance(screen, TableScreen) and screen.passes_keys():
                await self._choice_key(screen, event)
                return
        await super().on_event(event)

    async def _choice_key(self, screen: TableScreen, event: events.Key) -> None:
        """What Textual does with a key that nothing between the focused widget and the
        table's screen handles: the key was posted to the focused button and bubbled up
        through the panel, two containers and the screen to the app, six messages handled
        before its binding acted, for every seat at nearly every turn (about 2 % of the
        server's CPU). Here it goes straight to the screen's handler, then the app's,
        then the bindings, in that order, as it went (the app's own,
        telling the person is back, ran already: :meth:`on_event`).

        Every key goes this way while it may (not only a choice's): keys that come
        together (one packet over SSH) are then handled in the order typed. Some the
        other way and some this way, a key went ahead of those before it: the letters
        typed with the chat's t reached the game before the box opened (the l of
        "hello" chose Exit), or an Enter typed before the t closed the box it opened."""
        if not self.app_focus:
            self.app_focus = True
        if self.focused is not None:
            screen._clear_tooltip()
        if await self._check_bindings(event.key, priority=True):
            return
        screen.on_key(event)  # a key sent before the turn stops here (see there)
        if event._stop_propagation:
            return
        await self._check_bindings(event.key)

    def size_guard_shown(self) -> bool:
        """Whether the "enlarge your terminal" overlay covers the screen on top."""
        screen = self.screen
        return isinstance(screen, _Guarded) and screen.too_small

    def table_update_shown(self, update: TableUpdate) -> None:
        """A table's screen has handled ``update`` (every update, whatever became of the
        screen): when a game begins or ends, the size overlays say so (or stop saying so).
        A host's app extends this."""
        playing = update.status is TableStatus.PLAYING
        if playing != self._game_was_on:
            self._game_was_on = playing
            for screen in self.screen_stack:
                overlay = getattr(screen, "_size_guard", None)
                if overlay is not None and overlay.is_attached:
                    overlay.refresh()

    def notify(self, message: str, *, title: str = "", severity: str = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Show a toast, always as plain text whatever ``markup`` says.

        Toasts often carry what people typed (chat, table names, codes) and the
        catalogues hold no markup: ``[bold]`` in a message is shown as written.

        A toast that says what one on screen already says is not shown twice: the
        terminal's bell rings instead. A person pressing a refused key again and again
        (or a client doing it for them) would otherwise stack toasts, each of them a new
        layout of the whole screen.

        Without colour a warning (most often a refusal) or an error says its kind in
        words at its head (:meth:`_kind_named`): its coloured edge was all that told it
        from a piece of news.
        """
        message, title = printable(message), printable(title)
        now = time.monotonic()
        if timeout is None:
            timeout = self.NOTIFICATION_TIMEOUT
        shown = self._notes_shown
        for note, until in list(shown.items()):
            if until <= now:
                del shown[note]
        note = (message, title, severity)
        if note in shown:
            self.bell()
            return
        shown[note] = now + timeout
        super().notify(message, title=self._kind_named(title, severity), severity=severity,
                       timeout=timeout, markup=False)

    def _kind_named(self, title: str, severity: str) -> str:
        """A toast's ``title``, with the word for its kind of toast before it on a
        terminal without colour (a piece of news, the most common kind, has none)."""
        if not self.no_color or severity not in ("warning", "error"):
            return title
        kind = self.t(f"notice.{severity}")
        return f"{kind} · {title}" if title else kind

    def withdraw(self, message: str) -> None:
        """Take away the toasts that say ``message`` (as :meth:`notify` was given it):
        what they say no longer holds."""
        message = printable(message)
        gone = [note for note in self._notifications if note.message == message]
        for note in gone:
            self._unnotify(note, refresh=False)
        for note in [note for note in self._notes_shown if note[0] == message]:
            del self._notes_shown[note]
        if gone:
            self._refresh_notifications()

    def bell(self) -> None:
        """Ring the terminal's bell now, not with the next frame: a driver that sends
        whole frames (the server's) would hold it until the screen next changes."""
        super().bell()
        if not self.is_headless and self._driver is not None:
            self._driver.flush()

    async def action_quit(self) -> None:
        """Ctrl+Q: quit, asking first a person whose game goes on at their seat, in
        their language, what quitting costs them (:meth:`quit_question`). Asked, a
        second Ctrl+Q quits. Behind the "enlarge your terminal" overlay it asks too, in
        the overlay's place (:class:`QuitQuestion`): a window that shrank in the middle
        of a game must not lose it to one key either."""
        # Asked already (the rules may stand over the question): this is the second.
        asked = any(isinstance(screen, QuitQuestion) for screen in self.screen_stack)
        if asked or not self.seated_in_a_game:
            self.quit_now()
            return
        self.push_screen(QuitQuestion(self.quit_question(), read_first=READ_FIRST),
                         lambda yes: self.quit_now() if yes else None)

    @property
    def seated_in_a_game(self) -> bool:
        """Whether this person holds a seat in a game being played (not watching, not
        over): a turn may be theirs (a server gives them more of its loop), and quitting
        asks first."""
        return self.member is not None and self.member.seated_in_a_game

    def quit_question(self) -> str:
        """What Ctrl+Q asks before quitting a game going on: here the game ends with the
        app (a host's app says the seat is kept)."""
        return self.t("confirm.quit")

    def quit_now(self) -> None:
        """Quit the app (Ctrl+Q, answered yes if asked)."""
        self.exit()

    def action_help_quit(self) -> None:
        """Ctrl+C, pressed by habit to quit: say, in the person's language, which key
        quits (Textual's own words are English, with markup a toast shows as written)."""
        self.notify(self.t("quit.how"), title=self.t("quit.how.title"))

    def action_rules(self) -> None:
        """Show the rules over the current screen (once: a second press does not stack them)."""
        if not any(isinstance(screen, RulesScreen) for screen in self.screen_stack):
            self.push_screen(RulesScreen())

    def start_local_game(self, choices: SetupChoices) -> None:
        """Create a local table for ``choices``, seat the person and show the table."""
        table = Table(choices.settings(), creator="local")
        self.member = table.sit(choices.name, identity="local")
        self.choices = choices
        self._own_table = table
        self.push_screen(TableScreen(self.member))

    def on_leave_table(self, message: LeaveTable) -> None:
        self.leave_table()

    def on_report_asked(self, message: ReportAsked) -> None:
        # (Textual calls the handler of every class of the app: a host overrides the
        # method below, not this one.)
        self.report(message)

    def report(self, message: ReportAsked) -> None:
        """Report someone to the hosts, as the person asked: a game on one's own machine
        has none (a server's app files it)."""
        message.answer(self.t("chat.report_no_hosts"))

    def on_leave_replay(self, message: LeaveReplay) -> None:
        # Opened for the replay alone, the app ends with it; else back to what was before.
        if self.replay is not None or len(self.screen_stack) <= 2:
            self.exit()
        elif isinstance(self.screen, ReplayScreen):
            self.pop_screen()

    def leave_table(self) -> None:
        """The person leaves the table: the host decides what that means (local: quit)."""
        if self._on_leave is not None:
            self._on_leave(self)
            return
        self.run_worker(self._close_and_exit(), exclusive=True)

    async def _close_and_exit(self) -> None:
        if self._own_table is not None:
            await self._own_table.close()
        self.exit()


def make_app(
    member: Member | None = None,
    *,
    lang: str | None = None,
    on_leave: LeaveHandler | None = None,
    **app_options,
) -> DiamantApp:
    """A new app for one person at a table (in a seat or watching), or local setup."""
    return DiamantApp(lang=lang, member=member, on_leave=on_leave, **app_options)
