"""Many games between computer players, and the figures that compare them.

:func:`simulate` plays the games on the engine (:class:`~diamant_tui.engine.game.Game`, any
players) or, when every player is a rule that numpy can apply to many games at once,
on the fast path (:mod:`diamant_tui.sim.fast`). Games are cut into fixed chunks, each
with its own seed, so the result for a seed is the same whatever the number of jobs.

As at a table, every player draws a parameter of its own in every game (see
:mod:`diamant_tui.bots`), from that seed too; ``exact`` plays the named rules exactly.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import tempfile
import zlib
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import numpy as np

from . import fast
from ..bots import Bot, checked_decision, make_bot, parse_spec
from ..bots import stuck
from ..bots.outside import TIME_LIMIT, BotFailure, checked_watch
from ..engine.encoding import encoding
from ..engine.cards import Rules
from ..engine.config import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, GameConfig
from ..engine.game import Game
from ..engine.errors import GameSetupError
from ..engine.view import Phase

log = logging.getLogger("diamant_tui.sim")

ENGINE_CHUNK = 25
FAST_CHUNK = 10_000
Z95 = 1.959964


def seat_names(specs: Sequence[str]) -> list[str]:
    """Distinct display names for a line-up: ``ev``, ``ev#2``, ..."""
    names: list[str] = []
    for spec in specs:
        name, k = spec, 1
        while name in names:
            k += 1
            name = f"{spec}#{k}"
        names.append(name)
    return names


def seating(game: int, seats: int) -> list[int]:
    """Which bot sits in each seat in game number ``game``: the line-up turned by one seat
    per game, so over any ``seats`` games in a row every bot sits in every seat once."""
    return [(s + game) % seats for s in range(seats)]


def play_game(game: Game, bots: Sequence[Bot], decks: np.ndarray | None = None,
              limit: float | None = None,
              failed_watching: dict[str, str] | None = None) -> Game:
    """Play ``game`` to the end, seat ``s`` deciding with ``bots[s]`` from its view alone.

    Cards come from the game's own RNG, or from ``decks`` (rounds, ids): each round's card
    ids in the order they are turned (see :func:`diamant_tui.fast.play`). Every
    decision is checked (:func:`~diamant_tui.bots.checked_decision`): a player that
    raises, answers something else or thinks longer than ``limit`` seconds stops the game
    with a :class:`~diamant_tui.bots.BotFailure` naming it.

    Players back in camp are shown each step of the round that follows, at the moments
    those in the cave decide (their ``watch(view)``, if they have one); one whose
    ``watch`` raises is not shown the game any more, and what went wrong is logged, or
    kept in ``failed_watching`` (by the player's name, its first failure) when given.
    """
    enc = encoding(game.rules)
    watchers = {s for s, bot in enumerate(bots) if getattr(bot, "watch", None) is not None}
    while not game.over:
        if game.phase is Phase.DECISION:
            in_cave = game.players_in_cave
            for s in sorted(watchers.difference(in_cave)):
                problem = checked_watch(bots[s], game.view_for(s), game.names[s])
                if problem is not None:
                    watchers.discard(s)
                    if failed_watching is None:
                        log.warning("%s.", problem)
                    else:
                        failed_watching.setdefault(game.names[s], problem)
            game.apply_decisions({
                s: checked_decision(bots[s], game.view_for(s), game.names[s], limit)
                for s in game.players_in_cave
            })
        elif decks is None:
            game.reveal_random()
        else:
            if game.phase is Phase.ROUND_OVER:
                game.start_next_round()
            game.reveal(enc.cards[decks[game.round - 1, game.step]])
    return game


@dataclass
class SimResult:
    """Per-game figures of a simulation; columns follow the order of ``specs``."""

    rules: Rules
    specs: tuple[str, ...]
    seed: int
    fast: bool
    scores: np.ndarray
    """(games, bots) final scores."""
    wins: np.ndarray
    """(games, bots) share of each win: 1, 1/k for a k-way tie, or 0."""
    cards: np.ndarray
    """(games,) mean cards revealed per round."""
    disasters: np.ndarray
    """(games,) share of rounds that ended in disaster."""
    exact: bool = False
    """Whether every player played its named rule exactly (no parameter of its own)."""

    @property
    def games(self) -> int:
        """How many games were played."""
        return int(self.scores.shape[0])

    def summary(self) -> dict:
        """The figures as plain data (what ``--json`` prints)."""
        bots = []
        for i, name in enumerate(seat_names(self.specs)):
            win, win_half = _mean_interval(self.wins[:, i])
            score, score_half = _mean_interval(self.scores[:, i])
            bots.append({
                "bot": name,
                "wins": round(win, 4),
                "wins_interval": [round(max(0.0, win - win_half), 4),
                                  round(min(1.0, win + win_half), 4)],
                "score": round(score, 2),
                "score_interval": [round(score - score_half, 2), round(score + score_half, 2)],
            })
        return {
            "rules": self.rules.value,
            "games": self.games,
            "players": len(self.specs),
            "seed": self.seed,
            "path": "fast" if self.fast else "engine",
            "exact": self.exact,
            "bots": bots,
            "cards_per_round": round(float(self.cards.mean()), 3),
            "disaster_share": round(float(self.disasters.mean()), 4),
        }


def _mean_interval(values: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal approximation)."""
    mean = float(values.mean())
    if values.size < 2:
        return mean, 0.0
    return mean, float(Z95 * values.std(ddof=1) / np.sqrt(values.size))


def win_shares(scores: np.ndarray) -> np.ndarray:
    """(games, seats) scores to shares of the win: tied leaders split it."""
    top = scores == scores.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True)


def check_lineup(rules: Rules | str, specs: Sequence[str], games: int) -> Rules:
    """Check a simulation's arguments; raise ValueError with a one-line message."""
    rules = Rules.parse(rules)
    if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
        raise GameSetupError(
            f"{len(specs)} computer players: a game needs {MIN_PLAYERS} to {MAX_PLAYERS}."
        )
    for spec in specs:
        parse_spec(spec)
    if games < 1:
        raise GameSetupError(f"--games {games}: play at least one game.")
    return rules


def uses_fast_path(specs: Sequence[str]) -> bool:
    """Whether every player has an array version (see :func:`fast.vector_policy`)."""
    return all(fast.vector_policy(spec) is not None for spec in specs)


# -- chunks: the unit of work, each with its own seed -------------------------------


@dataclass(frozen=True)
class _Chunk:
    rules: Rules
    specs: tuple[str, ...]
    seed: int
    first: int
    count: int
    fast: bool
    exact: bool = False
    limit: float | None = TIME_LIMIT


_Part = tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, str]]


def _play_chunk(chunk: _Chunk) -> _Part:
    """(scores by bot, cards per round, disaster flags, failures of ``watch`` by player)
    for the chunk's games."""
    if chunk.fast:
        # The rules give seats no order, so each player simply keeps its column here.
        rng = np.random.default_rng([chunk.seed, chunk.first])
        policies = [
            fast.vector_policy(
                spec, None if chunk.exact else fast.personal_params(spec, rng, chunk.count))
            for spec in chunk.specs
        ]
        done = fast.play(chunk.rules, policies, chunk.count, rng)
        return done.scores, done.cards, done.disasters, {}
    seats = len(chunk.specs)
    names = seat_names(chunk.specs)
    scores = np.zeros((chunk.count, seats), dtype=np.int64)
    cards = np.zeros((chunk.count, ROUNDS), dtype=np.int64)
    disasters = np.zeros((chunk.count, ROUNDS), dtype=bool)
    failed_watching: dict[str, str] = {}
    for i in range(chunk.count):
        g = chunk.first + i
        game_seed = int(np.random.SeedSequence([chunk.seed, g]).generate_state(1)[0])
        order = seating(g, seats)
        # Each bot's randomness follows its name, not its place in the line-up.
        bots = [make_bot(chunk.specs[b], seed=_seed(chunk.seed, g, names[b]), exact=chunk.exact)
                for b in order]
        config = GameConfig(tuple(names[b] for b in order), chunk.rules)
        game = play_game(Game(config, seed=game_seed), bots, limit=chunk.limit,
                         failed_watching=failed_watching)
        final = game.scores()
        for s, b in enumerate(order):
            scores[i, b] = final[s]
        cards[i] = [r.cards for r in game.round_results]
        disasters[i] = [r.disaster is not None for r in game.round_results]
    return scores, cards, disasters, failed_watching


_WATCH_FAILURES_TOLD: set[str] = set()
"""Players whose failing ``watch`` this program has told of: each is told once, however
many games (and line-ups of a tournament, and processes of ``--jobs``) it failed in."""


def _tell_watch_failures(failed_watching: dict[str, str]) -> None:
    for name, problem in failed_watching.items():
        if name not in _WATCH_FAILURES_TOLD:
            _WATCH_FAILURES_TOLD.add(name)
            log.warning("%s.", problem)


def _seed(seed: int, game: int, name: str) -> int:
    return int(np.random.SeedSequence([seed, game, zlib.crc32(name.encode())]).generate_state(1)[0])


def _chunks(
    rules: Rules, specs: tuple[str, ...], games: int, seed: int, fast: bool, exact: bool,
    limit: float | None = TIME_LIMIT,
) -> list[_Chunk]:
    size = FAST_CHUNK if fast else ENGINE_CHUNK
    return [
        _Chunk(rules, specs, seed, first, min(size, games - first), fast, exact, limit)
        for first in range(0, games, size)
    ]


def simulate(
    rules: Rules | str,
    specs: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    engine: bool = False,
    exact: bool = False,
    limit: float | None = TIME_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> SimResult:
    """Play ``games`` games between the players ``specs`` and gather the figures.

    The fast path is used when every player allows it, unless ``engine`` is set.
    Each player draws its own parameter in each game, unless ``exact``.
    ``limit`` is the most seconds a player may take over one decision (None: no limit).
    ``progress(done, total)`` is called as games finish.
    """
    specs = tuple(specs)
    rules = check_lineup(rules, specs, games)
    fast = not engine and uses_fast_path(specs)
    chunks = _chunks(rules, specs, games, seed, fast, exact, limit)
    parts = []
    done = 0
    for chunk, part in zip(chunks, _run(chunks, jobs)):
        parts.append(part)
        _tell_watch_failures(part[3])
        done += chunk.count
        if progress is not None:
            progress(done, games)
    scores = np.concatenate([p[0] for p in parts])
    cards = np.concatenate([p[1] for p in parts])
    disasters = np.concatenate([p[2] for p in parts])
    return SimResult(
        rules=rules,
        specs=specs,
        seed=seed,
        fast=fast,
        scores=scores,
        wins=win_shares(scores),
        cards=cards.mean(axis=1),
        disasters=disasters.mean(axis=1),
        exact=exact,
    )


def _run(chunks: list[_Chunk], jobs: int) -> Iterator[_Part]:
    if jobs <= 1 or len(chunks) == 1:
        yield from map(_play_chunk, chunks)
        return
    with tempfile.TemporaryDirectory(prefix="diamant-sim-") as folder:
        # A process whose player will not stop ends itself, saying who in this file.
        report = os.path.join(folder, "stuck.json")
        pool = ProcessPoolExecutor(min(jobs, len(chunks)),
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_in_worker, initargs=(report,))
        try:
            yield from pool.map(_play_chunk, chunks)
        except BrokenProcessPool:
            told = stuck.reported(report)
            if told is not None:
                raise BotFailure(*told) from None
            raise GameSetupError("a process of --jobs ended before its games were played "
                                 "(out of memory?); try fewer --jobs.") from None
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _in_worker(report: str) -> None:
    stuck.REPORT_FILE = report
