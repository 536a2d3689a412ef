"""The game server: listens for SSH connections and runs a session per connection.

:class:`GameServer` ties the pieces together: the database, the host key, the connection
limits, the lobby of tables, and one Textual app per session. :meth:`GameServer.stop` saves
the games in progress, tells every connected person that the server is stopping and cuts the
connections still open after a short grace: it never waits long, whatever the load.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from typing import Callable

import asyncssh

from diamant_tui.names import clean_name, look_alike_key
from diamant_tui.table import ChatLimits

from .addresses import join_command, login_name, public_host_and_port, socket_addresses
from .admin import AdminDesk
from .app import make_app_factory
from .auth import ConnectionHandler
from .bans import Ban, Bans
from .chat_watch import ChatWatch
from .check import bind_problem
from .ciphers import CIPHERS, MACS
from .collector import Collector
from .lazy_tasks import keep_tasks_lazy
from .identity import Identity
from .ignore_packets import send_no_ignore_packets
from .config import ServerConfig
from .fair_share import LoopShare
from .folder_lock import FolderLock
from .hostkey import fingerprint, load_or_create
from .limits import ConnectionLimits
from .lobby import Lobby
from .logtext import counted
from .mutes import Mutes
from .reports import Reports
from .metrics import ServerMetrics, ServerState
from .presence import Presence
from .session import AppFactory, GameSession, SessionLimits, SessionRefused
from .storage import Storage

log = logging.getLogger(__name__)

send_no_ignore_packets()  # one SSH packet a frame, not two (see the module)

STOPPING_MESSAGE = "The server is stopping; games in progress have been saved. Thanks for playing!"
"""The English text; each person reads it in their own language (``server.stopping``)."""
SWEEP_EVERY = 30.0
"""Seconds between looks for tables nobody is at (at most: less for a short timeout)."""


def _refuse(refusal: tuple[str, int], session: GameSession) -> AppFactory:
    """The app factory of a session over a limit: it says why, in the person's language."""
    key, limit = refusal
    raise SessionRefused(session.t(key, limit=limit))


def _refuse_name(session: GameSession) -> AppFactory:
    """The app factory of a session under a refused name: it says so, in the person's
    language, with the command to come back under another name."""
    command = session.ssh_command(user=session.t("login.other_name"), terminal=False)
    raise SessionRefused(session.t("login.name_refused", name=session.identity.name,
                                   command=command))


def _refuse_ban(ban: Ban, session: GameSession) -> AppFactory:
    """The app factory of a session whose key is banned: it says until when and why, in
    the person's language."""
    raise SessionRefused(ban.message(session.t))


class RefusedNames:
    """The names nobody may log in under, compared by what they look like
    (:func:`~diamant_tui.names.look_alike_key`): ``Аdmin`` with a Cyrillic ``А`` is
    ``admin`` too. Whatever their case: the look-alike key keeps capitals apart from small
    letters (``ROOT`` looks like ``R00T``, not like ``root``), so each name is compared as
    written and in small letters."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self._keys = frozenset(key for name in names for key in _keys(name))

    def __contains__(self, name: str) -> bool:
        return not self._keys.isdisjoint(_keys(name))


def _keys(name: str) -> set[str]:
    return {look_alike_key(name), look_alike_key(name.casefold()),
            look_alike_key(name.upper())}


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
                           bot_time_limit=config.bot_time_limit,
                           resume_addresses=config.resume_addresses,
                           chat=ChatLimits(person=config.chat_person_lines,
                                           watchers=config.chat_watchers_lines,
                                           table=config.chat_table_lines,
                                           window=config.chat_window))
        self.lobby.server_name, self.lobby.motd = config.server_name, config.motd
        self.limits = ConnectionLimits(config.max_connections, config.max_per_address,
                                       config.connect_rate, config.connect_burst,
                                       max_per_person=config.max_sessions_per_person)
        self.refused_names = RefusedNames(config.refused_name_list)
        self.bans = Bans()
        self.mutes = Mutes()
        self.reports = Reports()
        self.admin = AdminDesk(config.admin_list, self.bans, self.lobby, lambda: self.sessions,
                               mutes=self.mutes, reports=self.reports)
        self.metrics = ServerMetrics(
            lambda: ServerState(len(self.connections), len(self.sessions)),
            lambda: self.lobby.tables.values())
        self.lobby.on_table = self.metrics.table_changed
        self.lobby.here = Presence(lambda: self.sessions).now
        chat_watch = ChatWatch(config.log_chat, self.metrics.refuse_chat, self.mutes.of)
        build = app_factory or (lambda lobby: make_app_factory(
            lobby, idle_timeout=config.lobby_idle_timeout,
            waiting_timeout=config.waiting_timeout, chat_watch=chat_watch, admin=self.admin))
        self._app_factory = build(self.lobby)
        self.collector = Collector(lambda: len(self.sessions))
        self.share = LoopShare(lag=config.fair_share_lag, window=config.fair_share_window,
                               hold=config.fair_share_hold,
                               seat_weight=config.fair_share_seat_weight)
        """Each session's share of the event loop all the apps run in."""
        self.sessions: set[GameSession] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.fingerprint = ""
        self.host_key: asyncssh.SSHKey | None = None
        self.storage: Storage | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self._undo_lazy_tasks: Callable[[], None] = lambda: None
        self._lock: FolderLock | None = None
        """The lock on the data folder, held from the start to the end of the stop."""
        self._storage_closed = False

    @property
    def port(self) -> int:
        """The port listened on (useful when the configured port was 0)."""
        assert self._acceptor is not None, "the server is not started"
        return self._acceptor.get_port()

    def listening(self) -> list[tuple[int, str]]:
        """The family and address of every socket the server listens on."""
        assert self._acceptor is not None, "the server is not started"
        return socket_addresses(self._acceptor.sockets)

    async def start(self) -> None:
        """Lock the data folder (a :class:`~diamant_server.folder_lock.FolderInUse` if
        another server holds it), open the database in it (a
        :class:`~diamant_server.storage.StorageError` says what is wrong with it), load (or
        make) the host key and start listening."""
        # First: another server on this folder would rebuild and play the same tables.
        self._lock = FolderLock.take(self.config.data_path)
        # A start that fails keeps the mark of a crash before it, for the next start.
        failed_clean = self._lock.left_by is None
        try:
            self.storage = Storage.open(self.config.data_path)
        except BaseException:
            self._release_lock(clean=failed_clean)
            raise
        self._undo_lazy_tasks = keep_tasks_lazy(asyncio.get_running_loop())
        self.lobby.storage = self.bans.storage = self.mutes.storage = self.storage
        self.reports.storage = self.storage
        try:
            # Before the tables are rebuilt: a start that cannot go on says so first.
            key = load_or_create(self.config.data_path)
            # Read once, kept in memory: a connection is checked without the disk.
            if await self.bans.load():
                log.info("%s in force", counted(len(self.bans.in_force()), "ban"))
            if await self.mutes.load():
                log.info("%s in force", counted(len(self.mutes.in_force()), "mute"))
            if await self.reports.load():
                log.info("%s open", counted(len(self.reports.open()), "report"))
            if self._lock.left_by is not None:
                log.warning("the server before this one (process %d) did not stop cleanly "
                            "(killed, out of memory, the machine stopped, or its last saves "
                            "failed): what it had not saved is lost (after a crash, at most "
                            "the choices of its last second); its tables are rebuilt from "
                            "their last saves", self._lock.left_by,
                            extra={"event": "unclean_stop"})
            # Before anyone can connect: people who come back find their seats.
            restored = await self.lobby.restore_tables(self.config.restore_wait)
            if restored:
                log.info("tables rebuilt as they were saved: %d (%s)", len(restored),
                         ", ".join(map(repr, restored)))
            await self._listen(key)
        except BaseException:
            self.mutes.stop_timers()
            self.lobby.storage = self.bans.storage = self.mutes.storage = None
            self.reports.storage = None
            self.storage.close()
            self.storage = None
            self._undo_lazy_tasks()
            self._release_lock(clean=failed_clean)
            raise

    def _release_lock(self, *, clean: bool = False) -> None:
        if self._lock is not None:
            self._lock.release(clean=clean)
            self._lock = None

    async def _listen(self, key: asyncssh.SSHKey) -> None:
        self.fingerprint = fingerprint(key)
        self.host_key = key
        try:
            self._acceptor = await self._create_server(key)
        except OSError as exc:
            raise OSError(bind_problem("the server", self.config.host or "every address",
                                       self.config.port, "--port", exc)) from None
        if self.config.metrics_port:
            try:
                self.metrics.start(self.config.metrics_host, self.config.metrics_port)
            except OSError as exc:
                self._acceptor.close()
                await self._acceptor.wait_closed()
                self._acceptor = None
                raise OSError(bind_problem(
                    "the metrics endpoint", self.config.metrics_host,
                    self.config.metrics_port, "--metrics-port", exc)) from None
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(),
                                                               name="empty tables")
        self.collector.tune()  # before the share's ticks: the collection takes a while
        self.share.start()
        log.info("listening on %s port %d; host key %s", self.config.host, self.port,
                 self.fingerprint)

    def _create_server(self, key: asyncssh.SSHKey):
        return asyncssh.create_server(
            lambda: ConnectionHandler(self.limits, self._new_session, self.connections,
                                      session_timeout=self.config.login_timeout,
                                      max_sessions=self.config.max_sessions_per_connection,
                                      on_refused=self.metrics.refuse,
                                      banned=self._address_ban,
                                      join_command=self._join_command),
            self.config.host,
            self.config.port,
            server_host_keys=[key],
            server_version="Diamant",
            encryption_algs=CIPHERS,  # no ChaCha20-Poly1305: see server/ciphers.py
            mac_algs=MACS,
            encoding=None,  # raw bytes: the driver decodes input itself
            line_editor=False,  # on by default for pty sessions; it would rewrite our output
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            login_timeout=self.config.login_timeout,
            keepalive_interval=self.config.keepalive_interval,
        )

    def _new_session(self, identity: Identity, ended: Callable[[], None] | None = None,
                     refusal: tuple[str, int] | None = None,
                     session_id: str | None = None) -> GameSession:
        """The session for a new channel; ``ended`` is called once it has ended, and a
        ``refusal`` (over a limit, or a refused name) is told to the person once the
        session starts; ``session_id`` is its connection's id."""

        def closed(session: GameSession) -> None:
            self.sessions.discard(session)
            if ended is not None:
                ended()

        build = self._build_app if refusal is None else functools.partial(_refuse, refusal)
        ban = None if refusal is not None or identity.guest else self.bans.of_key(identity.key)
        if ban is not None:
            build = functools.partial(_refuse_ban, ban)
        elif refusal is None and identity.name in self.refused_names:
            build = _refuse_name
        # The commands shown to the person name a user the server takes (see login_name).
        shown_login = login_name(identity.name, lambda name: name in self.refused_names)
        session = GameSession(identity, build, port=self._port,
                              public_host=self.config.public_host or None,
                              login_name=shown_login, on_close=closed,
                              limits=SessionLimits.from_config(self.config),
                              session_id=session_id, share=self.share,
                              refused=refusal is not None or ban is not None
                              or build is _refuse_name)
        if ban is not None:
            self.metrics.refuse("banned")
            session.log.warning("refused a banned key: %s", ban.message(),
                                extra={"event": "refused", "reason": "banned"})
        elif build is _refuse_name:
            self.metrics.refuse("name")
            session.log.info("refused the name %r: it is kept for the server",
                             identity.name, extra={"event": "refused", "reason": "name"})
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

    def _address_ban(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused (the line its client is sent,
        in English: its language is not known yet), if the address is banned."""
        ban = self.bans.of_address(address)
        return None if ban is None else ban.message()

    def _join_command(self, local_address: str, user: str = "") -> str:
        """The command that joins this server, for a client that connected to
        ``local_address``: with the public host players type, when it is set, and the
        user name ``user`` as the server takes it (see :func:`login_name`): typed from an
        account of a refused name (``root``), a command that names none fails."""
        host, port = public_host_and_port(self.config.public_host, self.port)
        shown = login_name(clean_name(user), lambda name: name in self.refused_names) \
            if user else None
        return join_command(host or local_address, port, shown)

    def _build_app(self, session: GameSession):
        return self._app_factory(session)

    @property
    def _port(self) -> int:
        return self._acceptor.get_port() if self._acceptor is not None else self.config.port

    async def stop(self, message: str | None = None) -> list[str]:
        """Save the open tables as they are, to be rebuilt at the next start (returns their
        names), tell everyone
        (``message``, or the stopping notice in each person's language), close every
        session, close the database and stop. Every wait is bounded (``stop_grace``):
        connections still open after it are cut."""
        if self._acceptor is None:
            return []
        acceptor = self._acceptor
        started = time.monotonic()
        grace = self.config.stop_grace
        log.info("stopping: %s open", counted(len(self.sessions), "session"))
        for session in list(self.sessions):
            session.stop_input()  # first: a flood must not hold up the stop
        self.share.stop()
        self.mutes.stop_timers()  # nobody is left to tell that a mute is over
        acceptor.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        saves = self.lobby.keep_tables()  # first, and at once: nothing may delay it
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
        # The saves were queued first thing and are most likely on disk by now.
        await self._within(self._close_storage(), grace, "saving the games")
        if self._storage_closed:
            # Not before: a server started on this folder meanwhile would read tables
            # still being saved. (If the saves overran, the process's end lets it go,
            # and the next start says this one did not stop cleanly.)
            self._release_lock(clean=all(save.done() and not save.cancelled()
                                         and save.exception() is None
                                         for save in saves.values()))
        saved = [name for name, save in saves.items() if save.done()
                 and not save.cancelled() and save.exception() is None]
        await self._within(self.metrics.stop(), 1.0, "stopping the metrics endpoint")
        self._acceptor = None
        self.collector.restore()
        self._undo_lazy_tasks()
        self._stopped.set()
        log.info("stopped in %.1f s; open tables saved: %d", time.monotonic() - started,
                 len(saved))
        return saved

    async def _close_storage(self) -> None:
        """Wait for the saves under way, then write what is queued and close the database."""
        await self.lobby.flush()
        storage, self.storage, self.lobby.storage = self.storage, None, None
        self.bans.storage = self.mutes.storage = self.reports.storage = None
        if storage is not None:
            await asyncio.to_thread(storage.close)
        self._storage_closed = True

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
