"""A Textual driver that runs an app over one SSH channel, inside the server's event loop.

Textual's own Linux driver reads the server's stdin, installs process-wide signal handlers
and sizes itself from the server's terminal; none of that is right for a server hosting many
apps at once. This driver writes each frame to its :class:`Terminal` (the SSH channel) and
gets its input, size and flow control from it.
"""

from __future__ import annotations

import logging
from codecs import getincrementaldecoder
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Protocol, TextIO

from textual import events, messages
from textual.constants import ESCAPE_DELAY
from textual.driver import Driver
from textual.geometry import Size

from diamant_tui.ui.shown_pieces import forget_shown

from .key_parser import KeyParser

if TYPE_CHECKING:
    from textual.app import App

    from .input_limits import InputGate

log = logging.getLogger(__name__)

# Escape sequences written when the app starts and stops (the same as Textual's Linux driver,
# without the keyboard protocol negotiation a remote terminal may not answer).
_START = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"  # mouse reporting (SGR)
    "\x1b[?25l"  # hide the cursor
    "\x1b[?1004h"  # focus in/out
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap
    "\x1b[?2026$p"  # ask whether synchronized output is supported
)
_STOP = (
    "\x1b[?2004l"
    "\x1b[?7h"
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
    "\x1b[?1049l"
    "\x1b[?25h"
    "\x1b[?1004l"
)


class Terminal(Protocol):
    """What the driver needs from the connection: an output, flow control and a size."""

    size: tuple[int, int]
    """Columns and rows, from the pty request and later window changes."""
    paused: bool
    """True while the client is not reading fast enough: frames are dropped."""
    gate: "InputGate | None"
    """What thins the client's input before it is parsed (None: nothing)."""

    def send(self, data: bytes) -> bool:
        """Send bytes to the client's terminal; False if they were not sent."""

    def attach(self, driver: "SSHDriver | None") -> None:
        """Route the client's input and window changes to ``driver`` (None: detach)."""

    def clamp_size(self, width: int, height: int) -> tuple[int, int]:
        """``width`` x ``height`` brought within the sizes this server draws."""


class SSHDriver(Driver):
    """Drives one Textual app over an SSH channel (see module docstring).

    Built by Textual as ``driver_class(app, debug=, mouse=, size=)``; the terminal is bound
    beforehand with ``functools.partial(SSHDriver, terminal=...)``.
    """

    def __init__(
        self,
        app: "App[Any]",
        *,
        terminal: Terminal,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=False, mouse=mouse, size=size or terminal.size)
        self._terminal = terminal
        self._buffer: list[str] = []
        self._dropped = False
        self._held = False
        self._running = False
        self._new_parser()
        self._tick_handle: Any = None

    def _new_parser(self) -> None:
        # Never debug=True: the parser would write a key log into the working directory.
        self._parser = KeyParser(debug=False)
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode

    # --- output -------------------------------------------------------------------------

    def write(self, data: str) -> None:
        """Collect output; :meth:`flush` sends one whole frame at a time."""
        self._buffer.append(data)

    def flush(self) -> None:
        """Send the collected frame, or drop it while the client is not keeping up."""
        if not self._buffer:
            return
        data = "".join(self._buffer)
        self._buffer.clear()
        if self._terminal.paused:
            # Dropping whole frames keeps the buffer bounded; the screen is repainted in
            # full when the client catches up (see :meth:`repaint`). Until then the app
            # draws nothing at all: frames nobody receives would still cost their CPU.
            self._dropped = True
            forget_shown(self._app)  # (the app no longer knows what the terminal shows)
            self._hold()
            return
        if not self._terminal.send(data.encode("utf-8", errors="replace")):
            self._dropped = True  # too much waiting for this client already
            forget_shown(self._app)

    @property
    def behind(self) -> bool:
        """True while frames were dropped and the screen has not been drawn again."""
        return self._dropped or self._held

    def _hold(self) -> None:
        if not self._held and self._running:
            self._held = True
            self._app._begin_batch()  # Textual lays out and draws nothing in a batch

    def _release(self) -> None:
        if self._held:
            self._held = False
            self._app._end_batch()

    def repaint(self) -> None:
        """The client caught up: if frames were dropped, draw the whole screen again."""
        self._release()
        if self._dropped and self._running:
            self._dropped = False
            self._app.refresh(repaint=True, layout=True)

    # --- application mode ----------------------------------------------------------------

    def start_application_mode(self) -> None:
        """Set up the client's terminal and announce the initial size."""
        self._running = True
        self.write(_START)
        self.flush()
        width, height = self._terminal.size
        self._post_resize(width, height)
        # Last: what was typed before the app was made follows its first size.
        self._terminal.attach(self)

    def disable_input(self) -> None:
        """Ignore further input."""
        self._running = False
        self._terminal.attach(None)
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    def stop_application_mode(self) -> None:
        """Restore the client's terminal (main screen, cursor, no mouse reporting)."""
        self.disable_input()
        self._release()
        self._buffer.clear()
        self._terminal.send(_STOP.encode())

    # --- input ----------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Parse bytes typed by the client and post the resulting events to the app."""
        if not self._running:
            return
        text = self._decode(data)
        gate = self._terminal.gate
        if text and gate is not None:
            text = gate.filter(text)
        if text:
            for message in self._parser.feed(text):
                self._from_parser(message)
        self._schedule_tick()

    def _from_parser(self, message: messages.Message) -> None:
        if isinstance(message, events.Resize):
            # An in-band size report typed by the client: sizes come only from the SSH
            # window-change path and its clamp, never from input.
            return
        self.process_message(message)

    def discard_input(self) -> None:
        """Input was thrown away: start parsing afresh (a cut paste must not swallow keys)."""
        self._new_parser()
        if self._terminal.gate is not None:
            self._terminal.gate.reset()

    def _schedule_tick(self) -> None:
        # A lone Escape is only emitted once the parser sees nothing follow it in time.
        if self._parser._timeout_time is None or self._tick_handle is not None:
            return
        self._tick_handle = self._loop.call_later(ESCAPE_DELAY + 0.01, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        if not self._running:
            return
        for message in self._parser.tick():
            self._from_parser(message)
        self._schedule_tick()

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size."""
        if self._running:
            self._post_resize(width, height)

    def _post_resize(self, width: int, height: int) -> None:
        # The terminal has clamped the size already; clamp again so that no path can
        # make Textual build frames larger than the terminal allows.
        width, height = self._terminal.clamp_size(width, height)
        self._size = (width, height)
        size = Size(width, height)
        self.send_message(events.Resize(size, size))

    def send_message(self, message: messages.Message) -> None:
        """Post to the app directly: the driver runs on the app's own loop, not a thread."""
        with self._app._context():
            self._app.post_message(message)

    # --- nothing a client does may act on the server's machine ----------------------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Refused: this would open a browser on the server."""
        log.info("refused to open a URL on the server: %.200r", url)

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refused: this would write a file on the server."""
        log.info("refused to write a file on the server: %s", save_path)
        binary.close()
        self._app.post_message(
            events.DeliveryFailed(
                key=delivery_key, exception=PermissionError("not over SSH"), name=name
            )
        )
