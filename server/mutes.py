"""Mutes: people whose chat lines go to nobody for a time, or for good.

A muted person keeps playing and watching; every chat line they send is refused, and
told why (:mod:`.chat_watch`), before the table sees it. A person with a key is muted by
their key, whatever connection they come back with. A guest is a new identity at every
connection, so a guest is muted by the address they connect from, as the limits count
guests (:attr:`~diamant_server.identity.Identity.person`): every guest from it is muted,
while people who log in with a key from that address are not (each is their key).

Mutes are kept as bans are (:class:`~diamant_server.bans.Register`): read from the
database at start-up, kept in memory (a chat line never waits on the disk), written
through, forgotten once over. The admins' desk is told when one runs out
(:attr:`~diamant_server.bans.Register.on_over`), at its end, and tells its person.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Awaitable

from .bans import KEY, Register, Sanction, normal_address
from .identity import Identity
from .storage import Storage

GUEST = "guest"
"""The kind of mute on guests, by the address they connect from (the other is ``key``)."""


@dataclass(frozen=True)
class Mute(Sanction):
    """A key, or the guests of an address, muted: their chat lines go to nobody."""

    TEXT = "admin.muted"


def muted_as(identity: Identity) -> tuple[str, str]:
    """What a mute of this person is on: their key (``key``, its fingerprint), or for a
    guest the address they connect from (``guest``); a ValueError if that is not an IP
    address (a test transport)."""
    if identity.guest:
        return GUEST, normal_address(identity.address)
    return KEY, identity.key.removeprefix("key:")


class Mutes(Register[Mute]):
    """The mutes in force (see the module docstring)."""

    NOUN, DONE = "mute", "muted"
    KINDS, KINDS_TEXT = (KEY, GUEST), f"a {KEY} or the address of a {GUEST}"

    def of(self, identity: Identity) -> Mute | None:
        """The mute in force on this person, if any."""
        try:
            return self._in_force(*muted_as(identity))
        except ValueError:
            return None  # a guest on no IP address (a test transport): nothing can mute it

    def _new(self, kind: str, value: str, until: datetime | None, reason: str, by: str,
             made: datetime) -> Mute:
        return Mute(kind, value, until, reason, by, made)

    async def _read_saved(self, storage: Storage) -> list[Mute]:
        return [Mute.from_saved(saved) for saved in await storage.mutes()]

    def _save(self, storage: Storage, entry: Mute) -> Awaitable[None]:
        return storage.save_mute(entry.saved())

    def _drop(self, storage: Storage, kind: str, value: str) -> Awaitable[None]:
        return storage.drop_mute(kind, value)
