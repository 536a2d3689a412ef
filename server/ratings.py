"""Ratings from finished games, with the ``openskill`` library (no home-made formula).

Each person with a key has a rating, and so has each computer player level (``bot:expert``,
``bot:carry``...: the computer player's kind without its parameter), so people can see how
strong the computer players are. A rating is a belief about a skill: ``mu`` (its mean) and
``sigma`` (how unsure it is). Players are shown the conservative estimate
``mu - 3 * sigma`` (openskill's ``ordinal()``): a newcomer starts at 0 and climbs as games
make the server surer of them.

The model is openskill's Bradley-Terry "full pairs" model: every pair of seats in a game
is a win, a loss or a tie. It is used rather than the library's Plackett-Luce model because
Plackett-Luce mishandles ties in the pinned version: with four equal players ranked
1, 1, 3, 4, the third gains exactly as much as the two tied winners.

Nothing here knows where ratings are kept (see :mod:`.storage`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from openskill.models import BradleyTerryFull

_MODEL = BradleyTerryFull()
BOT_PREFIX = "bot:"
"""Ratings of computer player levels are kept under ``bot:<kind>``."""


@dataclass(frozen=True)
class Rating:
    """One rated player's (or computer level's) skill, games and wins."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> float:
        """The conservative estimate players see: ``mu - 3 * sigma``."""
        return self.mu - 3 * self.sigma


def rated_as(person: str | None, computer: str | None) -> str | None:
    """Under which name a seat is rated: the person's id, ``bot:<kind>`` for a computer
    player (``carry:20`` is rated as ``bot:carry``), or None for a guest (not rated)."""
    if computer is not None:
        return BOT_PREFIX + computer.split(":", 1)[0]
    return person


def places_from_scores(scores: Sequence[int]) -> list[int]:
    """Final places from final scores, seat by seat: tied players share a place and the
    next place is skipped (scores 9, 9, 4 give places 1, 1, 3), as the rules have no
    tie-breaker."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def rate_game(seats: Sequence[tuple[str | None, Rating | None]],
              places: Sequence[int]) -> dict[str, Rating]:
    """The new ratings after one game.

    ``seats`` gives, seat by seat, who is rated for it (see :func:`rated_as`; None: a
    guest) and their rating before the game (None: a newcomer); ``places`` the final
    places, 1 the best, ties sharing a place. A guest plays as a newcomer whose new rating
    is thrown away: the others are rated for how they did against them too. A name that
    sits more than once (two computer players of one level) gets the mean of its seats'
    changes, and the game counts once for it (a win if any of its seats won).
    """
    if len(seats) != len(places):
        raise ValueError(f"{len(seats)} seats but {len(places)} places")
    if len(seats) < 2:
        return {}
    before = [rating or Rating() for _, rating in seats]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=list(places))
    changes: dict[str, list[tuple[float, float, bool]]] = {}
    for (name, _), old, team, place in zip(seats, before, after, places):
        if name is not None:
            changes.setdefault(name, []).append(
                (team[0].mu - old.mu, team[0].sigma - old.sigma, place == 1))
    result = {}
    for (name, _), old in zip(seats, before):
        if name is None or name in result:
            continue
        mine = changes[name]
        result[name] = Rating(
            mu=old.mu + sum(c[0] for c in mine) / len(mine),
            sigma=old.sigma + sum(c[1] for c in mine) / len(mine),
            games=old.games + 1,
            wins=old.wins + any(c[2] for c in mine),
        )
    return result
