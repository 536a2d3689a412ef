"""The game server: listens for SSH connections and runs a session per connection.

:class:`GameServer` ties the pieces together: the host key, the connection limits, the
lobby of tables, and one Textual app per session. :meth:`GameServer.stop` tells every
connected person that the server is stopping and writes out the games in progress.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Callable

import asyncssh

from diamant_tui.table import ChatLimits

from .app import make_app_factory
from .auth import ConnectionHandler, Identity
from .config import ServerConfig
from .hostkey import fingerprint, load_or_create
from .limits import ConnectionLimits
from .lobby import Lobby
from .session import AppFactory, GameSession, SessionRefused

log = logging.getLogger(__name__)

STOPPING_MESSAGE = "The server is stopping; games in progress have been saved. Thanks for playing!"
"""The English text; each person reads it in their own language (``server.stopping``)."""


class GameServer:
    """One SSH game server (see module docstring)."""

    def __init__(self, config: ServerConfig, *,
                 app_factory: Callable[[Lobby], AppFactory] | None = None) -> None:
        self.config = config
        self.lobby = Lobby(config.data_path, pace=config.pace, resume_guesses=config.resume_guesses,
                           chat=ChatLimits(table=config.chat_table_lines,
                                           watchers=config.chat_watchers_lines))
        self.limits = ConnectionLimits(config.max_connections, config.max_per_address,
                                       config.connect_rate, config.connect_burst)
        build = app_factory or (lambda lobby: make_app_factory(
            lobby, idle_timeout=config.lobby_idle_timeout))
        self._app_factory = build(self.lobby)
        self.sessions: set[GameSession] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.fingerprint = ""
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._stopped = asyncio.Event()

    @property
    def port(self) -> int:
        """The port listened on (useful when the configured port was 0)."""
        assert self._acceptor is not None, "the server is not started"
        return self._acceptor.get_port()

    async def start(self) -> None:
        """Load (or make) the host key and start listening."""
        key = load_or_create(self.config.data_path)
        self.fingerprint = fingerprint(key)
        self._acceptor = await asyncssh.create_server(
            lambda: ConnectionHandler(self.limits, self._new_session, self.connections),
            self.config.host,
            self.config.port,
            server_host_keys=[key],
            server_version="Diamant",
            encoding=None,  # raw bytes: the driver decodes input itself
            line_editor=False,  # on by default for pty sessions; it would rewrite our output
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            login_timeout=self.config.login_timeout,
            keepalive_interval=self.config.keepalive_interval,
        )
        log.info("listening on %s port %d; host key %s", self.config.host, self.port,
                 self.fingerprint)

    def _new_session(self, identity: Identity) -> GameSession:
        session = GameSession(identity, self._build_app, port=self.port,
                              public_host=self.config.public_host or None,
                              on_close=self.sessions.discard)
        self.sessions.add(session)
        return session

    def _build_app(self, session: GameSession):
        return self._app_factory(session)

    async def stop(self, message: str | None = None) -> list[Path]:
        """Tell everyone (``message``, or the stopping notice in each person's language),
        save the games in progress, close every session and stop."""
        if self._acceptor is None:
            return []
        log.info("stopping: %d sessions open", len(self.sessions))
        self._acceptor.close()
        saved = await self.lobby.close()
        for session in list(self.sessions):
            session.close(message or session.t("server.stopping"))
        # Give the apps a moment to say goodbye and close their channels.
        for _ in range(50):
            if not self.sessions:
                break
            await asyncio.sleep(0.05)
        for conn in list(self.connections):
            conn.close()
        await self._acceptor.wait_closed()
        self._acceptor = None
        self._stopped.set()
        log.info("stopped; %d game records written", len(saved))
        return saved

    async def wait_stopped(self) -> None:
        """Return once :meth:`stop` has finished."""
        await self._stopped.wait()


__all__ = ["GameServer", "SessionRefused", "STOPPING_MESSAGE"]
