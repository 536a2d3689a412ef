"""One SSH session channel: its terminal, its input and the Textual app it runs.

The session is the :class:`~server.driver.Terminal` its app's driver writes to. It keeps
the pty's size and type, drops input floods, follows the channel's flow control, and logs
and closes itself (never the server) when its app fails.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import sys
import time
from typing import TYPE_CHECKING, Callable

import asyncssh

from diamant_tui.i18n import Translator, detect_language

from .driver import SSHDriver

if TYPE_CHECKING:
    from textual.app import App

    from .auth import Identity

log = logging.getLogger(__name__)

DEFAULT_SIZE = (80, 24)
MAX_SIZE = 1000
"""Columns or rows beyond this are taken as this (a client cannot make frames huge)."""
INPUT_RATE = 32_768
"""Bytes of input per second a session may send on average; more is thrown away."""
INPUT_BURST = 65_536
WRITE_HIGH_WATER = 256 * 1024
"""Bytes queued for a client before its frames are dropped (see :mod:`server.driver`)."""

NO_PTY_MESSAGE = (
    "Diamant needs a terminal: connect with ssh -t, for example: {ssh}\r\n"
)

_session_ids = itertools.count(1)


class SessionRefused(Exception):
    """The session cannot start (e.g. a bad command); the message is shown before closing."""

AppFactory = Callable[["GameSession"], "App[object]"]
"""Builds the app for a session, once the session knows what it was asked for."""


class GameSession(asyncssh.SSHServerSession):
    """An interactive session: a pty, then a shell (the lobby) or a command (play/watch/resume)."""

    def __init__(self, identity: "Identity", app_factory: AppFactory, *, port: int,
                 public_host: str | None = None,
                 on_close: Callable[["GameSession"], None] | None = None) -> None:
        self.id = f"s{next(_session_ids)}"
        self.identity = identity
        self.command: str | None = None
        self.term_type = "xterm"
        self.environment: dict[str, str] = {}
        self.size = DEFAULT_SIZE
        self.paused = False
        self.app: App[object] | None = None
        self.last_input = time.monotonic()
        self.farewell: str | None = None
        """A line shown once the app has closed (why the session ends)."""
        self._factory = app_factory
        self.port = port
        self.public_host = public_host
        """The ``host`` or ``host:port`` players connect to, as the host configured it."""
        self._local_address: str | None = None
        self._on_close = on_close
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._has_pty = False
        self._driver: SSHDriver | None = None
        self._task: asyncio.Task[None] | None = None
        self._tokens = float(INPUT_BURST)
        self._tokens_at = time.monotonic()
        self._flooding = False
        self._closed = False

    # --- asyncssh callbacks ----------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan
        sockname = chan.get_extra_info("connection").get_extra_info("sockname")
        self._local_address = str(sockname[0]) if sockname else None
        chan.set_write_buffer_limits(high=WRITE_HIGH_WATER)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: object) -> bool:
        self._has_pty = True
        self.term_type = term_type or "xterm"
        self.size = _clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("%s: refused subsystem %.40r", self.id, subsystem)
        return False

    def session_started(self) -> None:
        assert self._chan is not None
        self.environment = {_text(k): _text(v) for k, v in self._chan.get_environment().items()}
        if not self._has_pty:
            command = self.command or ""
            log.info("%s: %s connected without a terminal; told to use ssh -t", self.id, self.identity)
            self._chan.write(NO_PTY_MESSAGE.format(ssh=self.ssh_command(command))
                             .encode("utf-8", errors="replace"))
            self._chan.exit(1)
            return
        log.info("%s: %s opened a %dx%d %s terminal%s", self.id, self.identity, *self.size,
                 self.term_type, f" with command {self.command!r}" if self.command else "")
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"session {self.id}")

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.last_input = time.monotonic()
        if not self._take_tokens(len(data)):
            if not self._flooding:
                log.warning("%s: input flood; throwing away input", self.id)
                self._tell(self.t("server.flood"))
            self._flooding = True
            if self._driver is not None:
                self._driver.discard_input()
            return
        self._flooding = False
        if self._driver is not None:
            try:
                self._driver.feed(data)
            except Exception as exc:
                # Garbage a terminal parser cannot read must not end the session.
                log.warning("%s: unreadable input (%s: %s); parser reset", self.id,
                            type(exc).__name__, exc)
                self._driver.discard_input()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = _clamp_size(width, height)
        if self._driver is not None:
            self._driver.resize(*self.size)

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self._driver is not None:
            self._driver.repaint()

    def eof_received(self) -> bool:
        return False  # close the channel

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._chan = None
        if self.app is not None and self.app.is_running:
            self.app.exit()
        elif self._task is None:
            self._finished()

    # --- the Terminal protocol, for the driver ---------------------------------------------

    def send(self, data: bytes) -> None:
        """Write to the client, unless the channel has gone."""
        if self._chan is None or self._closed:
            return
        try:
            self._chan.write(data)
        except (BrokenPipeError, OSError, asyncssh.Error):
            # The client closed its side first: the session ends without more output.
            self._closed = True
            if self.app is not None and self.app.is_running:
                self.app.exit()

    def attach(self, driver: SSHDriver | None) -> None:
        """Input and window changes go to ``driver`` from now on."""
        self._driver = driver

    # --- running the app ------------------------------------------------------------

    def ssh_command(self, command: str = "") -> str:
        """The ``ssh`` line that runs ``command`` on this server, as players reach it: the
        configured public host (and port), else the address this client connected to."""
        host, port = self.public_host or "", self.port
        if host.count(":") == 1:  # host:port (a bare IPv6 address has several colons)
            host, _, given = host.partition(":")
            port = int(given) if given.isdigit() else port
        host = host or self._local_address or "localhost"
        words = ["ssh", "-t"] + ([] if port == 22 else ["-p", str(port)]) + [host]
        return " ".join(words + ([command] if command else []))

    @property
    def has_terminal(self) -> bool:
        return self._has_pty

    @property
    def idle_seconds(self) -> float:
        """Seconds since the client last sent anything."""
        return time.monotonic() - self.last_input

    def t(self, key: str, **fmt: object) -> str:
        """A text in this person's language: their app's, else their terminal's locale."""
        app = self.app
        if app is not None and callable(getattr(app, "t", None)):
            return app.t(key, **fmt)  # type: ignore[attr-defined]
        return Translator(detect_language(self.environment))(key, **fmt)

    def close(self, message: str | None = None) -> None:
        """End the session, showing ``message`` on the client's normal screen afterwards."""
        if message and not self.farewell:
            self.farewell = message
        if self.app is not None and self.app.is_running:
            self.app.exit()
        elif self._chan is not None:
            self._say_farewell()
            self._chan.exit(0)

    async def _run(self) -> None:
        status = 0
        try:
            try:
                app = self.app = self._factory(self)
            except SessionRefused as exc:
                log.info("%s: refused: %s", self.id, exc)
                self.farewell, status = str(exc), 2
                return
            app.driver_class = functools.partial(SSHDriver, terminal=self)
            await app.run_async(size=self.size)
            if app._exception is not None:  # an error inside the app: Textual caught it
                status = 1
                log.error("%s: the app failed", self.id, exc_info=app._exception)
                self.farewell = self.farewell or self.t("server.failed", session=self.id)
        except Exception:
            status = 1
            log.exception("%s: the session failed", self.id)
            self.farewell = self.farewell or self.t("server.failed", session=self.id)
        finally:
            # Concurrent apps finishing out of order can leave sys.stdout pointing at a
            # finished app's print capture: put the real streams back.
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
            self._driver = None
            if self._chan is not None and not self._closed:
                self._say_farewell()
                self._chan.exit(status)
            self._finished()

    def _tell(self, text: str) -> None:
        """Show a short notice on the client's screen, if the app is up."""
        app = self.app
        if app is not None and app.is_running:
            with app._context():
                app.notify(text, severity="warning", timeout=6)

    def _say_farewell(self) -> None:
        if self.farewell and self._chan is not None:
            self._chan.write(self.farewell.encode("utf-8", errors="replace") + b"\r\n")

    def _finished(self) -> None:
        log.info("%s: closed", self.id)
        if self._on_close is not None:
            callback, self._on_close = self._on_close, None
            callback(self)

    def _take_tokens(self, count: int) -> bool:
        now = time.monotonic()
        self._tokens = min(float(INPUT_BURST), self._tokens + (now - self._tokens_at) * INPUT_RATE)
        self._tokens_at = now
        if self._tokens < count:
            self._tokens = 0.0
            return False
        self._tokens -= count
        return True


def _clamp_size(width: int, height: int) -> tuple[int, int]:
    if width <= 0 or height <= 0:
        return DEFAULT_SIZE
    return min(width, MAX_SIZE), min(height, MAX_SIZE)


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)
