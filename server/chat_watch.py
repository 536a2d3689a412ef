"""A seat or a spectator as the server hands it to a screen: chat refusals counted, and
chat logged only when the host asks for it.

The table decides what a line may carry and refuses lines over an allowance; the screen
tells the person. The server sees neither, so the member a session's screen talks to is
wrapped here: everything passes through to the table's member unchanged, and the server
counts refused lines (for its metrics) and, with ``log_chat`` on, logs each line said.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from diamant_tui.table import ChatLine, ChatRejected, Member

from .eventlog import SessionLog
from .logtext import loggable

ALLOWANCES = {"limit.chat_person": "person", "limit.chat_watchers": "watchers",
              "limit.chat_table": "table"}
"""The allowance a refusal's text key stands for (a metric's label)."""


class WatchedMember:
    """A table's :class:`~diamant_tui.table.Member`, seen by the server (see module
    docstring); every attribute but the chat intents is the member's own."""

    def __init__(self, member: Member, log: SessionLog, *, log_chat: bool = False,
                 chat_refused: Callable[[str], None] | None = None) -> None:
        self.member = member
        self._log = log
        self._log_chat = log_chat
        self._chat_refused = chat_refused

    def __getattr__(self, name: str):
        return getattr(self.member, name)

    def say(self, text: str) -> ChatLine:
        """The member's :meth:`~diamant_tui.table.Member.say`, watched."""
        try:
            line = self.member.say(text)
        except ChatRejected as refusal:
            self._refused(refusal)
            raise
        if self._log_chat:
            self._log.info("chat at table %r: %s: %s", self.member.table.name,
                           loggable(line.author, 40), loggable(line.text, 220),
                           extra={"event": "chat", "table": self.member.table.name})
        return line

    def may_chat(self) -> None:
        """The member's :meth:`~diamant_tui.table.Member.may_chat`. Its refusals are not
        counted: the chat box opens all the same, and a line is counted once, as it is
        refused when sent (:meth:`say`)."""
        self.member.may_chat()

    def _refused(self, refusal: ChatRejected) -> None:
        allowance = ALLOWANCES.get(refusal.key or "")
        if allowance is not None and self._chat_refused is not None:
            self._chat_refused(allowance)


@dataclass(frozen=True)
class ChatWatch:
    """What the server does with the chat it sees: ``log_chat`` (the host's setting) and
    ``refused``, told the allowance of every refused line."""

    log_chat: bool = False
    refused: Callable[[str], None] | None = None

    def wrap(self, member: Member, log: SessionLog) -> WatchedMember:
        """``member`` as a session's screen gets it."""
        return WatchedMember(member, log, log_chat=self.log_chat, chat_refused=self.refused)
