"""Text from a client, made safe for the server's log.

Anything a client chose (its terminal type, its command, a name) may hold newlines that
would forge log lines, or escape codes that would act on an operator's terminal. It is
logged escaped, as Python's ``repr`` escapes a string, and cut to a bounded length.
"""

from __future__ import annotations

import logging
import time
from typing import Callable, Hashable

ELLIPSIS = "…"


def counted(count: int, noun: str) -> str:
    """``count`` of ``noun`` as a host reads it: ``1 ban``, ``3 bans`` (nouns whose plural
    takes an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def loggable(value: object, limit: int = 200) -> str:
    """``value`` as a log-safe string: control characters (and every other character that
    does not print) escaped, bytes decoded with replacement, at most ``limit`` characters
    with an ellipsis at the end when cut."""
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value[: limit * 4]).decode("utf-8", errors="replace")
    else:
        text = str(value)
    # Cut before escaping too, so that a huge value costs no more than its first part.
    text = text[: limit + 1]
    escaped = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    if len(escaped) > limit:
        return escaped[: max(limit - 1, 0)] + ELLIPSIS
    return escaped


class WarningLimiter:
    """Logs a repeated warning at most once every ``interval`` seconds, with a count of the
    ones left out since (a client can cause the same warning hundreds of times a second)."""

    KEYS_KEPT = 1000
    """Keys remembered before those quiet for an interval are forgotten: a client may
    choose some of them (who asks, for which table)."""

    def __init__(self, logger: logging.Logger, interval: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._logger = logger
        self.interval = interval
        self._clock = clock
        self._last: dict[Hashable, float] = {}
        self._suppressed: dict[Hashable, int] = {}

    def due(self, key: Hashable) -> int | None:
        """Whether a line under ``key`` may be logged now: None when one was lately (this
        one is counted as left out), else how many were left out since the last one;
        ``key`` then counts as logged now."""
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last < self.interval:
            self._suppressed[key] = self._suppressed.get(key, 0) + 1
            return None
        if len(self._last) >= self.KEYS_KEPT:
            for quiet in [k for k, when in self._last.items() if now - when >= self.interval]:
                del self._last[quiet]
                self._suppressed.pop(quiet, None)
        self._last[key] = now
        return self._suppressed.pop(key, 0)

    def warning(self, key: Hashable, message: str, *args: object) -> bool:
        """Log ``message % args`` under ``key`` unless one was logged lately; True if logged."""
        left_out = self.due(key)
        if left_out is None:
            return False
        if left_out:
            message += " (%d more like it not logged)"
            args = (*args, left_out)
        self._logger.warning(message, *args)
        return True
