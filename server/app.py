"""The Textual app each SSH session runs: the lobby, then a table as a player or spectator.

It decides where a person lands (back at their seat after a dropped connection, the table
a ``play``/``watch`` command names, or the lobby), keeps the seat bookkeeping right when a
person leaves or their connection drops, and switches off everything that would act on the
server's machine (screenshots to disk, opening URLs).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable

from textual import events
from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from diamant_tui.errors import DiamantError
from diamant_tui.i18n import detect_language
from diamant_tui.table import Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.bindings import translate_bindings

from .commands import Command, CommandError, parse_command
from .console import client_environment, configure_app
from .lobby import Lobby, LobbyError, default_bot
from .lobby_screen import LobbyScreen
from .session import SessionRefused
from .table_screen import ServerTableScreen

if TYPE_CHECKING:
    from .session import GameSession

log = logging.getLogger(__name__)

IDLE_CHECK = 30.0


class ServerApp(DiamantApp):
    """One person's app on the server (see module docstring)."""

    BINDINGS = [Binding("s", "start_table", "server.key.start")]

    def __init__(self, session: "GameSession", lobby: Lobby, *, command: Command | None,
                 idle_timeout: float) -> None:
        # The language comes from the client's locale variables, never the server's.
        super().__init__(lang=detect_language(session.environment))
        self.session = session
        self.lobby = lobby
        self.identity = session.identity
        self.command = command
        self.idle_timeout = idle_timeout
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
        self.set_interval(min(IDLE_CHECK, self.idle_timeout / 2), self._check_idle)
        self.push_screen(LobbyScreen())
        try:
            self._land()
        except LobbyError as exc:
            self.notify(exc.text(self.t), severity="error", timeout=8)
        except DiamantError as exc:
            self.notify(str(exc), severity="error", timeout=8)

    def _land(self) -> None:
        command = self.command
        if command is not None and command.verb == "resume":
            self.resume(command.name)
            return
        held = self.lobby.seat_of(self.identity.key)
        if held is not None and (command is None or command.verb != "watch"):
            self.sit(*held)  # a dropped connection: straight back to the seat
            return
        if command is None:
            return
        table = self.lobby.get(command.name)
        if command.verb == "watch":
            if table is None:
                raise LobbyError("lobby.error.no_table", name=command.name[:20])
            self.watch(table)
            return
        if table is None:
            table = self.lobby.create(
                TableSettings(name=command.name, rules=command.rules, seats=command.seats,
                              bots=(default_bot(),) * command.bots, pace=self.lobby.pace),
                creator=self.identity.key,
            )
        self.join(table)

    def resume(self, code: str) -> None:
        """A guest gives their resume code: they become that guest and get the seat back."""
        identity = self.lobby.identity_for_code(code)
        held = self.lobby.seat_of(identity) if identity else None
        if identity is None or held is None:
            self.notify(self.t("server.no_seat_for_code", code=code[:12]), severity="warning")
            return
        self.identity = replace(self.identity, key=identity, guest=True)
        self.session.identity = self.identity
        self.sit(*held)

    # --- seats --------------------------------------------------------------------------

    def join(self, table: Table) -> None:
        """Take a free seat at ``table`` (or the one this person already holds)."""
        self.lobby.check_can_join(table, self.identity.key)
        seat = table.join(self.identity.name, self.identity.key)
        self.sit(table, seat)

    def sit(self, table: Table, seat: int) -> None:
        """Show ``table`` from ``seat``; any other session of this person is closed."""
        previous = self.lobby.take_seat(table, seat, self)
        if previous is not None and previous is not self:
            previous.session.close(previous.t("server.replaced"))
        table.join(self.identity.name, self.identity.key)  # marks the seat connected again
        self.table, self.seat = table, seat
        self._show_table()
        if self.identity.guest:
            # Short, once: the lobby's header keeps showing the code afterwards.
            code = self.lobby.resume_code(self.identity.key)
            self.notify(self.t("server.resume_toast", code=code, port=self.session.port),
                        title=self.t("server.resume_title"), timeout=6)

    def watch(self, table: Table) -> None:
        """Watch ``table`` as a spectator, chatting under their own name (e.g. "ann (watching)")."""
        self.table, self.seat = table, None
        self._show_table(self.lobby.watcher_name(table, self.identity.key, self.identity.name,
                                                 self.t("server.watching")))

    def waiting_hint(self, table: Table) -> str | None:
        """The line a waiting table shows this person: how its creator starts it early."""
        if table.status is TableStatus.WAITING and table.creator == self.identity.key:
            return self.t("server.waiting_hint")
        return None

    def _show_table(self, watcher_name: str | None = None) -> None:
        assert self.table is not None
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if not isinstance(self.screen, LobbyScreen):
            self.pop_screen()
        self.push_screen(ServerTableScreen(self.table, self.seat, watcher_name=watcher_name))

    def leave_table(self) -> None:
        """Back to the lobby: a waiting seat is freed, a seat in a game is played for you."""
        while not isinstance(self.screen, LobbyScreen) and len(self.screen_stack) > 1:
            self.pop_screen()
        self.call_after_refresh(self._left_table, self.table, self.seat)
        self.table, self.seat = None, None

    def _left_table(self, table: Table | None, seat: int | None) -> None:
        # Once the table's screen has gone (and stopped listening to the table).
        if table is not None and seat is not None:
            self.lobby.release_seat(table, seat, self)
        if isinstance(self.screen, LobbyScreen):
            self.screen.refresh_tables()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start_table":
            table = self.table
            return (table is not None and self.seat is not None
                    and table.status is TableStatus.WAITING and table.creator == self.identity.key)
        return True

    def action_start_table(self) -> None:
        self.start_table()

    def start_table(self) -> None:
        """The creator starts a waiting table early; computer players fill the empty seats."""
        table = self.table
        if table is None or table.status is not TableStatus.WAITING:
            return
        if table.creator != self.identity.key:
            self.notify(self.t("server.only_creator"), severity="warning")
            return
        table.start()

    def _release_seat(self) -> None:
        if self.table is not None and self.seat is not None:
            self.lobby.release_seat(self.table, self.seat, self)

    # --- life of the session ------------------------------------------------------------

    def _check_idle(self) -> None:
        if isinstance(self.screen, LobbyScreen) and self.session.idle_seconds > self.idle_timeout:
            minutes = round(self.idle_timeout / 60)
            log.info("%s: idle in the lobby for %d minutes; closed", self.session.id, minutes)
            self.session.close(self.t("server.idle", minutes=minutes))

    def on_unmount(self) -> None:
        # The app ends when the person quits or the connection drops: either way a
        # computer player takes over their seat until they come back.
        self._release_seat()

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


def make_app_factory(lobby: Lobby, *, idle_timeout: float):
    """The function a session calls to build its app (raises SessionRefused for bad commands)."""

    def factory(session: "GameSession") -> ServerApp:
        command = None
        if session.command is not None and session.command.strip():
            try:
                command = parse_command(session.command)
            except CommandError as exc:
                raise SessionRefused(str(exc)) from None
        return ServerApp(session, lobby, command=command, idle_timeout=idle_timeout)

    return factory
