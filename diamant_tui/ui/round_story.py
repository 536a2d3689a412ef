"""The round's story as the feed under the path tells it: the round's lines, and the
chat said meanwhile among them, in the order they came.

Chat lines are read there, in the cave's free rows, rather than in toasts: a toast stood
over the player list (who has decided, the chests) for its seconds, and each one cost a
layout of the whole screen coming and another going. The feed redraws its own rows
only. The log keeps every line; the feed the round's newest that fit.
"""

from __future__ import annotations

import time
from collections.abc import Container

KEPT_LINES = 40
"""Lines of the current round kept for the feed (chat lines kept as many again)."""
CHAT_CARRIED = 10.0
"""Seconds a chat line stays in the feed when a new round (or a rematch) begins: a line
said just before, while the round's summary stood over the table, is still to be read."""


class RoundStory:
    """The round's lines and the chat lines said among them (:meth:`feed` merges them)."""

    def __init__(self, hidden: Container[str] = ()) -> None:
        self.lines: list[str] = []
        """The round's lines (what happened), oldest first."""
        self._chat: list[tuple[int, str, float, str | None]] = []
        """Chat lines: how many of the round's lines came before each, its words, when,
        who said it (None for the host's own lines)."""
        self.hidden = hidden
        """The authors whose lines this person has hidden (``/ignore``): kept, but left
        out of what is shown, so that showing them again brings their lines back."""

    def begin(self, lines: list[str] | None = None) -> None:
        """A new round (or a game joined under way, told by ``lines``): its lines alone,
        but for chat said a moment ago, which stays at the story's start."""
        self.lines = list(lines or ())
        now = time.monotonic()
        self._chat = [(0, text, when, author) for _, text, when, author in self._chat
                      if now - when < CHAT_CARRIED]

    def add(self, lines: list[str]) -> None:
        """The round's next lines; the oldest go past :data:`KEPT_LINES`."""
        lines = self.lines + lines
        dropped = max(0, len(lines) - KEPT_LINES)
        self.lines = lines[dropped:]
        if dropped:
            self._chat = [(max(0, at - dropped), *said) for at, *said in self._chat]

    def say(self, text: str, author: str | None = None) -> None:
        """A chat line (said by ``author``), after the round's lines so far."""
        said = (len(self.lines), text, time.monotonic(), author)
        self._chat = (self._chat + [said])[-KEPT_LINES:]

    def _shown_chat(self) -> list[tuple[int, str]]:
        """The chat lines kept whose authors are not hidden: where each goes, its words."""
        hidden = self.hidden
        return [(at, text) for at, text, _, author in self._chat
                if author is None or author not in hidden]

    def chat(self, latest: int) -> tuple[str, ...]:
        """The ``latest`` newest chat lines shown, oldest first: what the waiting seats
        and the final scores show, where the feed is not on screen."""
        return tuple(text for _, text in self._shown_chat()[-latest:]) if latest > 0 else ()

    def feed(self, latest: int) -> tuple[str, ...]:
        """The feed: the round's lines but its ``latest`` (the banner holds those), with
        the chat lines where they were said; those said after the banner's lines last."""
        kept = max(0, len(self.lines) - latest)
        feed: list[str] = []
        told = 0
        for at, text in self._shown_chat():
            at = min(at, kept)
            feed += self.lines[told:at]
            told = max(told, at)
            feed.append(text)
        feed += self.lines[told:kept]
        return tuple(feed)
