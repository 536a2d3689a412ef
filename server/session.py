"""One SSH session channel: its terminal, its input and the Textual app it runs.

The session is the :class:`~diamant_server.driver.Terminal` its app's driver writes to. It keeps
the pty's size and type within bounds, keeps only the environment variables the app uses,
thins input floods (:mod:`diamant_server.input_limits`) and closes a session that keeps flooding,
holds its input back while it uses more than its share of the server's loop
(:mod:`diamant_server.fair_share`), bounds what waits to be sent to a client that does not
read (and closes one stuck for too long), and logs and closes itself (never the server) when
its app fails.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import asyncssh

from diamant_tui.i18n import Translator, detect_language
from diamant_tui.table import CHAT_MAX_CHARS
from diamant_tui.ui.cells import wrap

from .addresses import join_command, public_host_and_port
from .config import ServerConfig
from .commands import CommandError, help_text, parse_command, without_secrets
from .driver import SSHDriver
from .eventlog import SessionLog, new_session_id
from .fair_share import CURRENT_SESSION, LoopShare
from .input_limits import InputGate
from .locale_charset import ForeignCharset, foreign_charset
from .logtext import WarningLimiter, loggable

if TYPE_CHECKING:
    from textual.app import App

    from .identity import Identity

log = logging.getLogger(__name__)

DEFAULT_SIZE = (80, 24)
RESIZE_INTERVAL = 0.2
"""Seconds between two window changes followed (the last one in between wins), for a
screen of up to :data:`RESIZE_CELLS` cells; proportionally longer for a larger one."""
RESIZE_CELLS = 20_000
WATCH_INTERVAL = 1.0
"""Seconds between checks of a session's output (stuck, or caught up again)."""
ENV_NAMES = ("LANG", "TERM", "COLORTERM", "NO_COLOR")
"""Environment variables the app reads (and every ``LC_*``); others are not kept."""
TERM_MAX_LENGTH = 64
"""Longest terminal type kept from a pty request."""
_DEFAULTS = ServerConfig()


@dataclass(frozen=True)
class SessionLimits:
    """What one session may cost: its size, its input, its pending output, its
    environment. The defaults (and what each bounds) are the server's settings
    (:class:`~diamant_server.config.ServerConfig`)."""

    max_columns: int = _DEFAULTS.max_columns
    max_rows: int = _DEFAULTS.max_rows
    input_events_per_second: float = _DEFAULTS.input_events_per_second
    input_event_burst: int = _DEFAULTS.input_event_burst
    input_flood_seconds: float = _DEFAULTS.input_flood_seconds
    input_bytes_per_second: int = _DEFAULTS.input_bytes_per_second
    input_byte_burst: int = _DEFAULTS.input_byte_burst
    output_high_water: int = _DEFAULTS.output_high_water
    output_buffer_max: int = _DEFAULTS.output_buffer_max
    output_stall_timeout: float = _DEFAULTS.output_stall_timeout
    env_max_count: int = _DEFAULTS.env_max_count
    env_max_length: int = _DEFAULTS.env_max_length

    @classmethod
    def from_config(cls, config: "ServerConfig") -> "SessionLimits":
        """The limits as the server's settings give them."""
        return cls(**{name: getattr(config, name) for name in cls.__dataclass_fields__})


def allowed_variable(name: str) -> bool:
    """Whether the app uses the environment variable ``name`` (locale, terminal, colours)."""
    return name in ENV_NAMES or name.startswith("LC_")


class _BoundedEnvironment(dict):  # type: ignore[type-arg]
    """The channel's store of environment requests, keeping only a few short, useful ones.

    asyncssh keeps every ``env`` request on the channel before the session sees any of
    them; this store (put in place when the channel opens) refuses the rest as they come.
    """

    refused = 0
    """Requests not kept."""

    def __init__(self, limits: "SessionLimits") -> None:
        super().__init__()
        self._count, self._length = limits.env_max_count, limits.env_max_length

    def __setitem__(self, key: bytes, value: bytes) -> None:
        name = key.decode("ascii", errors="replace") if isinstance(key, bytes) else str(key)
        if (allowed_variable(name) and len(key) <= self._length
                and len(value) <= self._length
                and (key in self or len(self) < self._count)):
            super().__setitem__(key, value)
        else:
            self.refused += 1




class SessionRefused(Exception):
    """The session cannot start (e.g. a bad command); the message is shown before closing."""

AppFactory = Callable[["GameSession"], "App[object] | Awaitable[App[object]]"]
"""Builds the app for a session, once the session knows what it was asked for."""


class GameSession(asyncssh.SSHServerSession):
    """An interactive session: a pty, then a shell (the lobby) or a command (play/watch/resume)."""

    def __init__(self, identity: "Identity", app_factory: AppFactory, *, port: int,
                 public_host: str | None = None, login_name: str | None = None,
                 on_close: Callable[["GameSession"], None] | None = None,
                 limits: SessionLimits | None = None, session_id: str | None = None,
                 share: LoopShare | None = None, refused: bool = False) -> None:
        self.id = session_id or new_session_id()
        """The connection's id (given at accept): every log line about it carries it."""
        self.log = SessionLog(log, self.id)
        self.identity = identity
        self.command: str | None = None
        self.term_type = "xterm"
        self.environment: dict[str, str] = {}
        self.limits = limits or SessionLimits()
        self.size = DEFAULT_SIZE
        self.gate: InputGate | None = InputGate(
            rate=self.limits.input_events_per_second, burst=self.limits.input_event_burst,
            paste_max=CHAT_MAX_CHARS)
        self._chan_paused = False
        self.app: App[object] | None = None
        self.last_input = time.monotonic()
        self.opened = datetime.now(timezone.utc)
        """When the session's channel was opened (shown to admins)."""
        self.farewell: str | None = None
        """A line shown once the app has closed (why the session ends)."""
        self._factory = app_factory
        self._refused = refused
        """``app_factory`` only refuses the session (a banned key, a limit, a refused
        name): asked for help, or opened without a terminal, it is told why it is refused,
        not how to use the server it may not use."""
        self.port = port
        self.public_host = public_host
        """The ``host`` or ``host:port`` players connect to, as the host configured it."""
        self.login_name = login_name
        """The user name the commands shown to this person name (see
        :func:`~diamant_server.addresses.login_name`): without one, ``ssh`` sends the
        name of the account it is typed from, which the server may refuse (``root``)."""
        self._local_address: str | None = None
        self._on_close = on_close
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._has_pty = False
        self._driver: SSHDriver | None = None
        self._task: asyncio.Task[None] | None = None
        self._tokens = float(self.limits.input_byte_burst)
        self._tokens_at = time.monotonic()
        self._flooding = False
        self._flood_told_at: float | None = None
        self._input_stopped = False
        self._closed = False
        self._lost = False
        self._input_ended = False
        """The client has sent its end of input (EOF)."""
        self._warnings = WarningLimiter(self.log)
        self._conn: Any = None
        self._stalled_since: float | None = None
        self._watch: asyncio.TimerHandle | None = None
        self._resize_handle: asyncio.TimerHandle | None = None
        self._resized_at = float("-inf")
        self._applied_size = DEFAULT_SIZE
        self.share = share
        """The server's loop share: this session's input waits while it uses too much."""
        self.loop_seconds = 0.0
        """Seconds of the server's loop this session's app and input have used so far."""
        self._early = bytearray()
        """What the client typed before its app's driver was there to take it (the app is
        made after a read of the database): passed on as the driver attaches."""
        self._held: list[bytes] = []
        """Input held back (see :mod:`~diamant_server.fair_share`), oldest first."""
        self._held_bytes = 0

    # --- asyncssh callbacks ----------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan
        self._conn = chan.get_extra_info("connection")
        sockname = self._conn.get_extra_info("sockname")
        self._local_address = str(sockname[0]) if sockname else None
        chan.set_write_buffer_limits(high=self.limits.output_high_water)
        # asyncssh stores each environment request on the channel as it comes (asyncssh
        # 2.24, pinned): replace its store before any request arrives with one that keeps
        # only the few variables the app reads, each short.
        chan._env = _BoundedEnvironment(self.limits)  # type: ignore[attr-defined]

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: object) -> bool:
        self._has_pty = True
        self.term_type = (term_type or "xterm")[:TERM_MAX_LENGTH]
        self.size = self.clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.log.info("refused subsystem %s", loggable(subsystem, 40))
        return False

    def session_started(self) -> None:
        assert self._chan is not None
        self.environment = {_text(k): _text(v) for k, v in self._chan.get_environment().items()}
        refused = getattr(self._chan._env, "refused", 0)  # type: ignore[attr-defined]
        if refused:
            self.log.info("ignored %d environment variables (not used by the game, or too long)",
                          refused)
        if self._refused and (not self._has_pty or self._asks_for_help()):
            self._answer_refusal()
            return
        if self._asks_for_help():
            self._answer_help()
            return
        if not self._has_pty:
            self._without_terminal(self.command or "")
            return
        charset = foreign_charset(self.environment)
        if charset is not None:
            self._not_utf8(charset)
            return
        # A resume code in the command gives a seat: it is never logged.
        self.log.info("%s opened a %dx%d %s terminal%s", self.identity, *self.size,
                      loggable(self.term_type, TERM_MAX_LENGTH),
                      f" with command {loggable(without_secrets(self.command))}"
                      if self.command else "", extra={"event": "session"})
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._run(), name=f"session {self.id}")
        self._watch = loop.call_later(WATCH_INTERVAL, self._watch_output)

    def _asks_for_help(self) -> bool:
        """Whether the client's command is ``help`` (or ``--help``, ``-h``)."""
        try:
            return parse_command(self.command or "").verb == "help"
        except CommandError:
            return False

    def _answer_refusal(self) -> None:
        """Tell a refused session why, and end it (status 2, as with a terminal)."""
        assert self._chan is not None
        try:
            self._factory(self)
            text = self.t("server.failed", session=self.id)  # (a refusal always raises)
        except SessionRefused as exc:
            self.log.info("refused: %s", exc, extra={"event": "refused"})
            text = str(exc)
        self._say_farewell(text)  # as a refused session with a terminal is told, once closed
        self._chan.exit(2)

    def _answer_help(self) -> None:
        """Answer ``help`` with the list of commands, in the client's language, with a
        terminal or without: a normal answer, so the exit status is 0. A terminal gets
        it as the messages a session ends with: each line broken between words at its
        width (a phone's 50 columns broke them mid-word), CR LF after each."""
        assert self._chan is not None
        self.log.info("%s asked for the list of commands", self.identity)
        text = help_text(self.t, self.ssh_command())
        if self._has_pty:  # the client's terminal is raw: a line feed alone goes down only
            text = farewell_text(text.removesuffix("\n"), self.size[0])
        self._chan.write(text.encode("utf-8", "replace"))
        self._chan.exit(0)

    def _without_terminal(self, command: str) -> None:
        """Answer a session opened without a pty (``ssh -T``, or a command given without
        ``-t``) and end it: in the language of the client's locale (the environment is
        read by then). A command that would be refused anyway is told what is wrong with
        it first, as a terminal would be, and then shown how to reach the lobby: telling
        it only to add ``-t`` would have it try again a command that cannot work."""
        assert self._chan is not None
        lines, status = [], 1
        if command.strip():
            try:
                parse_command(command)
            except CommandError as exc:
                lines.append(exc.text(self.t))
                command, status = "", 2  # 2, as for a terminal's refused command
        self.log.info("%s connected without a terminal%s; told to use ssh -t", self.identity,
                      " and a command that cannot be read" if status == 2 else "")
        lines.append(self.t("command.no_terminal", ssh=self.ssh_command(command)))
        self._chan.write(farewell_text("\n".join(lines), None).encode("utf-8",
                                                                     errors="replace"))
        self._chan.exit(status)

    def _not_utf8(self, charset: ForeignCharset) -> None:
        """Tell a client whose locale names another character set than UTF-8 that the
        game's screen would be garbled there, and how to connect, in its own character
        set (an ISO-8859-1 terminal reads the French accents), and end the session."""
        assert self._chan is not None
        self.log.info("%s has a %s locale; told to connect with UTF-8", self.identity,
                      charset.codeset)
        text = self.t("command.not_utf8", codeset=charset.codeset,
                      variable=charset.variable, suggested=charset.suggested,
                      ssh=self.ssh_command(self.command or ""))
        self._chan.write(charset.encode(farewell_text(text, self.size[0])))
        self._chan.exit(1)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self._input_stopped:
            return
        self.last_input = time.monotonic()
        if not self._take_tokens(len(data)):
            self._thrown_away()
            return
        self._flooding = False
        share = self.share
        if self._held or (share is not None and share.should_hold(self)):
            # Over its share of a busy loop: the input waits, in order, for its turn.
            if self._held_bytes + len(data) > self.limits.input_byte_burst:
                self._thrown_away()  # more than a person types while waiting
                return
            self._held.append(data)
            self._held_bytes += len(data)
            if share is not None:
                share.holding(self)
            return
        self._feed(data)

    def _thrown_away(self) -> None:
        """Input over the allowances was thrown away: say so once, close a long flood."""
        if not self._flooding:
            self.log.warning("input flood; throwing away input",
                             extra={"event": "limit", "limit": "input_bytes_per_second"})
            self._tell(self.t("server.flood"))
        self._flooding = True
        # What waits for its turn goes too: the parser starts afresh, and the rest of a
        # paste held back would otherwise reach it without its end and swallow later keys.
        self._held, self._held_bytes = [], 0
        if self.gate is not None:
            self.gate.note_dropped()
        if self._driver is not None:
            self._driver.discard_input()
        self._check_flood()

    def _feed(self, data: bytes) -> None:
        """Pass input on to the app's driver (its parsing is charged to this session),
        or keep it for the driver to come (as much as a burst of typing)."""
        if self._driver is None:
            if self._task is not None and not self._task.done() and \
                    len(self._early) + len(data) <= \
                    self.limits.input_byte_burst:
                self._early += data
        else:
            started = time.perf_counter()
            try:
                self._driver.feed(data)
            except Exception as exc:
                # Garbage a terminal parser cannot read must not end the session.
                self._warnings.warning("unreadable", "unreadable input (%s: %s); parser reset",
                                       type(exc).__name__, loggable(exc, 100))
                self._driver.discard_input()
            if CURRENT_SESSION.get() is not self:  # else the loop's meter counts it already
                self.loop_seconds += time.perf_counter() - started
        if self.gate is not None and self.gate.dropped:
            self._check_flood()

    def release_input(self) -> None:
        """The loop has time for this session again: pass on the input held back."""
        held, self._held, self._held_bytes = self._held, [], 0
        for data in held:
            if self._input_stopped:
                return
            self._feed(data)

    @property
    def seated(self) -> bool:
        """Whether the person holds a seat in a game being played (their app says)."""
        return bool(getattr(self.app, "seated_in_a_game", False))

    @property
    def keys_passed(self) -> int:
        """Key presses, mouse reports and pastes passed on to the app so far."""
        return self.gate.passed if self.gate is not None else 0

    @property
    def input_held(self) -> bool:
        """True while input from the client waits for this session's turn in the loop."""
        return bool(self._held)

    def _check_flood(self) -> None:
        """Input was dropped: tell the person once per flood, close a flood that goes on."""
        gate = self.gate
        if gate is None or self._closed:
            return
        seconds = gate.flood_seconds()
        if self._flood_told_at != gate.flood_started:  # once per flood
            self._flood_told_at = gate.flood_started
            self._warnings.warning("flood", "more than %g keys or mouse reports a second; "
                                   "the excess is ignored",
                                   self.limits.input_events_per_second)
            self._tell(self.t("limit.flood"))
        if seconds > self.limits.input_flood_seconds:
            self.log.warning("%s kept flooding input for %.0f s (%d events ignored); closed",
                             self.identity, seconds, gate.dropped_total,
                             extra={"event": "limit", "limit": "input_flood_seconds"})
            self.stop_input()
            self.close(self.t("limit.flood_closed"))

    def stop_input(self) -> None:
        """Ignore everything the client sends from now on (the session is ending)."""
        self._input_stopped = True
        self.gate = None
        self._held, self._held_bytes = [], 0
        if self.share is not None:
            self.share.remove(self)
        if self._driver is not None:
            self._driver.discard_input()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = self.clamp_size(width, height)
        # Each new size costs a layout and a whole frame: follow window changes at most
        # a few times a second (the last size wins), and not at all when nothing changed.
        if self._resize_handle is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._resized_at + self._resize_interval() - loop.time()
        if wait > 0:
            self._resize_handle = loop.call_later(wait, self._apply_size)
        else:
            self._apply_size()

    def _resize_interval(self) -> float:
        # A larger screen costs more to lay out and draw: it follows changes less often.
        width, height = self._applied_size
        return RESIZE_INTERVAL * max(1.0, width * height / RESIZE_CELLS)

    def _apply_size(self) -> None:
        self._resize_handle = None
        if self.paused:
            return  # nobody would see it: the size is applied when the client catches up
        if self._driver is not None and self.size != self._applied_size:
            self._resized_at = asyncio.get_running_loop().time()
            self._applied_size = self.size
            self._driver.resize(*self.size)

    def clamp_size(self, width: int, height: int) -> tuple[int, int]:
        """The one clamp for every size a client can set: nothing or nonsense is the default
        size; beyond the maximum is the maximum (below 80x24, the app asks to enlarge)."""
        if width <= 0 or height <= 0:
            return DEFAULT_SIZE
        return min(width, self.limits.max_columns), min(height, self.limits.max_rows)

    def pause_writing(self) -> None:
        self._chan_paused = True

    def resume_writing(self) -> None:
        self._chan_paused = False
        if not self.paused:
            self._caught_up()

    def _caught_up(self) -> None:
        """The client reads again: follow its last window size and draw the screen again."""
        self._apply_size()
        if self._driver is not None:
            self._driver.repaint()

    @property
    def paused(self) -> bool:
        """True while the client is not reading what was sent: frames are dropped.

        The channel pauses on its own send buffer; a client that opened a large SSH window
        and stopped reading fills the connection's socket buffer instead, which asyncssh
        does not report, so that is checked here too.
        """
        return self._chan_paused or self._transport_backlog() > self.limits.output_high_water

    def _transport_backlog(self) -> int:
        transport = getattr(self._conn, "_transport", None)  # asyncssh 2.24, pinned
        if transport is None:
            return 0
        try:
            return int(transport.get_write_buffer_size())
        except Exception:
            return 0

    def pending_output(self) -> int:
        """Bytes written for this client and not yet taken by its connection."""
        chan = self._chan
        buffered = chan.get_write_buffer_size() if chan is not None else 0
        return buffered + self._transport_backlog()

    def _watch_output(self) -> None:
        """Every second: repaint a client that caught up; close one stuck for too long."""
        self._watch = None
        if self._closed or self._chan is None:
            return
        loop = asyncio.get_running_loop()
        if self.paused:
            now = loop.time()
            if self._stalled_since is None:
                self._stalled_since = now
            elif now - self._stalled_since > self.limits.output_stall_timeout:
                self.log.warning("%s has read nothing for %.0f s (%d bytes waiting); closed",
                                 self.identity, now - self._stalled_since,
                                 self.pending_output(),
                                 extra={"event": "limit", "limit": "output_stall_timeout"})
                self._abort()
                return
        else:
            self._stalled_since = None
            if self._driver is not None and self._driver.behind:
                self._caught_up()
        self._watch = loop.call_later(WATCH_INTERVAL, self._watch_output)

    def _abort(self) -> None:
        """Close at once, throwing away unsent output (the client is not reading it)."""
        self.stop_input()
        self._closed = self._lost = True
        conn, chan = self._conn, self._chan
        if chan is not None:
            chan.abort()
        if conn is not None:
            conn.abort()
        self._end_app()

    def eof_received(self) -> bool:
        # The client sends nothing more: its app ends (at once, or as soon as it is made),
        # and the channel is closed the usual way, with the exit status: closed without
        # it, OpenSSH's client stayed connected.
        self._input_ended = True
        self._end_app()
        return self._task is not None  # else no app was asked for: close the channel now

    def break_received(self, msec: int) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._lost = self._lost or exc is not None
        self._chan = None
        for handle in (self._watch, self._resize_handle):
            if handle is not None:
                handle.cancel()
        self._watch = self._resize_handle = None
        if not self._end_app() and self._task is None:
            self._finished()

    # --- the Terminal protocol, for the driver ---------------------------------------------

    def send(self, data: bytes) -> bool:
        """Write to the client, unless the channel has gone or too much is waiting for it
        already; True if written (else the frame is lost and the screen must be redrawn)."""
        if self._chan is None or self._closed:
            return False
        if self.pending_output() + len(data) > self.limits.output_buffer_max:
            return False
        try:
            self._chan.write(data)
        except (BrokenPipeError, OSError, asyncssh.Error):
            # The client closed its side first: the session ends without more output.
            self._closed = True
            self._end_app()
            return False
        return True

    def attach(self, driver: SSHDriver | None) -> None:
        """Input and window changes go to ``driver`` from now on (what was typed before
        it came first)."""
        self._driver = driver
        early, self._early = bytes(self._early), bytearray()
        if driver is not None and early:
            self._feed(early)

    # --- running the app ------------------------------------------------------------

    def ssh_command(self, command: str = "", *, user: str | None = None,
                    terminal: bool = True) -> str:
        """The ``ssh`` line that runs ``command`` on this server, as players reach it: the
        configured public host (and port), else the address this client connected to,
        logged in as ``user`` (by default :attr:`login_name`, when there is one), with
        ``-t`` unless ``terminal`` is False."""
        host, port = public_host_and_port(self.public_host or "", self.port)
        host = host or self._local_address or "localhost"
        user = self.login_name if user is None else user
        line = join_command(host, port, user, terminal=terminal)
        return f"{line} {command}" if command else line

    @property
    def lost(self) -> bool:
        """True once the connection is lost (cut without a goodbye: a client killed, a
        network gone, keepalives unanswered, or closed here for not reading), rather
        than closed by the client (its window shut, ``exit``) or ended by the server."""
        return self._lost

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
        if not self._end_app() and self._chan is not None:
            self._say_farewell()
            self._chan.exit(0)

    def _end_app(self) -> bool:
        """Ask the app to end, if one was made and has not ended; whether it did.

        Asked through its queue of messages, after whatever it is doing: an app asked to
        end while it makes its first screen cannot put its widgets on it (Textual raises
        ``MountError``), as when a client's input ends at once (``ssh -tt host play t <
        /dev/null``) or its connection drops as it joins."""
        app = self.app
        if app is None or self._task is None or self._task.done():
            return False  # none made yet, or it has ended
        app.call_later(app.exit)  # (once it has ended, nothing is queued any more)
        return True

    async def _run(self) -> None:
        status = 0
        # The app's tasks inherit this: the loop's work for them is charged to this session.
        CURRENT_SESSION.set(self)
        if self.share is not None:
            self.share.add(self)
        try:
            try:
                made = self._factory(self)
                if inspect.isawaitable(made):  # (it reads the database: the client may go)
                    made = await made
                    if self._closed or self._chan is None:
                        return
                app = self.app = made
            except SessionRefused as exc:
                self.log.info("refused: %s", exc, extra={"event": "refused"})
                self.farewell, status = str(exc), 2
                return
            app.driver_class = functools.partial(SSHDriver, terminal=self)
            if self._input_ended:  # the client's input ended before the app was made
                self._end_app()
            self._applied_size = self.size
            await app.run_async(size=self.size)
            if app._exception is not None:  # an error inside the app: Textual caught it
                status = 1
                self.log.error("the app failed", exc_info=app._exception)
                self.farewell = self.farewell or self.t("server.failed", session=self.id)
        except Exception:
            status = 1
            self.log.exception("the session failed")
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

    def _say_farewell(self, text: str | None = None) -> None:
        """Write ``text`` (by default :attr:`farewell`) to the client's normal screen."""
        text = text or self.farewell
        if text and self._chan is not None:
            width = self.size[0] if self._has_pty else None
            self._chan.write(farewell_text(text, width).encode("utf-8", errors="replace"))

    def _finished(self) -> None:
        self.log.info("closed", extra={"event": "session_closed"})
        self._held, self._held_bytes = [], 0
        if self.share is not None:
            self.share.remove(self)
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self._on_close is not None:
            callback, self._on_close = self._on_close, None
            callback(self)

    def _take_tokens(self, count: int) -> bool:
        now = time.monotonic()
        limits = self.limits
        self._tokens = min(float(limits.input_byte_burst),
                           self._tokens + (now - self._tokens_at) * limits.input_bytes_per_second)
        self._tokens_at = now
        if self._tokens < count:
            self._tokens = 0.0
            return False
        self._tokens -= count
        return True


def farewell_text(message: str, width: int | None) -> str:
    """``message`` as it is written to the client's terminal once the app has ended:
    each of its lines broken between words to fit ``width`` cells (the terminal's; None
    without a terminal), every line ended by CR LF. The terminal, raw still, would
    otherwise break a long line at its edge mid-word, and take a line feed alone for a
    step down in the same column."""
    lines = message.splitlines() or [""]
    if width is not None:
        lines = [row for line in lines for row in _indented_wrap(line, width)]
    return "".join(f"{line}\r\n" for line in lines)


def _indented_wrap(line: str, width: int) -> list[str]:
    """``line`` wrapped to ``width`` cells, each row with the line's own indentation."""
    body = line.lstrip(" ")
    indent = line[:len(line) - len(body)]
    if not body:
        return [""]
    return [indent + row for row in wrap(body, max(1, width - len(indent)))]


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)
