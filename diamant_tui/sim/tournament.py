"""A round-robin tournament: many line-ups drawn from a list of computer players.

Every line-up of ``size`` players from the list (or a given number of line-ups drawn at
random) plays its games with :func:`diamant_tui.sim.simulate`; each player is then
ranked by its share of the wins over every game it played, with a 95 % interval.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..bots.outside import TIME_LIMIT
from ..engine.cards import Rules
from ..engine.game import MAX_PLAYERS, MIN_PLAYERS
from ..engine.errors import GameSetupError
from .simulate import Z95, simulate


def lineups(specs: Sequence[str], size: int, count: int | None, seed: int) -> list[tuple[str, ...]]:
    """Every line-up of ``size`` from ``specs`` (in list order), or ``count`` of them drawn
    at random (each a random choice of ``size`` distinct players) from ``seed``."""
    specs = tuple(specs)
    if len(set(specs)) != len(specs):
        twice = next(s for s in specs if specs.count(s) > 1)
        raise GameSetupError(f"{twice!r} is listed twice: a tournament needs distinct players.")
    if not MIN_PLAYERS <= size <= MAX_PLAYERS:
        raise GameSetupError(f"--size {size}: a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    if len(specs) < size:
        raise GameSetupError(
            f"{len(specs)} computer players for line-ups of {size}: list at least {size}."
        )
    if count is None:
        return list(itertools.combinations(specs, size))
    if count < 1:
        raise GameSetupError(f"--lineups {count}: play at least one line-up.")
    rng = random.Random(seed)
    return [tuple(rng.sample(specs, size)) for _ in range(count)]


@dataclass
class Standing:
    """One player's figures over all the games it played in the tournament."""

    bot: str
    games: int
    wins: float
    wins_interval: tuple[float, float]
    score: float
    lineups: int


@dataclass
class TournamentResult:
    """The ranking, best first, and how it was played."""

    rules: Rules
    size: int
    games_per_lineup: int
    lineups: list[tuple[str, ...]]
    standings: list[Standing]
    seed: int

    def summary(self) -> dict:
        """The figures as plain data (what ``--json`` prints)."""
        return {
            "rules": self.rules.value,
            "players": self.size,
            "lineups": len(self.lineups),
            "games_per_lineup": self.games_per_lineup,
            "seed": self.seed,
            "ranking": [
                {"bot": s.bot, "games": s.games, "lineups": s.lineups, "wins": round(s.wins, 4),
                 "wins_interval": [round(s.wins_interval[0], 4), round(s.wins_interval[1], 4)],
                 "score": round(s.score, 2)}
                for s in self.standings
            ],
        }


def tournament(
    rules: Rules | str,
    specs: Sequence[str],
    games: int,
    *,
    size: int = 5,
    count: int | None = None,
    seed: int = 1,
    jobs: int = 1,
    engine: bool = False,
    exact: bool = False,
    limit: float | None = TIME_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games in each line-up and rank the players (see the module doc)."""
    rules = Rules.parse(rules)
    drawn = lineups(specs, size, count, seed)
    shares: dict[str, list[np.ndarray]] = {s: [] for s in specs}
    scores: dict[str, list[np.ndarray]] = {s: [] for s in specs}
    total = games * len(drawn)
    for i, lineup in enumerate(drawn):
        base = i * games

        def report(done: int, _total: int, base: int = base) -> None:
            if progress is not None:
                progress(base + done, total)

        result = simulate(rules, lineup, games, seed=seed * 1_000_003 + i, jobs=jobs,
                          engine=engine, exact=exact, limit=limit, progress=report)
        for column, spec in enumerate(lineup):
            shares[spec].append(result.wins[:, column])
            scores[spec].append(result.scores[:, column])
    standings = []
    for spec in specs:
        if not shares[spec]:
            continue
        won = np.concatenate(shares[spec])
        half = Z95 * won.std(ddof=1) / math.sqrt(won.size) if won.size > 1 else 0.0
        mean = float(won.mean())
        standings.append(Standing(
            spec, int(won.size), mean, (max(0.0, mean - half), min(1.0, mean + half)),
            float(np.concatenate(scores[spec]).mean()), len(shares[spec]),
        ))
    standings.sort(key=lambda s: -s.wins)
    return TournamentResult(rules, size, games, drawn, standings, seed)


def format_ranking(result: TournamentResult) -> str:
    """The ranking as a small text table."""
    lines = [
        f"tournament: {len(result.lineups)} line-ups of {result.size}, "
        f"{result.games_per_lineup} games each, rules {result.rules.value}, seed {result.seed} "
        f"(even share {1 / result.size:.1%})",
        "",
        f"{'rank':<6}{'player':<24}{'wins':>8}   {'95% interval':<16}{'mean score':>11}"
        f"{'games':>8}",
    ]
    for rank, s in enumerate(result.standings, 1):
        low, high = s.wins_interval
        name = s.bot if len(s.bot) <= 23 else s.bot[:20] + "..."
        lines.append(f"{rank:<6}{name:<24}{s.wins:>8.1%}   {f'{low:.1%} - {high:.1%}':<16}"
                     f"{s.score:>11.1f}{s.games:>8}")
    return "\n".join(lines)
