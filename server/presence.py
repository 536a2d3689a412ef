"""Who is on the server now: how many people play, watch, or are in the lobby.

The lobby's header says it to everyone there, so that a newcomer knows whether anyone
else is around. It is counted from the sessions the server keeps anyway, at most once a
second however many lobbies ask: each lobby looks every few seconds, and a crowd of
lobbies must not each go through every session.

A person is counted once, however many connections they have: people who logged in with
an SSH key by their key, each guest connection as a person of its own (a guest has a new
identity at every connection; guests behind one address are often several people). A
person with two connections counts where they are the most taken up: playing rather than
watching, watching rather than in the lobby.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    from .session import GameSession

FRESH = 1.0
"""Seconds a count is given again before the sessions are counted anew."""


class Place(enum.IntEnum):
    """Where a person is; a greater value takes them up more (it wins for two connections)."""

    LOBBY = 0
    WATCHING = 1
    PLAYING = 2


@dataclass(frozen=True)
class Here:
    """How many people are on the server, by where they are. ``playing`` counts those
    who hold a seat at a table, its game begun or not; ``lobby`` those in the lobby or
    one of its lists (leaderboard, my games, the admin screen)."""

    playing: int = 0
    watching: int = 0
    lobby: int = 0

    @property
    def people(self) -> int:
        """Everyone on the server."""
        return self.playing + self.watching + self.lobby


def place_of(session: "GameSession") -> Place | None:
    """Where the person of ``session`` is; None for a session with no app (refused,
    answering ``help``, or not started yet): nobody is on the server through it."""
    app = session.app
    if app is None:
        return None
    member = getattr(app, "member", None)
    if member is None:
        return Place.LOBBY
    return Place.WATCHING if member.seat is None else Place.PLAYING


def count(sessions: Iterable["GameSession"]) -> Here:
    """Count the people of ``sessions`` (see the module docstring)."""
    places: dict[str, Place] = {}
    for session in sessions:
        place = place_of(session)
        if place is None:
            continue
        person = session.identity.key
        places[person] = max(place, places.get(person, Place.LOBBY))
    by_place = {place: 0 for place in Place}
    for place in places.values():
        by_place[place] += 1
    return Here(playing=by_place[Place.PLAYING], watching=by_place[Place.WATCHING],
                lobby=by_place[Place.LOBBY])


class Presence:
    """The server's :class:`Here`, counted from ``sessions()`` at most once every
    ``fresh`` seconds."""

    def __init__(self, sessions: Callable[[], Iterable["GameSession"]], *,
                 fresh: float = FRESH, clock: Callable[[], float] = time.monotonic) -> None:
        self._sessions = sessions
        self._fresh = fresh
        self._clock = clock
        self._counted: tuple[float, Here] | None = None

    def now(self) -> Here:
        """Who is here, as counted at most ``fresh`` seconds ago."""
        now = self._clock()
        if self._counted is None or now - self._counted[0] >= self._fresh:
            self._counted = (now, count(self._sessions()))
        return self._counted[1]
