"""A table's chat: the lines it keeps (:class:`Chat`), and how much it may still carry
(:class:`ChatAllowances`): each person's lines, the spectators' together and the whole
table's, in a sliding window (:class:`~diamant_tui.table.info.ChatLimits`).

Every line reaches every screen at the table, so what the table passes on is bounded as
a whole, not only per person; allowances are counted per identity, never per name (a
name can look like another's, and two connections of one person share one allowance).
When the lines go out is the updates' business (:mod:`~diamant_tui.table.updates`).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from typing import Iterator

from ..i18n import Translator
from ..names import clean_text
from .info import ChatLimits, ChatLine, ChatRejected

log = logging.getLogger("diamant_tui.table")  # lines about a table, in its log

CHAT_MAX_CHARS = 200
"""The longest chat line, in characters (longer ones are cut)."""
CHAT_BURST = ChatLimits.person
CHAT_WINDOW = ChatLimits.window
CHAT_KEPT = 50
"""Chat lines a table keeps, and sends to whoever comes to it."""

_ENGLISH = Translator("en")
"""The English text of a refusal, for ``str()`` and the log (each person reads their own)."""


class Chat:
    """The last lines said at one table (iterating gives them, oldest first), and the
    allowances each new line counts against."""

    def __init__(self, limits: ChatLimits, table_name: str) -> None:
        self._lines: deque[ChatLine] = deque(maxlen=CHAT_KEPT)
        self._said_by: deque[str] = deque(maxlen=CHAT_KEPT)
        """The identity that said each line kept, in the same order."""
        self._allowances = ChatAllowances(limits, table_name)

    def __iter__(self) -> Iterator[ChatLine]:
        return iter(self._lines)

    def authors_besides(self, identity: str) -> set[str]:
        """The names lines kept here were said under by others than ``identity``."""
        return {line.author for line, said_by in zip(self._lines, self._said_by)
                if said_by != identity}

    def say(self, identity: str, name: str, watching: bool, text: str, people: int) -> ChatLine:
        """Keep a line said now under ``name``: at most 200 characters, no control
        characters, within the allowances (``people`` are at the table); raises
        :class:`ChatRejected` saying why not."""
        line = clean_text(text, CHAT_MAX_CHARS)
        if not line:
            raise ChatRejected(_ENGLISH("chat.empty"), "chat.empty")
        now = asyncio.get_running_loop().time()
        self._allowances.count(identity, watching, now, people)
        chat = ChatLine(name, line, watching=watching)
        self._lines.append(chat)
        self._said_by.append(identity)
        return chat

    def may_chat(self, identity: str, watching: bool) -> None:
        """Raise :class:`ChatRejected` (saying when to try again) if a line of this
        person would be refused now for its allowance."""
        self._allowances.check(identity, watching, asyncio.get_running_loop().time())


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
        # count: the texts say "1 line" or "N lines" (see diamant_tui.i18n).
        fmt = dict(lines=most, count=most, window=f"{self.limits.window:g}",
                   seconds=max(1, math.ceil(wait)))
        if identity not in self._refused:  # one log line per burst, not per key
            self._refused.add(identity)
            log.info("table %s: chat of %s refused (%s, %d lines every %g s)", self._table_name,
                     identity[:60], key.rsplit("_", 1)[-1], most, self.limits.window)
        raise ChatRejected(_ENGLISH(key, **fmt), key, line_kept=True, **fmt)

    def _forget_quiet(self, now: float, people: int) -> None:
        """Drop the counts of people who have not chatted for a whole window."""
        if len(self._by_person) > 4 * people + 16:
            for identity, times in list(self._by_person.items()):
                if not times or now - times[-1] > self.limits.window:
                    del self._by_person[identity]
