"""The game server: listens for SSH connections and runs a session per connection.

:class:`GameServer` ties the pieces together: the host key, the connection limits, the
lobby of tables, and one Textual app per session. :meth:`GameServer.stop` writes out the
games in progress, tells every connected person that the server is stopping and cuts the
connections still open after a short grace: it never waits long, whatever the load.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from pathlib import Path
from typing import Callable

import asyncssh

from diamant_tui.table import ChatLimits

from .app import make_app_factory
from .auth import ConnectionHandler
from .identity import Identity
from .config import ServerConfig
from .fair_share import LoopShare
from .hostkey import fingerprint, load_or_create
from .limits import ConnectionLimits
from .lobby import Lobby
from .records import check_data_folder
from .session import AppFactory, GameSession, SessionLimits, SessionRefused

log = logging.getLogger(__name__)

STOPPING_MESSAGE = "The server is stopping; games in progress have been saved. Thanks for playing!"
"""The English text; each person reads it in their own language (``server.stopping``)."""
SWEEP_EVERY = 30.0
"""Seconds between looks for tables nobody is at (at most: less for a short timeout)."""


def _refuse(refusal: tuple[str, int], session: GameSession) -> AppFactory:
    """The app factory of a session over a limit: it says why, in the person's language."""
    key, limit = refusal
    raise SessionRefused(session.t(key, limit=limit))


class GameServer:
    """One SSH game server (see module docstring)."""

    def __init__(self, config: ServerConfig, *,
                 app_factory: Callable[[Lobby], AppFactory] | None = None) -> None:
        self.config = config
        self.lobby = Lobby(config.data_path, pace=config.pace, max_tables=config.max_tables,
                           max_tables_per_person=config.max_tables_per_person,
                           empty_table_timeout=config.empty_table_timeout,
                           resume_guesses=config.resume_guesses,
                           resume_window=config.resume_window,
                           max_watchers=config.max_watchers,
                           chat=ChatLimits(person=config.chat_person_lines,
                                           watchers=config.chat_watchers_lines,
                                           table=config.chat_table_lines,
                                           window=config.chat_window))
        self.limits = ConnectionLimits(config.max_connections, config.max_per_address,
                                       config.connect_rate, config.connect_burst,
                                       max_per_person=config.max_sessions_per_person)
        build = app_factory or (lambda lobby: make_app_factory(
            lobby, idle_timeout=config.lobby_idle_timeout,
            waiting_timeout=config.waiting_timeout))
        self._app_factory = build(self.lobby)
        self.share = LoopShare(lag=config.fair_share_lag, window=config.fair_share_window,
                               hold=config.fair_share_hold,
                               seat_weight=config.fair_share_seat_weight)
        """Each session's share of the event loop all the apps run in."""
        self.sessions: set[GameSession] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.fingerprint = ""
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()

    @property
    def port(self) -> int:
        """The port listened on (useful when the configured port was 0)."""
        assert self._acceptor is not None, "the server is not started"
        return self._acceptor.get_port()

    async def start(self) -> None:
        """Check the data folder can be written, load (or make) the host key and start
        listening (a :class:`~diamant_server.records.DataFolderError` says what is wrong)."""
        check_data_folder(self.config.data_path)
        key = load_or_create(self.config.data_path)
        self.fingerprint = fingerprint(key)
        self._acceptor = await asyncssh.create_server(
            lambda: ConnectionHandler(self.limits, self._new_session, self.connections,
                                      session_timeout=self.config.login_timeout,
                                      max_sessions=self.config.max_sessions_per_connection),
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
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(),
                                                               name="empty tables")
        self.share.start()
        log.info("listening on %s port %d; host key %s", self.config.host, self.port,
                 self.fingerprint)

    def _new_session(self, identity: Identity, ended: Callable[[], None] | None = None,
                     refusal: tuple[str, int] | None = None) -> GameSession:
        """The session for a new channel; ``ended`` is called once it has ended, and a
        ``refusal`` (over a limit) is told to the person once the session starts."""

        def closed(session: GameSession) -> None:
            self.sessions.discard(session)
            if ended is not None:
                ended()

        build = self._build_app if refusal is None else functools.partial(_refuse, refusal)
        session = GameSession(identity, build, port=self._port,
                              public_host=self.config.public_host or None, on_close=closed,
                              limits=SessionLimits.from_config(self.config),
                              share=self.share)
        self.sessions.add(session)
        return session

    async def _sweep(self) -> None:
        every = min(SWEEP_EVERY, self.config.empty_table_timeout / 2)
        while True:
            await asyncio.sleep(every)
            try:
                await self.lobby.close_empty()
            except Exception:
                log.exception("closing empty tables failed")

    def _build_app(self, session: GameSession):
        return self._app_factory(session)

    @property
    def _port(self) -> int:
        return self._acceptor.get_port() if self._acceptor is not None else self.config.port

    async def stop(self, message: str | None = None) -> list[Path]:
        """Save the games in progress, tell everyone (``message``, or the stopping notice
        in each person's language), close every session and stop. Every wait is bounded
        (``stop_grace``): connections still open after it are cut."""
        if self._acceptor is None:
            return []
        acceptor = self._acceptor
        started = time.monotonic()
        grace = self.config.stop_grace
        log.info("stopping: %d sessions open", len(self.sessions))
        for session in list(self.sessions):
            session.stop_input()  # first: a flood must not hold up the stop
        self.share.stop()
        acceptor.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        saved = self.lobby.save_games()  # first, and at once: nothing may delay it
        await self._within(self.lobby.close_tables(), grace, "stopping the tables")
        for session in list(self.sessions):
            session.close(message or session.t("server.stopping"))
        # Give the apps a moment to say goodbye and close their channels.
        await self._within(self._until(lambda: not self.sessions), grace,
                           "closing the sessions")
        for conn in list(self.connections):
            conn.close()
        await self._within(self._until(lambda: not self.connections), 0.5,
                           "closing the connections")
        for conn in list(self.connections):
            conn.abort()  # still there after the grace: cut, without waiting for the client
        await self._within(acceptor.wait_closed(), 0.5, "closing the listener")
        self._acceptor = None
        self._stopped.set()
        log.info("stopped in %.1f s; %d game records written", time.monotonic() - started,
                 len(saved))
        return saved

    @staticmethod
    async def _within(awaitable, seconds: float, what: str) -> None:
        """Wait for ``awaitable``, at most ``seconds``; then go on without it."""
        try:
            await asyncio.wait_for(awaitable, seconds)
        except TimeoutError:
            log.warning("stopping: %s took more than %g s; going on", what, seconds)
        except Exception:
            log.exception("stopping: %s failed", what)

    @staticmethod
    async def _until(done: Callable[[], bool]) -> None:
        while not done():
            await asyncio.sleep(0.05)

    async def wait_stopped(self) -> None:
        """Return once :meth:`stop` has finished."""
        await self._stopped.wait()


__all__ = ["GameServer", "SessionRefused", "STOPPING_MESSAGE"]
