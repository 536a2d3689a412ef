"""A small SSH client for the server tests: it sees the screen as a terminal would.

Each :class:`Player` is a real asyncssh client with a pty. Everything the server sends is
fed to a pyte terminal emulator, so a test reads the screen as text, sends keys, and
waits (with a generous overall timeout, never a timing assertion) for text to appear.
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from typing import Callable

import asyncssh
import pyte
from wcwidth import wcwidth  # pyte's own measure of a character's cells

WAIT = 30.0
"""Seconds a test waits for something to appear before it fails (the machine is shared)."""

KEYS = {
    "enter": b"\r",
    "escape": b"\x1b",
    "tab": b"\t",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "backspace": b"\x7f",
    "f1": b"\x1bOP",
}



class TerminalScreen(pyte.Screen):
    """pyte's screen, drawing what terminals draw where pyte 0.8 does not:

    - zero-width characters that combine with nothing (such as U+E0129, a variation
      selector) are skipped: pyte stops drawing the rest of the text at one;
    - a combining mark after a wide character (two cells) goes with that character:
      pyte puts it in the character's second cell, which its ``display`` leaves out, so
      the mark vanished from the screen's text (U+A92B after U+7F21 in a table's name).
    """

    @staticmethod
    def visible(text: str) -> str:
        """``text`` without the characters a terminal shows as nothing at all."""
        if text.isascii():
            return text
        return "".join(ch for ch in text if wcwidth(ch) != 0 or unicodedata.combining(ch))

    def draw(self, data: str) -> None:
        data = self.visible(data)
        if data.isascii():
            super().draw(data)
            return
        start = 0
        for index, char in enumerate(data):
            if wcwidth(char) == 0 and unicodedata.combining(char):
                super().draw(data[start:index])
                start = index + 1
                if not self._combined_with_wide(char):
                    super().draw(char)
        super().draw(data[start:])

    def _combined_with_wide(self, mark: str) -> bool:
        """Put ``mark`` with the wide character just before the cursor (whose second
        cell is the one before it); False if that is not a wide character."""
        line, x = self.buffer[self.cursor.y], self.cursor.x
        if x < 2 or line[x - 1].data != "" or wcwidth(line[x - 2].data[:1] or " ") != 2:
            return False
        wide = line[x - 2]
        line[x - 2] = wide._replace(data=unicodedata.normalize("NFC", wide.data + mark))
        return True


class _Client(asyncssh.SSHClientSession):
    """Feeds every byte received to the player's terminal emulator."""

    def __init__(self, player: "Player") -> None:
        self._player = player

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._player._received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._player.closed.set()


class Player:
    """One person at a terminal, connected over SSH (see module docstring)."""

    def __init__(self, name: str, size: tuple[int, int] = (80, 24)) -> None:
        self.name = name
        self.size = size
        self.screen = TerminalScreen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        """Every byte the server sent to this player."""
        self.closed = asyncio.Event()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self._changed = asyncio.Event()

    def _received(self, data: bytes) -> None:
        self.raw += data
        self.stream.feed(data)
        self._changed.set()

    async def connect(
        self,
        port: int,
        *,
        key: asyncssh.SSHKey | None = None,
        command: str | None = None,
        pty: bool = True,
        term_type: str = "xterm-256color",
        env: dict[str, str] | None = None,
        window: int | None = None,
        ssh_options: dict | None = None,
    ) -> "Player":
        """Log in (with ``key``, or as a guest) and open a session (``ssh_options``: more
        of asyncssh's connection options, such as the ciphers offered)."""
        self.conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username=self.name,
            client_keys=[key] if key is not None else None,
            known_hosts=None,
            agent_path=None,
            preferred_auth="publickey" if key is not None else "keyboard-interactive",
            # asyncssh's client only tries keyboard-interactive when it has a password;
            # the server asks no question of a guest, so it is never sent.
            password=None if key is not None else "unused",
            ignore_encrypted=True,
            **(ssh_options or {}),
        )
        options: dict = {"encoding": None, "env": env or {}}
        if window is not None:
            options["window"] = window  # a small SSH window: the server must wait sooner
        if pty:
            options.update(term_type=term_type, term_size=self.size)
        self.chan, _ = await self.conn.create_session(lambda: _Client(self), command, **options)
        return self

    # --- reading the screen -----------------------------------------------------------

    @property
    def text(self) -> str:
        """The screen as lines of text."""
        return "\n".join(self.screen.display)

    @property
    def cells(self) -> list[list[pyte.screens.Char]]:
        """The screen cell by cell: each character with its colours and attributes."""
        width, height = self.screen.columns, self.screen.lines
        return [[self.screen.buffer[y][x] for x in range(width)] for y in range(height)]

    async def wait_for(self, pattern: str | Callable[[str], bool], timeout: float = WAIT) -> str:
        """Wait until the screen shows ``pattern`` (a regex, or a test on the text)."""
        test = pattern if callable(pattern) else (lambda text: re.search(pattern, text) is not None)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not test(self.text):
            if self.closed.is_set():
                raise AssertionError(f"{self.name}: closed while waiting for {pattern!r}:\n{self.text}")
            remaining = end - loop.time()
            if remaining <= 0:
                raise AssertionError(f"{self.name}: no {pattern!r} on screen:\n{self.text}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.5))
            except TimeoutError:
                pass
        return self.text

    async def press_until(self, key: str, pattern: str | Callable[[str], bool],
                          timeout: float = WAIT) -> str:
        """Press ``key`` until the screen shows ``pattern``: after a flood, the server
        ignores keys until the session's allowance has filled again."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            self.press(key)
            try:
                return await self.wait_for(pattern, timeout=min(1.0, end - loop.time()))
            except AssertionError:
                if loop.time() >= end or self.closed.is_set():
                    raise

    async def wait_closed(self, timeout: float = WAIT) -> None:
        """Wait until the server has closed the session."""
        await asyncio.wait_for(self.closed.wait(), timeout)

    # --- typing ---------------------------------------------------------------------------

    def press(self, *keys: str) -> None:
        """Press keys by name (``enter``, ``escape``, ``down``...) or as characters."""
        assert self.chan is not None
        for key in keys:
            self.chan.write(KEYS.get(key, key.encode()))

    def type(self, text: str) -> None:
        """Type text as it is."""
        self.send(text.encode())

    def send(self, data: bytes) -> None:
        """Send raw bytes, as a terminal would for keys or a paste."""
        assert self.chan is not None
        self.chan.write(data)

    def resize(self, width: int, height: int) -> None:
        """Change the window size, as dragging a terminal window would."""
        assert self.chan is not None
        self.size = (width, height)
        self.screen.resize(height, width)
        self.chan.change_terminal_size(width, height)

    async def close(self) -> None:
        """Drop the connection."""
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()

    async def cut(self) -> None:
        """Cut the connection with no goodbye, as a client killed or a network gone."""
        if self.conn is not None:
            self.conn.abort()
            await self.conn.wait_closed()
