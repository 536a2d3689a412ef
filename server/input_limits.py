"""What a client may type: input counted in events and thinned before Textual parses it.

A person presses a few keys a second; a client can send thousands of key and mouse reports a
second inside the byte allowance, and Textual handles each as an event (parsing, bindings, a
repaint). :class:`InputGate` sits between the decoded input and Textual's parser and:

- counts key presses, mouse reports and escape sequences against a token bucket (a burst,
  then a steady rate); the excess is dropped here, cheaply, and counted;
- lets a bracketed paste through as one event, its text cut to ``paste_max`` characters
  (the chat line's length) and without escape characters;
- keeps only the last mouse motion report of each chunk of input;
- drops in-band window size reports (``ESC[48;rows;cols;ph;pwt``) and sequences longer than
  any a terminal sends: sizes come only from the SSH window-change path and its clamp.

It does not parse keys: it splits text into the same units Textual's parser will, with one
regular expression, so that the cost of a flood is a scan, not thousands of events.
"""

from __future__ import annotations

import re
import time
from typing import Callable

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
MAX_SEQUENCE = 32
"""Longest escape sequence passed on (Textual's parser gives up at the same length)."""
FLOOD_QUIET = 2.0
"""Seconds without a dropped event after which a flood is over."""

_TOKEN = re.compile(
    r"(?P<text>[^\x1b]+)"
    r"|(?P<csi>\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e])"
    r"|(?P<partial>\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*|O)?\Z)"
    r"|(?P<ss3>\x1bO[^\x1b])"
    r"|(?P<other>\x1b[^\x1b]?)",
    re.S,
)
_MOTION = re.compile(r"\x1b\[<(\d{1,5});\d{1,6};\d{1,6}[Mm]\Z")
_IN_BAND_SIZE = re.compile(r"\x1b\[48;")


class InputGate:
    """Filters one session's decoded input (see module docstring)."""

    def __init__(self, *, rate: float, burst: int, paste_max: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = float(rate)
        self.burst = float(burst)
        self.paste_max = paste_max
        self._clock = clock
        self._tokens = float(burst)
        self._tokens_at = clock()
        self._pending = ""
        self._in_paste = False
        self._paste_left = 0
        self._paste_dropped = False
        self.dropped = 0
        """Events dropped by the last :meth:`filter` call."""
        self.dropped_total = 0
        self.passed = 0
        """Events let through so far (a paste counts as one)."""
        self.ignored = 0
        """Sequences ignored as no terminal would send them (in-band sizes, too long)."""
        self.flood_started: float | None = None
        """When the current flood began (None: no flood)."""
        self._last_drop = 0.0

    # --- the bucket -----------------------------------------------------------------------

    def _take(self, count: int) -> int:
        """Take up to ``count`` events from the bucket; return how many were allowed."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._tokens_at) * self.rate)
        self._tokens_at = now
        allowed = min(count, int(self._tokens))
        self._tokens -= allowed
        self.passed += allowed
        if allowed < count:
            self._drop(count - allowed)
        return allowed

    def _drop(self, count: int) -> None:
        now = self._clock()
        if self.flood_started is None or now - self._last_drop > FLOOD_QUIET:
            self.flood_started = now
        self._last_drop = now
        self.dropped += count
        self.dropped_total += count

    def flood_seconds(self) -> float:
        """How long the current flood has lasted (0 when there is none)."""
        now = self._clock()
        if self.flood_started is None or now - self._last_drop > FLOOD_QUIET:
            self.flood_started = None
            return 0.0
        return now - self.flood_started

    def note_dropped(self, count: int = 1) -> None:
        """Count input dropped elsewhere (e.g. over the byte allowance) as flooding."""
        self._drop(count)

    def reset(self) -> None:
        """Forget a half-read sequence or paste (the parser is starting afresh)."""
        self._pending = ""
        self._in_paste = False

    # --- filtering ------------------------------------------------------------------------

    def filter(self, text: str) -> str:
        """The part of ``text`` that goes on to the parser."""
        self.dropped = 0
        text = self._pending + text
        self._pending = ""
        out: list[str] = []
        motion_at = -1
        pos, end = 0, len(text)
        while pos < end:
            if self._in_paste:
                pos = self._paste(text, pos, out)
                continue
            match = _TOKEN.match(text, pos)
            assert match is not None  # every alternative together matches any character
            kind, token = match.lastgroup, match.group()
            pos = match.end()
            if kind == "text":
                allowed = self._take(len(token))
                if allowed:
                    out.append(token[:allowed])
            elif kind == "partial":
                # Cut by the chunk: complete it with the next input. A lone Escape is a key
                # of its own; the parser's timer turns it into one.
                if token == "\x1b":
                    if self._take(1):
                        out.append(token)
                elif len(token) <= MAX_SEQUENCE:
                    self._pending = token
                else:
                    self.ignored += 1
            elif kind == "csi":
                if len(token) > MAX_SEQUENCE or _IN_BAND_SIZE.match(token):
                    # No terminal sends these unasked; sizes come from SSH. Ignored, they
                    # cost nothing, so they are not counted as a flood.
                    self.ignored += 1
                elif token == PASTE_START:
                    self._in_paste = True
                    self._paste_dropped = not self._take(1)
                    self._paste_left = self.paste_max
                    if not self._paste_dropped:
                        out.append(token)
                elif token == PASTE_END:
                    continue  # no paste was open
                elif (motion := _MOTION.match(token)) and int(motion[1]) & 96 == 32:
                    # Only the last motion of a chunk matters: where the pointer is now.
                    if motion_at >= 0:
                        out[motion_at] = token
                    elif self._take(1):
                        motion_at = len(out)
                        out.append(token)
                elif self._take(1):
                    out.append(token)
            elif self._take(1):  # ss3 (F1-F4, keypad) or Alt with a key
                out.append(token)
        return "".join(out)

    def _paste(self, text: str, pos: int, out: list[str]) -> int:
        """Inside a bracketed paste: pass at most ``paste_max`` characters, then its end."""
        close = text.find(PASTE_END, pos)
        stop = close if close >= 0 else len(text)
        if close < 0:
            # Keep back what may be the start of the closing sequence.
            for size in range(min(len(PASTE_END) - 1, stop - pos), 0, -1):
                if PASTE_END.startswith(text[stop - size:stop]):
                    self._pending = text[stop - size:stop]
                    stop -= size
                    break
        chunk = text[pos:stop]
        if not self._paste_dropped and self._paste_left > 0:
            # Escape characters inside a paste would reach the parser as sequences.
            # (bounded work: a paste can be megabytes long).
            kept = chunk[: self._paste_left * 4].replace("\x1b", "")[: self._paste_left]
            self._paste_left -= len(kept)
            out.append(kept)
        if close < 0:
            return len(text)
        self._in_paste = False
        if not self._paste_dropped:
            out.append(PASTE_END)
        return close + len(PASTE_END)
