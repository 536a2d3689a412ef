"""A seat or a spectator as the server hands it to a screen: the chat of a muted person
refused, chat refusals counted, and chat logged only when the host asks for it.

The table decides what a line may carry and refuses lines over an allowance; the screen
tells the person. The table knows nobody's identity and the server sees no line, so the
member a session's screen talks to is wrapped here: everything passes through to the
table's member unchanged, but a line of someone the host muted (:mod:`.mutes`) is refused
here, before the table sees it (nobody at the table receives it, and it uses up no
allowance), and the server counts refused lines (for its metrics) and, with ``log_chat``
on, logs each line said.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from diamant_tui.table import ChatLine, ChatRejected, Member

from .eventlog import SessionLog
from .identity import Identity
from .logtext import loggable
from .mutes import Mute

ALLOWANCES = {"limit.chat_person": "person", "limit.chat_watchers": "watchers",
              "limit.chat_table": "table"}
"""The allowance a refusal's text key stands for (a metric's label)."""
Muted = Callable[[Identity], "Mute | None"]
"""The mute in force on a person, if any (:meth:`~diamant_server.mutes.Mutes.of`)."""


class MutedChat(ChatRejected):
    """A line refused because its person is muted: they are told until when and why, in
    their language (the reason as the admin wrote it, never markup), and the line stays
    in the box."""

    def __init__(self, mute: Mute) -> None:
        super().__init__(mute.message(), line_kept=True)
        self.mute = mute

    def text(self, t) -> str:
        """The refusal in the language of ``t`` (a translator)."""
        return self.mute.message(t)


class WatchedMember:
    """A table's :class:`~diamant_tui.table.Member`, seen by the server (see module
    docstring); every attribute but the chat intents is the member's own."""

    def __init__(self, member: Member, log: SessionLog, *, log_chat: bool = False,
                 chat_refused: Callable[[str], None] | None = None,
                 identity: Identity | None = None, muted: Muted | None = None) -> None:
        self.member = member
        self._log = log
        self._log_chat = log_chat
        self._chat_refused = chat_refused
        self._identity = identity
        self._muted = muted
        self._mute_logged: Mute | None = None

    def __getattr__(self, name: str):
        return getattr(self.member, name)

    def say(self, text: str) -> ChatLine:
        """The member's :meth:`~diamant_tui.table.Member.say`, watched: refused while
        its person is muted."""
        self._check_mute()
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
        """The member's :meth:`~diamant_tui.table.Member.may_chat`, and a muted person
        told so as the box opens. Its refusals are not counted: the chat box opens all
        the same, and a line is counted once, as it is refused when sent (:meth:`say`)."""
        self._check_mute(logged=False)
        self.member.may_chat()

    def _check_mute(self, *, logged: bool = True) -> None:
        """Raise :class:`MutedChat` (the line kept in the box) if this person is
        muted now: checked at every line, so a mute made or lifted while they sit at
        the table counts from their next line."""
        if self._muted is None or self._identity is None:
            return
        mute = self._muted(self._identity)
        if mute is None:
            return
        if logged and mute != self._mute_logged:
            # Once for each mute, not for every line: a muted person typing on
            # would fill the log.
            self._mute_logged = mute
            self._log.info("chat at table %r refused: muted (%s %s)", self.member.table.name,
                           mute.kind, mute.value,
                           extra={"event": "refused", "reason": "muted",
                                  "table": self.member.table.name})
        raise MutedChat(mute)

    def _refused(self, refusal: ChatRejected) -> None:
        allowance = ALLOWANCES.get(refusal.key or "")
        if allowance is not None and self._chat_refused is not None:
            self._chat_refused(allowance)


@dataclass(frozen=True)
class ChatWatch:
    """What the server does with the chat it sees: ``log_chat`` (the host's setting),
    ``refused``, told the allowance of every refused line, and ``muted``, which says
    whether a person is muted (and refuses their lines)."""

    log_chat: bool = False
    refused: Callable[[str], None] | None = None
    muted: Muted | None = None

    def wrap(self, member: Member, log: SessionLog,
             identity: Identity | None = None) -> WatchedMember:
        """``member`` as the screen of ``identity``'s session gets it."""
        return WatchedMember(member, log, log_chat=self.log_chat, chat_refused=self.refused,
                             identity=identity, muted=self.muted)
