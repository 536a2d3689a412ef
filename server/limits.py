"""Connection limits, checked as soon as a TCP connection arrives (before authentication).

At most ``max_connections`` connections in all and ``max_per_address`` from one address,
and new connections from one address are rate limited with a token bucket. Sessions (each
one app) are counted too, from the channel's opening until its app has ended, which can
be later than its connection's end: the same bounds in all and per address, and at most
``max_per_person`` for one person.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable


class Refusal(str):
    """Why a connection is refused: the text the client is sent, and ``reason``, a short
    word for counting refusals by kind (``rate``, ``full``, ``address``)."""

    reason: str

    def __new__(cls, text: str, reason: str) -> "Refusal":
        refusal = super().__new__(cls, text)
        refusal.reason = reason
        return refusal


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class ConnectionLimits:
    """Counts open connections and decides whether a new one may come in."""

    max_connections: int
    max_per_address: int
    rate: float
    """Tokens added per second to each address's bucket."""
    burst: int
    """Size of each bucket: how many connections may arrive at once."""
    clock: Callable[[], float] = time.monotonic
    max_per_person: int = 3
    """Sessions open at once for one person (see :attr:`diamant_server.identity.Identity.person`)."""
    _open: Counter[str] = field(default_factory=Counter)
    _sessions: Counter[str] = field(default_factory=Counter)
    _person_sessions: Counter[str] = field(default_factory=Counter)
    _buckets: dict[str, _Bucket] = field(default_factory=dict)
    _refused: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        """Connections open now."""
        return sum(self._open.values())

    def hammering(self, address: str) -> bool:
        """True when ``address`` keeps connecting although refused: close at once, no reply."""
        return self._refused[address] > self.burst

    def admit(self, address: str) -> Refusal | None:
        """Count a new connection from ``address``; or return why it is refused."""
        reason = self._admit(address)
        if reason is None:
            self._refused.pop(address, None)
        else:
            self._refused[address] += 1
        return reason

    def _admit(self, address: str) -> Refusal | None:
        now = self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens < 1:
            return Refusal("too many new connections from your address; wait a few seconds "
                           "and retry", "rate")
        bucket.tokens -= 1
        if self.total >= self.max_connections:
            return Refusal("the server is full; please try again later", "full")
        if self._open[address] >= self.max_per_address:
            return Refusal(f"at most {self.max_per_address} connections from one address",
                           "address")
        self._open[address] += 1
        self._forget_full_buckets(now)
        return None

    def release(self, address: str) -> None:
        """A connection counted by :meth:`admit` has closed."""
        if self._open[address] > 0:
            self._open[address] -= 1
        if not self._open[address]:
            del self._open[address]

    @property
    def sessions(self) -> int:
        """Sessions open now."""
        return sum(self._sessions.values())

    def open_session(self, address: str, person: str, *,
                     guest: bool = False) -> tuple[str, int] | None:
        """Count a new session of ``person`` from ``address``; or return why it is refused,
        as the key of its text and the limit it is over. A ``guest``'s person is their
        address (a guest is new at every connection): over the limit per person, they are
        told that this address has its guest sessions, and how to get another."""
        if self.sessions >= self.max_connections:
            return "limit.server_sessions", self.max_connections
        if self._sessions[address] >= self.max_per_address:
            return "limit.address_sessions", self.max_per_address
        if self._person_sessions[person] >= self.max_per_person:
            return ("limit.guest_sessions" if guest else "limit.person_sessions",
                    self.max_per_person)
        self._sessions[address] += 1
        self._person_sessions[person] += 1
        return None

    def close_session(self, address: str, person: str) -> None:
        """A session counted by :meth:`open_session` has ended."""
        for counter, key in ((self._sessions, address), (self._person_sessions, person)):
            if counter[key] > 0:
                counter[key] -= 1
            if not counter[key]:
                del counter[key]

    def _forget_full_buckets(self, now: float) -> None:
        # Keep the table small: a bucket that has refilled says nothing new.
        if len(self._buckets) < 1024:
            return
        for address, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * self.rate >= self.burst:
                del self._buckets[address]
                self._refused.pop(address, None)
