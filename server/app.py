"""The Textual app each SSH session runs: the lobby, then a table as a player or spectator.

It decides where a person lands (back at their seat after a dropped connection, the table
a ``play``/``watch`` command names, or the lobby), keeps the seat bookkeeping right when a
person leaves or their connection drops, and switches off everything that would act on the
server's machine (screenshots to disk, opening URLs).
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable

from textual import events
from textual.app import SystemCommand
from textual.screen import Screen

from diamant_tui.engine.errors import DiamantError, RecordError
from diamant_tui.engine.record import replay_record
from diamant_tui.ui.screens.replay import ReplayScreen
from diamant_tui.i18n import LANGUAGES, detect_language
from diamant_tui.table import Member, Table, TableSettings, TableStatus, TableUpdate
from diamant_tui.ui import DiamantApp, TableScreen
from diamant_tui.ui.bindings import translate_bindings
from diamant_tui.ui.messages import ReportAsked, TakeSeat
from diamant_tui.ui.refusals import refusal_text

from .admin import AdminDesk, AdminNotice, MuteChanged, ReportFiled, TableClosedByAdmin
from .admin_screen import AdminScreen
from .chat_watch import ChatWatch
from .commands import Command, CommandError, parse_command
from .config import ServerConfig
from .console import client_environment, configure_app
from .eventlog import SessionLog
from .history_screen import HistoryScreen
from .leaderboard_screen import LeaderboardScreen
from .lobby import Lobby, LobbyError, check_table_name, default_bot
from .lobby_screen import MUTE_NOTE_SHOWN, LobbyScreen
from .logtext import loggable
from .session import SessionRefused
from .storage import StorageError
from .unavailable_screen import PLAY, WATCH, TableUnavailableScreen

if TYPE_CHECKING:
    from .session import GameSession

log = logging.getLogger(__name__)

IDLE_CHECK = 30.0
"""Seconds a session may stay at a table with no game going on, by default."""


def _set_up_as_asked(settings: TableSettings, command: Command) -> bool:
    """Whether a table has the rule set, seats and computer players ``command`` asks for."""
    return (settings.rules, settings.seats, len(settings.bots)) == (
        command.rules, command.seats, command.bots)


def table_settings(command: Command, pace: float) -> TableSettings:
    """The table a ``play`` command makes when its table does not exist yet: the seats
    and rules it asks for, its computer players and the default one for the seats left
    by people, at the server's ``pace``."""
    return TableSettings(name=command.name, rules=command.rules, seats=command.seats,
                         bots=(default_bot(),) * command.bots, filler=default_bot(),
                         pace=pace)


class ServerApp(DiamantApp):
    """One person's app on the server (see module docstring)."""

    LEFT_FOR = "lobby"  # leaving a table goes back to the lobby, never out of the server
    SEATS_SPECTATORS = True  # j at a waiting table: see on_take_seat

    def __init__(self, session: "GameSession", lobby: Lobby, *, command: Command | None,
                 idle_timeout: float, waiting_timeout: float = ServerConfig.waiting_timeout,
                 chat_watch: ChatWatch = ChatWatch(), admin: AdminDesk | None = None,
                 lang: str | None = None) -> None:
        # The language the person chose in the lobby at an earlier login (``lang``), else
        # the client's locale variables, never the server's.
        super().__init__(lang=lang or detect_language(session.environment))
        self.session = session
        self.session_log = SessionLog(log, session.id)
        self.chat_watch = chat_watch
        self.admin = admin
        """The server's admin actions (each checks who asks), if the server has them."""
        self.lobby = lobby
        self.identity = session.identity
        self.member: Member | None = None
        self.command = command
        self.idle_timeout = idle_timeout
        self.waiting_timeout = waiting_timeout
        self._waiting_since: float | None = None
        """Since when this session has been at a table with no game going on."""
        self._resume_given: tuple[str, str] | None = None
        """The resume code given to this guest and the command that uses it, if any."""
        self._mute_told: str | None = None
        """What this person was last told of a mute of theirs (made, lifted, over)."""
        env = client_environment(session.term_type, session.environment)
        configure_app(self, env, log, session.id)

    @property
    def lang(self) -> str:
        """The code of this app's language."""
        return self.translator.lang

    # --- where the person lands ---------------------------------------------------------

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not the interface's local setup screen: the lobby instead
        translate_bindings(self, self.t)
        self.lobby.seen(self.identity, self.lang)
        self.set_interval(min(IDLE_CHECK, self.idle_timeout / 2, self.waiting_timeout / 2),
                          self._check_idle)
        problem = None
        try:
            self._land()
        except LobbyError as exc:
            problem = exc.text(self.t)
        except DiamantError as exc:
            problem = refusal_text(self.t, exc)  # in the person's language
        # The lobby is built only for those who see it: a session that goes straight to
        # a table (play, watch, resume, a seat held) gets it when it leaves the table.
        self._show_lobby()
        if problem is not None:
            self.tell(problem, severity="error")

    def _land(self) -> None:
        command = self.command
        if command is not None and command.verb == "resume":
            self.resume(command.name)
            return
        if command is not None and command.play_now:
            self.play_now()
            return
        held = self.lobby.seat_of(self.identity.key)
        if held is not None and (command is None or command.verb != "watch"):
            self._sit(held[0])  # a dropped connection: straight back to the seat
            if command is not None and command.verb == "play" and command.name != held[0].name:
                # Asked for another table: say why this one, and how to get there. (A
                # seat kept over a restart may be at a table still waiting for players.)
                waiting = held[0].status is TableStatus.WAITING
                self.tell(self.t("server.back_to_waiting_seat" if waiting
                                 else "server.back_to_held_seat", table=held[0].name,
                                 asked=command.name[:20]))
            return
        if command is None:
            return
        table = self.lobby.get(command.name)
        if command.verb == "watch":
            if table is None:
                check_table_name(command.name)  # one no table can have: the rule is said
                raise LobbyError("lobby.error.no_table", name=command.name[:20])
            self.watch(table)
            return
        set_up_otherwise = (table is not None and command.chosen
                            and not _set_up_as_asked(table.settings, command))
        public_already = (table is not None and command.private
                          and not self.lobby.is_private(table))
        if table is None:
            table = self._open_table(table_settings(command, self.lobby.pace),
                                     private=command.private)
        self.join(table)
        if self.member is not None and self.member.table is table:
            if set_up_otherwise:
                self._tell_joined_as_it_is(table)
            if public_already:
                # --private only sets up a new table: one already open stays as it is.
                self.tell(self.t("server.joined_public", name=table.name))

    def _open_table(self, settings: TableSettings, *, private: bool = False) -> Table:
        """Open a table for this person: they are its creator, it counts against them.

        A muted person's words reach nobody, and a public table's name is read by
        everyone in the lobby: the table they open takes a name of the server's
        (``cave-N``) instead of theirs, and they are told so at the table. A private
        table's name is read only by those who type it."""
        renamed = (not private and not self.lobby.is_free_name(settings.name)
                   and self._muted())
        if renamed:
            settings = replace(settings, name=self.lobby.free_name())
        table = self.lobby.create(settings, creator=self.identity.key,
                                  owner=self.identity.person, session=self.session.id,
                                  private=private)
        if renamed:
            self.session_log.info("muted: table opened as %r, not under the name typed",
                                  table.name, extra={"event": "refused", "reason": "muted",
                                                     "table": table.name})
            # Told once the table's screen is up (after the join that follows).
            self.call_later(self._tell_wherever,
                            self.t("admin.muted_table_name", name=table.name))
        return table

    def _muted(self) -> bool:
        """Whether the host has muted this person now."""
        muted = self.chat_watch.muted
        return muted is not None and muted(self.identity) is not None

    def play_now(self) -> None:
        """Seat this person at the next game: back at the seat they hold (a game going
        on without them), else at the waiting table with the most people (see
        :meth:`Lobby.waiting_table`), else at a table opened for them as the lobby's form
        opens one untouched. They join it as Enter in the lobby joins a table, with its
        checks; the table's screen then says in a line which of the three it was."""
        held = self.lobby.seat_of(self.identity.key)
        if held is not None:
            table, told = held[0], "play_now.back"
        else:
            table, told = self.lobby.waiting_table(), "play_now.joined"
        if table is None:
            table, told = self._open_table(self.lobby.default_settings()), "play_now.opened"
        self.session_log.info("play now: %s table %r", told.removeprefix("play_now."),
                              table.name, extra={"event": "play_now", "table": table.name})
        self.join(table)
        if self.member is not None and self.member.table is table:
            self._tell_at_table(self.t(told, name=table.name))

    def _tell_joined_as_it_is(self, table: Table) -> None:
        """Say that the table asked for was open already, with settings of its own: the
        person sits at it as it is (its rules and seats are on the waiting screen, but
        nothing there says that those they typed were not used)."""
        settings = table.settings
        self.tell(self.t("server.joined_as_it_is", name=table.name, seats=settings.seats,
                         rules=self.t(f"rules.{settings.rules.value}.long")))

    def resume(self, code: str) -> None:
        """A guest gives their resume code: they become that guest and get the seat back
        (wrong codes are counted per address: too many, and the address must wait)."""
        try:
            identity = self.lobby.identity_for_code(code, self.identity.address,
                                                    self.session.id)
        except LobbyError as exc:
            self.tell(exc.text(self.t))
            return
        held = self.lobby.seat_of(identity) if identity else None
        if identity is None or held is None:
            self.tell(self.t("server.no_seat_for_code", code=code[:12]))
            return
        self.identity = replace(self.identity, key=identity, guest=True)
        self.session.identity = self.identity
        self._sit(held[0], by_code=True)

    # --- seats --------------------------------------------------------------------------

    def join(self, table: Table) -> None:
        """Take a free seat at ``table`` (or the one this person already holds); a table
        that is full or playing says so on a screen of its own (watch it, or go back),
        unless it takes no more spectators either: then :class:`LobbyError` says so."""
        if table.seat_of(self.identity.key) is None and (
                table.status is not TableStatus.WAITING or not table.free_seats):
            # A screen offering to watch a table that takes no more spectators would
            # only lead to that refusal: it is said at once (LobbyError), screen-free.
            self.lobby.check_watchers(table, self.identity.key, self.session.id)
            self._show_lobby()  # what the person goes back to
            self.push_screen(TableUnavailableScreen(table.name, table.status),
                             lambda chosen: self._unavailable_chosen(table, chosen))
            return
        self._sit(table)

    def on_take_seat(self, message: TakeSeat) -> None:
        """A spectator at a waiting table takes one of its free seats, as from the lobby
        (they stop watching), or at the final scores the seat of someone who left, for the
        rematch; seats taken meanwhile leave them watching, told so."""
        member = self.member
        if member is None or member.seat is not None:
            return
        table = member.table
        if not (table.status is TableStatus.WAITING and table.free_seats
                or table.departed_seats):
            self.tell(self.t("watching.seat_gone"))
            return
        self._leave_member()
        self._try(self._sit, table)

    def _unavailable_chosen(self, table: Table, chosen: str | None) -> None:
        """What the person chose on the screen saying ``table`` has no seat for them:
        watch it, play at the next game elsewhere, or (None) stay in the lobby."""
        if chosen == WATCH:
            self._try(self.watch, table)
        elif chosen == PLAY:
            self._try(self.play_now)

    def _sit(self, table: Table, *, by_code: bool = False) -> None:
        """Show ``table`` from this person's seat; any other session of theirs is closed,
        told why (``by_code``: the seat was taken back with its resume code)."""
        member = table.sit(self.identity.name, self.identity.key)
        previous = self.lobby.take_seat(member, self)
        if previous is not None and previous is not self:
            if by_code:
                self.session_log.info(
                    "seat %d at table %r taken back with its resume code from %s",
                    member.seat, table.name, loggable(self.identity.address, 60),
                    extra={"event": "resumed", "table": table.name})
            previous.session.close(previous.t("limit.taken_over" if by_code
                                              else "server.replaced"))
        self.member = member
        self._show_table()
        if self.identity.guest:
            self._give_resume_code()

    def _resume_command(self) -> tuple[str, str]:
        """This guest's resume code, and the ssh line that gives their seat back with it."""
        code = self.lobby.resume_code(self.identity.key)
        return code, self.session.ssh_command(f"resume {code}")

    def _give_resume_code(self) -> None:
        """Tell a guest the code that gives their seat back from a new connection."""
        self._resume_given = self._resume_command()
        # The rules/help screen keeps showing it; the table's screen says it once, now.
        self.help_note = self._resume_note()
        if not self._tell_at_table(self.help_note):
            self.notify(self.help_note, timeout=10, markup=False)

    def _resume_note(self) -> str | None:
        """The rules' note of the resume code given, in the language of the moment."""
        if self._resume_given is None:
            return None
        code, command = self._resume_given
        return self.t("help.resume", code=code, command=command)

    async def set_language(self, lang: str) -> None:
        """Switch to ``lang``, the resume code's note too: kept as told, it stayed in
        the language it was given in, at the top of rules in another."""
        await super().set_language(lang)
        self.help_note = self._resume_note()

    def quit_question(self) -> str:
        """What Ctrl+Q asks before quitting a game going on: the seat is kept."""
        return self.t("confirm.quit_kept")

    def quit_now(self) -> None:
        """Quit; a person whose game goes on at their seat is told, once the screen is
        theirs again, that the seat is kept and the command that takes them back to it
        (a guest's with their resume code: the help screen that showed it is gone)."""
        if self.seated_in_a_game:
            back = (self._resume_command()[1] if self.identity.guest
                    else self.session.ssh_command())
            self.session.farewell = self.session.farewell or self.t(
                "farewell.seat_kept", name=self.member.table.name, command=back)
        super().quit_now()

    def waiting_note(self, table: Table) -> str | None:
        """On the waiting screen: of a private table, that it is, and the command that
        brings friends to it (with no user name: each types their own); to a guest in a
        seat, their resume code, which stays there while the chat scrolls the line that
        gave it away."""
        notes = []
        if self.lobby.is_private(table):
            command = self.session.ssh_command(f"play {table.name}", user="")
            notes.append(self.t("waiting.private", command=command))
        code = self.lobby.code_of(self.identity.key) if self.identity.guest else None
        if code is not None and self.seat is not None:
            notes.append(self.t("waiting.resume", code=code))
        return "\n".join(notes) or None

    def _tell_at_table(self, text: str) -> bool:
        """Tell ``text`` on the screen of the table this person is at, among the
        round's lines (:meth:`TableScreen.tell_aside`); False when at no table."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                # Each line of ``text`` a line of its own there: a command to copy (a
                # guest's resume line) wrapped in the middle would be copied in two.
                for line in text.splitlines():
                    screen.tell_aside(line)
                return True
        return False

    def table_update_shown(self, update: TableUpdate) -> None:
        # A guest in a game without a code (none kept for them) is given one.
        super().table_update_shown(update)
        if update.status is TableStatus.PLAYING and self.member is not None:
            self.lobby.game_seen(self.member.table)
        if (self.identity.guest and update.seat is not None
                and update.status is TableStatus.PLAYING
                and self.lobby.code_of(self.identity.key) is None
                and self.lobby.seat_of(self.identity.key) is not None):
            self._give_resume_code()

    def watch(self, table: Table) -> None:
        """Watch ``table`` as a spectator: chat marked as watching, nothing else (unless it
        has as many spectators as a table may: then a note says so)."""
        try:
            self.lobby.check_watchers(table, self.identity.key, self.session.id)
        except LobbyError as exc:
            self.tell(exc.text(self.t))
            return
        if self.member is not None:
            self._leave_member()
        self.member = table.watch(self.identity.name, self.identity.key)
        self._show_table()

    def _show_table(self) -> None:
        assert self.member is not None
        self._waiting_since = None if self.member.table.status is TableStatus.PLAYING \
            else time.monotonic()
        self._to_lobby_level()
        self.push_screen(TableScreen(self.chat_watch.wrap(self.member, self.session_log,
                                                          self.identity)))

    def _to_lobby_level(self) -> None:
        """Close every screen above the lobby (or above the app's base, if no lobby yet)."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
            self.pop_screen()

    def _show_lobby(self) -> None:
        """Show the lobby, unless a screen (a table) is shown already: leaving it will."""
        if len(self.screen_stack) <= 1:
            self.push_screen(self._lobby_screen())

    def _lobby_screen(self) -> LobbyScreen:
        return LobbyScreen(self.lobby, self.identity, self.session.ssh_command,
                           session=self.session.id, admin=self._is_admin)

    # --- what the person chose in the lobby -------------------------------------------

    def _try(self, action, *args) -> None:
        """Do what the person chose; what cannot be done is said in a short note."""
        try:
            action(*args)
        except LobbyError as exc:
            self.tell(exc.text(self.t))
        except DiamantError as exc:
            text = refusal_text(self.t, exc)  # in the person's language; none if too late
            if text is not None:
                self.tell(text)

    def tell(self, text: str, *, severity: str = "warning") -> None:
        """Say why something asked for cannot be done: on the lobby's note line when the
        lobby is on screen (or about to be), else in a toast."""
        screen = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(screen, LobbyScreen):
            screen.tell(text, severity=severity)
        else:
            self.notify(text, severity=severity, timeout=8, markup=False)

    def on_lobby_screen_join_table(self, message: LobbyScreen.JoinTable) -> None:
        self._try(self.join, message.table)

    def on_lobby_screen_watch_table(self, message: LobbyScreen.WatchTable) -> None:
        self._try(self.watch, message.table)

    def on_lobby_screen_play_now(self, message: LobbyScreen.PlayNow) -> None:
        self._try(self.play_now)

    def on_lobby_screen_open_table(self, message: LobbyScreen.OpenTable) -> None:
        def open_and_sit() -> None:
            table = self._open_table(message.settings, private=message.private)
            self.join(table)

        self._try(open_and_sit)

    def _is_admin(self) -> bool:
        return self.admin is not None and self.admin.is_admin(self.identity)

    def on_lobby_screen_open_admin(self, message: LobbyScreen.OpenAdmin) -> None:
        # Checked again here (and by every action the screen asks for): not only the key.
        if self.admin is not None and self._is_admin():
            self.push_screen(AdminScreen(self.admin, self.session))

    def on_admin_notice(self, message: AdminNotice) -> None:
        # At a table, where the chat is read and in the log: a toast of 30 s stood over
        # the round's newest lines. Elsewhere nothing of a game is under it.
        text = self.t("admin.notice", text=message.text)
        if not self._tell_at_table(text):
            self.notify(text, severity="warning", timeout=30, markup=False)

    def on_mute_changed(self, message: MuteChanged) -> None:
        # Told at once, in this person's language: muted, until when and why (the
        # reason as the admin wrote it), or free to chat again (lifted, or run out); a
        # mute made while they were away from the chat was only told at their next line.
        if message.over:
            text = self.t("admin.mute_over")
        elif message.lifted:
            text = self.t("admin.unmuted")
        else:
            text = message.mute.message(self.t)
        if self._mute_told is not None:
            # The last one told no longer holds: a toast of it stood over the lobby's
            # note line, hiding that the mute was lifted, for the rest of its time.
            self.withdraw(self._mute_told)
        self._mute_told = text
        self._tell_wherever(text)

    def report(self, message: ReportAsked) -> None:
        """Filed by the admin desk (which tells the admins online, never the reported
        person); the reporter is told what became of it where chat notes are."""
        member = self.member
        if self.admin is None or member is None:
            super().report(message)
            return
        self.run_worker(self._report(member.table, message), group="report")

    async def _report(self, table: Table, message: ReportAsked) -> None:
        assert self.admin is not None
        try:
            report, told = await self.admin.report(self.session, table, message.name,
                                                   message.reason)
        except LobbyError as exc:
            message.answer(exc.text(self.t))
            return
        message.answer(self.t("chat.reported" if told else "chat.reported_later",
                              name=report.reported))

    def on_report_filed(self, message: ReportFiled) -> None:
        # An admin is told at once, wherever they are, as a mute's person is.
        report = message.report
        text = self.t("admin.report_filed", reporter=report.reporter,
                      reported=report.reported, table=report.table,
                      reason=report.reason or self.t("admin.no_reason"))
        self._tell_wherever(text)

    def _tell_wherever(self, text: str) -> None:
        """Tell ``text`` where this person is: at a table where the chat is read (and in
        the log), else on the lobby's note line, else (a text too long for that line, or
        another screen on top) in a toast."""
        if self._tell_at_table(text):
            return
        screen = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(screen, LobbyScreen) and screen.note_fits(text):
            screen.tell(text, shown=MUTE_NOTE_SHOWN)
        else:
            self.notify(text, severity="warning", timeout=MUTE_NOTE_SHOWN, markup=False)

    def on_table_closed_by_admin(self, message: TableClosedByAdmin) -> None:
        if self.member is None or self.member.table is not message.table:
            return  # left it meanwhile
        reason = message.reason or self.t("admin.no_reason")
        self.notify(self.t("admin.table_closed", name=message.table.name, reason=reason),
                    severity="warning", timeout=15)
        self.leave_table()

    def on_lobby_screen_resume(self, message: LobbyScreen.Resume) -> None:
        self.resume(message.code)

    async def on_lobby_screen_next_language(self, message: LobbyScreen.NextLanguage) -> None:
        await self.set_language(LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)])
        self.lobby.choose_language(self.identity, self.lang)

    async def on_history_screen_watch_past_game(
            self, message: HistoryScreen.WatchPastGame) -> None:
        """Watch a past game again, in the replay screen."""
        storage = self.lobby.storage
        try:
            record = None if storage is None else await storage.game_record(message.game_id)
        except StorageError:
            self.notify(self.t("records.failed"), severity="warning")
            return
        if record is None:
            self.notify(self.t("history.gone"), severity="warning")
            return
        try:
            replay = replay_record(record)
        except RecordError:
            self.notify(self.t("history.unreadable"), severity="warning")
            return
        # q goes back to the list of games, and the key bar says so (in few words: the
        # replay's keys take the whole line at 80 columns in Spanish).
        self.push_screen(ReplayScreen(replay, back_to="replay.key.games"))

    def leave_table(self) -> None:
        """Back to the lobby: a waiting seat is freed, a seat in a game is played for you."""
        self._to_lobby_level()
        if not isinstance(self.screen, LobbyScreen):
            self.push_screen(self._lobby_screen())
        if self.member is not None:
            self._departed(self.member)
        self.call_after_refresh(self._left_table, self.member)
        self.member = None

    def _left_table(self, member: Member | None) -> None:
        # Once the table's screen has gone (and stopped listening to the table).
        if member is not None:
            self.lobby.release(member, self)
        if isinstance(self.screen, LobbyScreen):
            self.screen.refresh_tables()

    def _leave_member(self, *, lost: bool = False) -> None:
        if self.member is not None:
            self._departed(self.member)
            self.lobby.release(self.member, self, lost=lost)
            self.member = None

    def _departed(self, member: Member) -> None:
        """This person is leaving ``member``'s table: from now on they are found there
        only as someone who left, and may still be reported there for a while."""
        if self.admin is not None:
            self.admin.left_table(self.session, member.table, member.name)

    # --- life of the session ------------------------------------------------------------

    def _check_idle(self) -> None:
        # The leaderboard and "my games" are part of the lobby: idle there is idle in it.
        in_lobby = isinstance(self.screen, (LobbyScreen, LeaderboardScreen, HistoryScreen))
        if in_lobby and self.session.idle_seconds > self.idle_timeout:
            minutes = max(1, round(self.idle_timeout / 60))  # under a minute is told as one
            self.session_log.info("idle in the lobby for %d minutes; closed", minutes,
                          extra={"event": "limit", "limit": "lobby_idle_timeout"})
            self.session.close(self.t("server.idle", count=minutes, minutes=minutes))
            return
        self._check_waiting()

    def _check_waiting(self) -> None:
        """Close a session that has stayed too long at a table where no game is going on
        (before it starts, or after it ended): it holds a seat and a table for nothing."""
        member = self.member
        if member is None or not member.active or member.table.status is TableStatus.PLAYING:
            self._waiting_since = None
            return
        now = time.monotonic()
        if self._waiting_since is None:
            self._waiting_since = now
        if now - self._waiting_since < self.waiting_timeout:
            return
        minutes = max(1, round(self.waiting_timeout / 60))
        self.session_log.info("at table %r for %d minutes with no game going on; closed",
                      member.table.name, minutes,
                      extra={"event": "limit", "limit": "waiting_timeout",
                             "table": member.table.name})
        self.session.close(self.t("limit.waiting", count=minutes, minutes=minutes,
                                 name=member.table.name))

    def on_unmount(self) -> None:
        # The app ends when the person quits or the connection drops: either way a
        # computer player takes over their seat until they come back (at the final
        # scores, a lost connection keeps the seat's say in the rematch a while).
        self._leave_member(lost=self.session.lost)

    # --- nothing a client does may act on the server's machine ----------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if "screenshot" not in command.title.lower():
                yield command

    def save_screenshot(self, filename: str | None = None, path: str | None = None,
                        time_format: str | None = None) -> str:
        """Refused: screenshots would be written on the server."""
        self.notify(self.t("server.no_screenshots"), severity="warning")
        return ""

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Refused: screenshots would be written on the server."""
        self.notify(self.t("server.no_screenshots"), severity="warning")
        return None


def make_app_factory(lobby: Lobby, *, idle_timeout: float,
                     waiting_timeout: float = ServerConfig.waiting_timeout,
                     chat_watch: ChatWatch = ChatWatch(), admin: AdminDesk | None = None):
    """The function a session calls to build its app (raises SessionRefused for bad
    commands), in the language its person chose at an earlier login, if they did."""

    async def factory(session: "GameSession") -> ServerApp:
        command = None
        if session.command is not None and session.command.strip():
            try:
                command = parse_command(session.command)
            except CommandError as exc:
                # In the person's language, as every other refusal of a session.
                raise SessionRefused(exc.text(session.t)) from None
        lang = await lobby.chosen_language(session.identity)
        return ServerApp(session, lobby, command=command, idle_timeout=idle_timeout,
                         waiting_timeout=waiting_timeout, chat_watch=chat_watch, admin=admin,
                         lang=lang if lang in LANGUAGES else None)

    return factory
