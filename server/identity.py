"""Who a connection belongs to: the player an SSH key (or a guest's connection) stands for.

Imports nothing else from the server: authentication makes identities, and sessions,
limits and the lobby only read them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Identity:
    """A player: ``key`` is stable across connections for a public key, new for a guest."""

    key: str
    name: str
    guest: bool
    address: str

    def __str__(self) -> str:
        kind = "guest" if self.guest else self.key.removeprefix("key:")
        return f"{self.name!r} ({kind}) from {self.address}"

    @property
    def person(self) -> str:
        """Whom the limits per person count: the key, or for a guest (a new identity at
        every connection) their address."""
        return "guest@" + self.address if self.guest else self.key


def person_of(key: str) -> str | None:
    """The person an identity key stands for in the server's database: the key itself for
    someone who logged in with an SSH key, None for a guest (guests are not kept)."""
    return key if key.startswith("key:") else None
