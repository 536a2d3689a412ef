"""One simulated person of the load generator: a real SSH client reading a terminal screen.

A :class:`Person` logs in with a key of its own, opens a pty of 80x24 with
``play TABLE --seats 5`` and feeds every byte it receives to a pyte terminal emulator
(or, with ``light``, to :class:`~light_screen.LightScreen`, which keeps only the
characters: pyte took as much CPU as the server at 100 seats).
It plays like a person: when its screen says "Your turn" it waits a random think time and
presses ``c`` (continue) or ``l`` (leave, once the round has reached the card it chose to
stop at); at the final scores it waits again and presses ``r`` for a rematch, until it has
played the games it was asked for.

It also measures, on the monotonic clock the server's process reads too:

- when it connected, when SSH's key exchange and login were done, when its session was
  open, and when its screen first showed the table (the join, and its parts);
- when its screen first showed each card of the round bar's "Round R/5 · card N" (compared
  with the server's reveal times afterwards);
- the bytes and the SSH data messages (one per frame the server flushes, unless a frame is
  larger than a packet) it received.
"""

from __future__ import annotations

import asyncio
import random
import re
import time

import diamant_server  # noqa: F401  (first: it silences asyncssh's DSA warnings)
import asyncssh
import pyte

from light_screen import LightScreen

SIZE = (80, 24)
TURN = re.compile(r"Round (\d+)/\d+ · card (\d+)")
"""The round bar on the top line of the table screen."""
SUMMARY = re.compile(r"Round (\d+) of \d+ is over")
"""The round summary's title: a card that ends a round shows with it, over the bar."""
CARDS = re.compile(r"Cards revealed: (\d+)")
YOUR_TURN = "Your turn"
FINAL = "Final scores"


class Person(asyncssh.SSHClientSession):
    """One person at a terminal (see module docstring)."""

    def __init__(self, name: str, table: str, command: str, *, key: asyncssh.SSHKey,
                 rng: random.Random, think: tuple[float, float], games: int,
                 light: bool = False, cipher: str | None = None) -> None:
        self.name = name
        self.table = table
        self.command = command
        self.key = key
        self.rng = rng
        self.think = think
        self.games = games
        self.ssh_options = {"encryption_algs": [cipher]} if cipher else {}
        """More of asyncssh's connection options (the one cipher offered, if given)."""
        if light:
            self.screen = self.stream = LightScreen(*SIZE)
        else:
            self.screen = pyte.Screen(*SIZE)
            self.stream = pyte.ByteStream(self.screen)
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.received_bytes = 0
        self.received_chunks = 0
        self.connect_at: float | None = None
        self.logged_in_at: float | None = None
        """When SSH's key exchange and the login were done."""
        self.opened_at: float | None = None
        """When the session (its pty and command) was open."""
        self.joined_at: float | None = None
        self.seen: dict[tuple[int, int, int], float] = {}
        """(game index, round, card) -> when the screen first showed it."""
        self.finals = 0
        """Final scores seen so far: the index of the game being played."""
        self.in_final = False
        self.turn: tuple[int, int] | None = None
        self.keys_pressed = 0
        self.done = False
        self.error: str | None = None
        self.closed = asyncio.Event()
        self.joined = asyncio.Event()
        self._changed = asyncio.Event()
        self._leave_at: dict[tuple[int, int], int] = {}

    # --- the SSH session ------------------------------------------------------------------

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        now = time.monotonic()
        self.received_bytes += len(data)
        self.received_chunks += 1
        self.stream.feed(data)
        found = TURN.search(self._line(0))
        turn = (int(found[1]), int(found[2])) if found is not None else None
        if turn is not None:
            if turn != self.turn:
                self.in_final = False
                self.turn = turn
                self.seen.setdefault((self.finals, *turn), now)
                self._join(now)
            # The game may have ended, with this card or after it (the final scores stand
            # under the round's bar).
            if not self.in_final and self.joined.is_set() and FINAL in self.text:
                self.in_final = True
                self.finals += 1
        elif not self.in_final or not self.joined.is_set():
            text = self.text
            ended = SUMMARY.search(text) if self.joined.is_set() else None
            cards = CARDS.search(text) if ended is not None else None
            if cards is not None:
                # The card that ended the round came with its summary, which hides the
                # table's bar: it was on screen when the summary was.
                turn = (int(ended[1]), int(cards[1]))
                if turn != self.turn:
                    self.turn = turn
                    self.seen.setdefault((self.finals, *turn), now)
            elif FINAL in text and self.joined.is_set():
                self.in_final = True
                self.finals += 1
            elif f"Table {self.table}" in text:
                self._join(now)
        self._changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self._changed.set()

    def _join(self, now: float) -> None:
        if self.joined_at is None:
            self.joined_at = now
            self.joined.set()

    def _line(self, y: int) -> str:
        if isinstance(self.screen, LightScreen):
            return self.screen.line(y)
        line = self.screen.buffer[y]
        return "".join(line[x].data for x in range(self.screen.columns))

    @property
    def text(self) -> str:
        """The whole screen as lines of text."""
        return "\n".join(self.screen.display)

    # --- connecting and playing -----------------------------------------------------------

    async def connect(self, port: int, timeout: float) -> None:
        """Log in, open the session and wait for the table's screen (the join)."""
        self.connect_at = time.monotonic()
        self.conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username=self.name, client_keys=[self.key], known_hosts=None,
            agent_path=None, preferred_auth="publickey", ignore_encrypted=True,
            keepalive_interval=0, **self.ssh_options), timeout)
        self.logged_in_at = time.monotonic()
        self.chan, _ = await asyncio.wait_for(self.conn.create_session(
            lambda: self, self.command, encoding=None, term_type="xterm-256color",
            term_size=SIZE), timeout)
        self.opened_at = time.monotonic()
        remaining = max(0.1, timeout - (time.monotonic() - self.connect_at))
        waiting = asyncio.ensure_future(self.joined.wait())
        lost = asyncio.ensure_future(self.closed.wait())
        await asyncio.wait({waiting, lost}, timeout=remaining,
                           return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        lost.cancel()
        if not self.joined.is_set():
            why = "the session closed" if self.closed.is_set() else f"nothing in {timeout:g} s"
            raise RuntimeError(f"{self.name}: no table screen ({why}):\n{self.text}")

    async def play(self, stop: asyncio.Event) -> None:
        """Answer every decision and vote for rematches until done or told to stop."""
        answered: tuple[int, int, int] | None = None
        voted = -1
        while not stop.is_set() and not self.closed.is_set():
            if self.in_final:
                if self.finals >= self.games:
                    self.done = True
                    return
                if voted != self.finals:
                    voted = self.finals
                    if await self._think(stop) and self.in_final:
                        self._press("r")
                    continue
            elif self.turn is not None and YOUR_TURN in self.text:
                turn = (self.finals, *self.turn)
                if turn != answered:
                    answered = turn
                    if await self._think(stop) and YOUR_TURN in self.text:
                        self._press("l" if self._leaving(turn) else "c")
                    continue
            self._changed.clear()
            await _first(self._changed.wait(), stop.wait())
        if self.closed.is_set() and not stop.is_set():
            self.error = f"{self.name}: the server closed the session during play"

    def _leaving(self, turn: tuple[int, int, int]) -> bool:
        # Each round, a person makes up their mind how deep they are willing to go.
        game, round_, card = turn
        stop_at = self._leave_at.setdefault((game, round_), self.rng.randint(2, 9))
        return card >= stop_at

    async def _think(self, stop: asyncio.Event) -> bool:
        """Wait a think time; False if told to stop meanwhile."""
        try:
            await asyncio.wait_for(stop.wait(), self.rng.uniform(*self.think))
        except TimeoutError:
            return not self.closed.is_set()
        return False

    def _press(self, key: str) -> None:
        if self.chan is not None and not self.closed.is_set():
            self.keys_pressed += 1
            self.chan.write(key.encode())

    async def close(self, timeout: float) -> None:
        """Drop the connection (if the server has not already closed it)."""
        if self.conn is None:
            return
        self.conn.close()
        try:
            await asyncio.wait_for(self.conn.wait_closed(), timeout)
        except (TimeoutError, asyncssh.Error, OSError):
            pass


async def _first(*waits) -> None:
    """Wait until the first of ``waits`` is done; cancel the others."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


# --- abusive clients and the fresh-join probe (``load.py --attack N``) -------------------------

ATTACKS = ("keys", "resize", "stall")
"""The kinds of abusive client, in the order ``--attack N`` mixes them."""
FLOOD_CHUNK = (b"\x1b[B\x1b[A" * 40 + b"\x1b[<35;10;5M\x1b[<35;11;6M" * 20 + b"jk" * 60)
"""About 1 KB of arrow keys, mouse motion and letters; sent 30 times a second."""
IN_BAND_BOMB = b"\x1b[48;100000;100000;0;0t"
"""An in-band window size report typed as input: 100000 x 100000 cells."""


class _Quiet(asyncssh.SSHClientSession):
    """A session that only notes when it has been closed (and how much came)."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()
        self.received = bytearray()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if len(self.received) < 1_000_000:
            self.received += data

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


class Attacker:
    """A rude client that attacks until told to stop, connecting again whenever the server
    closes it: ``keys`` floods keys and mouse reports (about 30 KB/s, under the byte
    allowance); ``resize`` types in-band size reports and asks for huge windows (changing
size twice a second); ``stall``
    watches a table with a 1000x1000 terminal and a 1 GiB SSH window, and never reads."""

    def __init__(self, name: str, kind: str, watch: str) -> None:
        self.name = name
        self.kind = kind
        self.watch = watch
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        self.connections = 0
        self.closed_by_server = 0
        self.errors: list[str] = []

    async def run(self, port: int, stop: asyncio.Event) -> None:
        """Attack until ``stop`` is set."""
        while not stop.is_set():
            try:
                await self._once(port, stop)
            except (OSError, asyncssh.Error, TimeoutError) as exc:
                self.errors.append(f"{self.name}: {type(exc).__name__}: {exc}"[:200])
                await asyncio.sleep(1.0)

    async def _once(self, port: int, stop: asyncio.Event) -> None:
        stall = self.kind == "stall"
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username=self.name, client_keys=[self.key], known_hosts=None,
            agent_path=None, preferred_auth="publickey", ignore_encrypted=True,
            keepalive_interval=0), 30)
        self.connections += 1
        try:
            size = (1000, 1000) if stall else SIZE
            chan, session = await asyncio.wait_for(conn.create_session(
                _Quiet, f"watch {self.watch}" if stall else None, encoding=None,
                term_type="xterm-256color", term_size=size,
                window=(1 << 30) if stall else 2 * 1024 * 1024), 30)
            await asyncio.sleep(1.0)  # let the app come up before the attack
            if stall:
                conn._transport.pause_reading()  # never read the socket again
            step = 0
            while not stop.is_set() and not session.closed.is_set():
                step += 1
                if self.kind == "keys":
                    chan.write(FLOOD_CHUNK)
                    await asyncio.sleep(1 / 30)
                elif self.kind == "resize":
                    chan.write(IN_BAND_BOMB)
                    # Huge, then a little smaller: a new size each time, drawn in full.
                    chan.change_terminal_size(*((100_000, 100_000) if step % 2 else (499, 200)))
                    await asyncio.sleep(0.5)
                else:  # each window change makes the server draw the whole screen again
                    chan.change_terminal_size(480 + 20 * (step % 2), 1000)
                    await asyncio.sleep(0.2)
            if session.closed.is_set() and not stop.is_set():
                self.closed_by_server += 1
        finally:
            conn.abort()


async def fresh_join(port: int, name: str, timeout: float = 60.0) -> float:
    """Seconds a new person takes from connecting to seeing the lobby."""
    began = time.monotonic()
    screen = pyte.Screen(*SIZE)
    stream = pyte.ByteStream(screen)
    shown = asyncio.Event()

    class Lobby(asyncssh.SSHClientSession):
        def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
            stream.feed(data)
            if "the lobby" in screen.display[0]:
                shown.set()

    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=name,
        client_keys=[asyncssh.generate_private_key("ssh-ed25519")], known_hosts=None,
        agent_path=None, preferred_auth="publickey", ignore_encrypted=True,
        keepalive_interval=0), timeout)
    try:
        await conn.create_session(Lobby, encoding=None, term_type="xterm-256color",
                                  term_size=SIZE)
        await asyncio.wait_for(shown.wait(), timeout)
        return time.monotonic() - began
    finally:
        conn.abort()
