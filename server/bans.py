"""Bans: key fingerprints and addresses kept off the server for a time, or for good.

The bans are read from the database once, at start-up, and kept in memory: checking a
connection never waits on the disk. A ban made or lifted changes the memory at once and
is written through to the database (:meth:`Bans.add` and :meth:`Bans.remove` return the
write, which resolves once it is on disk), so bans survive a restart. A ban whose time is
over is ignored, and forgotten (in memory and in the database) when next come across.
A register told of their ends (``on_over``, as mutes are) keeps one timer for each in
force until a time: it is forgotten at its end, and ``on_over`` called, at once.

Mutes (:mod:`.mutes`) are kept the same way: :class:`Register` is what both share.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Awaitable, Callable, Generic, Self, TypeVar

from diamant_tui.i18n import Translator

from .config import KEY_FINGERPRINT
from .storage import SavedSanction, Storage

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
class Sanction:
    """What an admin put on a key or an address (a ban, a mute) ``until`` a time (None:
    for good), with the reason its person is told and the fingerprint of the admin who
    put it there."""

    kind: str
    value: str
    until: datetime | None
    reason: str
    by: str
    made: datetime

    TEXT = ""
    """The start of the keys of :meth:`message`'s two texts (``admin.banned``: until a
    time, ``admin.banned_until``; for good, ``admin.banned_forever``)."""

    def over(self, now: datetime) -> bool:
        """Whether its time is over at ``now``."""
        return self.until is not None and now >= self.until

    def until_text(self) -> str | None:
        """When it ends, as shown (``2025-03-01 18:45 UTC``); None for good."""
        return None if self.until is None else \
            self.until.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    def saved(self) -> SavedSanction:
        """As the database keeps it."""
        until = None if self.until is None else _text(self.until)
        return SavedSanction(self.kind, self.value, until, self.reason, self.by,
                             _text(self.made))

    @classmethod
    def from_saved(cls, saved: SavedSanction) -> Self:
        """What the database kept as ``saved``."""
        made = _utc(saved.made)
        assert made is not None
        return cls(saved.kind, saved.value, _utc(saved.until), saved.reason, saved.by, made)

    def message(self, t: Callable[..., str] = _ENGLISH) -> str:
        """The one line its person is shown, in the language of ``t``."""
        reason = self.reason or t("admin.no_reason")
        until = self.until_text()
        if until is None:
            return t(f"{self.TEXT}_forever", reason=reason)
        return t(f"{self.TEXT}_until", until=until, reason=reason)


@dataclass(frozen=True)
class Ban(Sanction):
    """A key or an address banned: refused at the door until its time is over."""

    TEXT = "admin.banned"


S = TypeVar("S", bound=Sanction)


class Register(Generic[S]):
    """The sanctions of one sort in force (a ban, a mute), at most one for each key or
    address (see the module docstring). Without a database (``storage`` None) they are
    kept in memory only. Each sort says what it keeps and how (the methods after
    :meth:`remove`)."""

    NOUN = ""
    """What one of them is called in the log and in errors (``ban``)."""
    DONE = ""
    """What is done to a key or an address (``banned``), in errors."""
    KINDS: tuple[str, ...] = ()
    KINDS_TEXT = ""
    """:data:`KINDS`, as an error names them (``a key or an address``)."""

    def __init__(self, storage: Storage | None = None, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
                 on_over: Callable[[S], None] | None = None) -> None:
        self.storage = storage
        self._clock = clock
        self.on_over = on_over
        """Called with each one whose time runs out, as it does (from its timer), or as it
        is first come across over; never with one lifted or replaced. With it set, one
        in force until a time has a timer on the running loop."""
        self._kept: dict[tuple[str, str], S] = {}
        self._timers: dict[tuple[str, str], asyncio.TimerHandle] = {}

    async def load(self) -> int:
        """Read them from the database (at start-up); those over are forgotten. Returns
        how many are in force."""
        if self.storage is None:
            return 0
        now = self._clock()
        self.stop_timers()
        self._kept.clear()
        for entry in await self._read_saved(self.storage):
            if entry.over(now):
                await self._drop(self.storage, entry.kind, entry.value)
            else:
                self._keep(entry)
        return len(self._kept)

    def _in_force(self, kind: str, value: str) -> S | None:
        if not self._kept:
            return None  # the usual case, at every connection: nothing to look up
        entry = self._kept.get((kind, value))
        if entry is not None and entry.over(self._clock()):
            self._ran_out(entry)
            return None
        return entry

    def _forget(self, entry: S) -> Awaitable[None] | None:
        del self._kept[entry.kind, entry.value]
        timer = self._timers.pop((entry.kind, entry.value), None)
        if timer is not None:
            timer.cancel()
        if self.storage is None:
            return None
        write = self._drop(self.storage, entry.kind, entry.value)
        write.add_done_callback(functools.partial(_log_failure, self.NOUN))  # type: ignore[attr-defined]
        return write

    def _ran_out(self, entry: S) -> None:
        """Forget ``entry``, whose time is over, and say so (:attr:`on_over`)."""
        self._forget(entry)
        if self.on_over is not None:
            self.on_over(entry)

    def _keep(self, entry: S) -> None:
        """Put ``entry`` in force, in place of any on its key or address (and that one's
        timer), with a timer for its end if its end is told."""
        key = entry.kind, entry.value
        self._kept[key] = entry
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        if self.on_over is not None and entry.until is not None:
            self._timers[key] = self._timer_for(entry)

    def _timer_for(self, entry: S) -> asyncio.TimerHandle:
        left = (entry.until - self._clock()).total_seconds()  # type: ignore[operator]
        return asyncio.get_running_loop().call_later(max(left, 0.0), self._time_up, entry)

    def _time_up(self, entry: S) -> None:
        # Cancelled when the entry is lifted or replaced, so it is the one in force.
        key = entry.kind, entry.value
        del self._timers[key]
        if not entry.over(self._clock()):
            # The loop's clock is not the wall clock (set back, say): wait on.
            self._timers[key] = self._timer_for(entry)
            return
        self._ran_out(entry)

    def stop_timers(self) -> None:
        """Cancel every timer (the server stops): no timer tells an end after this."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def in_force(self) -> list[S]:
        """Every one in force, oldest first."""
        now = self._clock()
        for entry in [entry for entry in self._kept.values() if entry.over(now)]:
            self._ran_out(entry)
        return sorted(self._kept.values(), key=lambda entry: entry.made)

    def make(self, kind: str, value: str, duration: str, reason: str, by: str) -> S:
        """One on a key or an address for ``duration`` (a name of :data:`DURATIONS`),
        with its value in its usual form; a ValueError says what is wrong."""
        if kind not in self.KINDS:
            raise ValueError(f"{kind!r} cannot be {self.DONE}: only {self.KINDS_TEXT}")
        if duration not in DURATIONS:
            raise ValueError(f"{duration!r} is not a {self.NOUN}'s length: "
                             f"{', '.join(DURATIONS)}")
        value = normal_key(value) if kind == KEY else normal_address(value)
        now = self._clock().replace(microsecond=0)
        length = DURATIONS[duration]
        return self._new(kind, value, None if length is None else now + length,
                         " ".join(reason.split())[:REASON_MAX], by, now)

    def add(self, entry: S) -> Awaitable[None] | None:
        """Put ``entry`` in force now (over any of the same key or address); returns its
        write to the database, if there is one."""
        self._keep(entry)
        return None if self.storage is None else self._save(self.storage, entry)

    def remove(self, kind: str, value: str) -> tuple[S | None, Awaitable[None] | None]:
        """Lift the one on a key or an address: what was lifted (None if nothing was in
        force) and its write to the database."""
        entry = self._kept.get((kind, value))
        if entry is None:
            return None, None
        return entry, self._forget(entry)

    # --- what each sort keeps, and how ------------------------------------------------------

    def _new(self, kind: str, value: str, until: datetime | None, reason: str, by: str,
             made: datetime) -> S:
        raise NotImplementedError

    async def _read_saved(self, storage: Storage) -> list[S]:
        raise NotImplementedError

    def _save(self, storage: Storage, entry: S) -> Awaitable[None]:
        raise NotImplementedError

    def _drop(self, storage: Storage, kind: str, value: str) -> Awaitable[None]:
        raise NotImplementedError


class Bans(Register[Ban]):
    """The bans in force (see the module docstring)."""

    NOUN, DONE = "ban", "banned"
    KINDS, KINDS_TEXT = (KEY, ADDRESS), f"a {KEY} or an {ADDRESS}"

    def of_key(self, fingerprint: str) -> Ban | None:
        """The ban in force on a key (``SHA256:...``, or a person's id ``key:SHA256:...``)."""
        return self._in_force(KEY, fingerprint.removeprefix("key:"))

    def of_address(self, address: str) -> Ban | None:
        """The ban in force on an address, if any."""
        try:
            return self._in_force(ADDRESS, normal_address(address))
        except ValueError:
            return None  # not an IP address (a test transport): nothing can ban it

    def _new(self, kind: str, value: str, until: datetime | None, reason: str, by: str,
             made: datetime) -> Ban:
        return Ban(kind, value, until, reason, by, made)

    async def _read_saved(self, storage: Storage) -> list[Ban]:
        return [Ban.from_saved(saved) for saved in await storage.bans()]

    def _save(self, storage: Storage, entry: Ban) -> Awaitable[None]:
        return storage.save_ban(entry.saved())

    def _drop(self, storage: Storage, kind: str, value: str) -> Awaitable[None]:
        return storage.drop_ban(kind, value)


def _log_failure(noun: str, write) -> None:  # type: ignore[no-untyped-def]
    if not write.cancelled() and write.exception() is not None:
        log.error("could not forget a %s in the database: %s", noun, write.exception())
