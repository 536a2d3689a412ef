"""Bans: key fingerprints and addresses kept off the server for a time, or for good.

The bans are read from the database once, at start-up, and kept in memory: checking a
connection never waits on the disk. A ban made or lifted changes the memory at once and
is written through to the database (:meth:`Bans.add` and :meth:`Bans.remove` return the
write, which resolves once it is on disk), so bans survive a restart. A ban whose time is
over is ignored, and forgotten (in memory and in the database) when next come across.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Awaitable, Callable

from diamant_tui.i18n import Translator

from .config import KEY_FINGERPRINT
from .storage import SavedBan, Storage

log = logging.getLogger(__name__)

KEY, ADDRESS = "key", "address"
"""The two kinds of ban: a key fingerprint (``SHA256:...``) or an address."""
DURATIONS: dict[str, timedelta | None] = {
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
    "forever": None,
}
"""How long a ban may last, by name (None: for good), shortest first."""
REASON_MAX = 200
"""Longest reason kept for a ban or a kick: it is shown on one line."""
_ENGLISH = Translator("en")


def normal_address(text: str) -> str:
    """``text`` as one IPv4 or IPv6 address in its usual short form (an IPv4 address
    seen through an IPv6 socket, ``::ffff:192.0.2.7``, is the IPv4 one); a ValueError
    says what is wrong."""
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        raise ValueError(f"{text!r} is not an IP address (such as 192.0.2.7 or "
                         f"2001:db8::7)") from None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(address)


def normal_key(text: str) -> str:
    """A key fingerprint as ``SHA256:...`` (also given as a person's id, ``key:SHA256:...``);
    a ValueError says what is wrong."""
    fingerprint = text.strip().removeprefix("key:")
    if not KEY_FINGERPRINT.fullmatch(fingerprint):
        raise ValueError(f"{text!r} is not a key fingerprint: give it as ssh-keygen -lf "
                         f"shows it, SHA256: then 43 letters, digits, + or /")
    return fingerprint


def _utc(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text.replace("Z", "+00:00"))


def _text(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Ban:
    """A key or an address banned ``until`` a time (None: for good), with the reason the
    banned person is told and the fingerprint of the admin who banned them."""

    kind: str
    value: str
    until: datetime | None
    reason: str
    by: str
    made: datetime

    def over(self, now: datetime) -> bool:
        """Whether the ban's time is over at ``now``."""
        return self.until is not None and now >= self.until

    def until_text(self) -> str | None:
        """When the ban ends, as shown (``2025-03-01 18:45 UTC``); None for good."""
        return None if self.until is None else \
            self.until.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    def message(self, t: Callable[..., str] = _ENGLISH) -> str:
        """The one line a banned person is shown, in the language of ``t``."""
        reason = self.reason or t("admin.no_reason")
        until = self.until_text()
        if until is None:
            return t("admin.banned_forever", reason=reason)
        return t("admin.banned_until", until=until, reason=reason)

    def saved(self) -> SavedBan:
        """The ban as the database keeps it."""
        return SavedBan(self.kind, self.value, None if self.until is None else _text(self.until),
                        self.reason, self.by, _text(self.made))

    @classmethod
    def from_saved(cls, saved: SavedBan) -> "Ban":
        """The ban the database kept as ``saved``."""
        made = _utc(saved.made)
        assert made is not None
        return cls(saved.kind, saved.value, _utc(saved.until), saved.reason, saved.by, made)


class Bans:
    """The bans in force (see the module docstring). Without a database (``storage``
    None) they are kept in memory only."""

    def __init__(self, storage: Storage | None = None, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)) -> None:
        self.storage = storage
        self._clock = clock
        self._bans: dict[tuple[str, str], Ban] = {}

    async def load(self) -> int:
        """Read the bans from the database (at start-up); those over are forgotten.
        Returns how many are in force."""
        if self.storage is None:
            return 0
        now = self._clock()
        self._bans.clear()
        for saved in await self.storage.bans():
            ban = Ban.from_saved(saved)
            if ban.over(now):
                await self.storage.drop_ban(ban.kind, ban.value)
            else:
                self._bans[ban.kind, ban.value] = ban
        return len(self._bans)

    def _in_force(self, kind: str, value: str) -> Ban | None:
        if not self._bans:
            return None  # the usual case, at every connection: nothing to look up
        ban = self._bans.get((kind, value))
        if ban is not None and ban.over(self._clock()):
            self._forget(ban)
            return None
        return ban

    def _forget(self, ban: Ban) -> Awaitable[None] | None:
        del self._bans[ban.kind, ban.value]
        if self.storage is None:
            return None
        write = self.storage.drop_ban(ban.kind, ban.value)
        write.add_done_callback(_log_failure)  # type: ignore[attr-defined]
        return write

    def of_key(self, fingerprint: str) -> Ban | None:
        """The ban in force on a key (``SHA256:...``, or a person's id ``key:SHA256:...``)."""
        return self._in_force(KEY, fingerprint.removeprefix("key:"))

    def of_address(self, address: str) -> Ban | None:
        """The ban in force on an address, if any."""
        try:
            return self._in_force(ADDRESS, normal_address(address))
        except ValueError:
            return None  # not an IP address (a test transport): nothing can ban it

    def in_force(self) -> list[Ban]:
        """Every ban in force, oldest first."""
        now = self._clock()
        for ban in [ban for ban in self._bans.values() if ban.over(now)]:
            self._forget(ban)
        return sorted(self._bans.values(), key=lambda ban: ban.made)

    def make(self, kind: str, value: str, duration: str, reason: str, by: str) -> Ban:
        """A ban of a key or an address for ``duration`` (a name of :data:`DURATIONS`),
        with its value in its usual form; a ValueError says what is wrong."""
        if kind not in (KEY, ADDRESS):
            raise ValueError(f"{kind!r} cannot be banned: only a {KEY} or an {ADDRESS}")
        if duration not in DURATIONS:
            raise ValueError(f"{duration!r} is not a ban's length: {', '.join(DURATIONS)}")
        value = normal_key(value) if kind == KEY else normal_address(value)
        now = self._clock().replace(microsecond=0)
        length = DURATIONS[duration]
        return Ban(kind, value, None if length is None else now + length,
                   " ".join(reason.split())[:REASON_MAX], by, now)

    def add(self, ban: Ban) -> Awaitable[None] | None:
        """Put ``ban`` in force now (over any ban of the same key or address); returns
        its write to the database, if there is one."""
        self._bans[ban.kind, ban.value] = ban
        return None if self.storage is None else self.storage.save_ban(ban.saved())

    def remove(self, kind: str, value: str) -> tuple[Ban | None, Awaitable[None] | None]:
        """Lift the ban on a key or an address: the ban lifted (None if there was none in
        force) and its write to the database."""
        ban = self._bans.get((kind, value))
        if ban is None:
            return None, None
        return ban, self._forget(ban)


def _log_failure(write) -> None:  # type: ignore[no-untyped-def]
    if not write.cancelled() and write.exception() is not None:
        log.error("could not forget a ban in the database: %s", write.exception())
