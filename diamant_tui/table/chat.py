"""How much a table's chat may still carry: each person's lines, the spectators' together
and the whole table's, in a sliding window (:class:`~diamant_tui.table_info.ChatLimits`).

Every line reaches every screen at the table, so what the table passes on is bounded as
a whole, not only per person; allowances are counted per identity, never per name (a
name can look like another's, and two connections of one person share one allowance).
"""

from __future__ import annotations

import logging
import math
from collections import deque

from ..i18n import Translator
from .info import ChatLimits, ChatRejected

log = logging.getLogger("diamant_tui.table")  # lines about a table, in its log

_ENGLISH = Translator("en")
"""The English text of a refusal, for ``str()`` and the log (each person reads their own)."""


class ChatAllowances:
    """The chat lines said lately at one table, by whom, and what each may still say."""

    def __init__(self, limits: ChatLimits, table_name: str) -> None:
        self.limits = limits
        self._table_name = table_name
        self._by_person: dict[str, deque[float]] = {}
        self._watchers: deque[float] = deque()
        self._everyone: deque[float] = deque()
        self._refused: set[str] = set()

    def check(self, identity: str, watching: bool, now: float) -> list[deque[float]]:
        """The allowances a line of this person counts against, with the times of the
        lines in the window; raises :class:`ChatRejected` (saying when they may speak
        again) when one of them is used up."""
        limits = self.limits
        allowances = [(self._by_person.setdefault(identity, deque()), limits.person,
                       "limit.chat_person")]
        if watching:
            allowances.append((self._watchers, limits.watchers, "limit.chat_watchers"))
        allowances.append((self._everyone, limits.table, "limit.chat_table"))
        for times, most, key in allowances:
            while times and now - times[0] > limits.window:
                times.popleft()
            if len(times) >= most:
                self._refuse(identity, key, most, times[0] + limits.window - now)
        return [times for times, _, _ in allowances]

    def count(self, identity: str, watching: bool, now: float, people: int) -> None:
        """Count a line said now (raises :class:`ChatRejected` instead if it may not be);
        ``people`` at the table bound how many quiet chatters are remembered."""
        for times in self.check(identity, watching, now):
            times.append(now)
        self._refused.discard(identity)
        self._forget_quiet(now, people)

    def _refuse(self, identity: str, key: str, most: int, wait: float) -> None:
        fmt = dict(lines=most, window=f"{self.limits.window:g}", seconds=max(1, math.ceil(wait)))
        if identity not in self._refused:  # one log line per burst, not per key
            self._refused.add(identity)
            log.info("table %s: chat of %s refused (%s, %d lines every %g s)", self._table_name,
                     identity[:60], key.rsplit("_", 1)[-1], most, self.limits.window)
        raise ChatRejected(_ENGLISH(key, **fmt), key, **fmt)

    def _forget_quiet(self, now: float, people: int) -> None:
        """Drop the counts of people who have not chatted for a whole window."""
        if len(self._by_person) > 4 * people + 16:
            for identity, times in list(self._by_person.items()):
                if not times or now - times[-1] > self.limits.window:
                    del self._by_person[identity]
