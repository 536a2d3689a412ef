"""``diamant sim``: play many games between computer players and compare them."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import NoReturn

from ..bots import BotFailure, BotSpecError, describe_kinds, parse_lineup, personality_example
from ..bots import stuck
from ..bots.outside import TIME_LIMIT
from ..engine.cards import Rules
from ..engine.errors import DiamantError
from ..sim.simulate import SimResult, simulate
from ..sim.tournament import format_ranking, tournament
from .seconds import seconds

DEFAULT_BOTS = "expert,ev,risk,cards:6,carry:20"

_EPILOG = """\
computer players (NAME or NAME:PARAM):
{bots}

As at a table, each player draws a parameter of its own around the named one in every
game ({personality});
--exact plays the named rules exactly. Seats are rotated from game to game, so no
player keeps a seat. When every player is a rule numpy can apply to many games at once
(all but expert), a fast path plays the games; --engine plays them on the rules engine
instead. A seed gives the same figures whatever --jobs is. Wins are shared on a tie (each of k tied winners gets 1/k).

Your own computer player: a class with a method decide(view) returning
Decision.CONTINUE or Decision.LEAVE, named path/to/file.py:Class or module:Class (or
offered by an installed package in the entry point group diamant.bots), e.g.
  diamant sim --bots expert,mybots.py:Cautious,ev,risk,carry:20
A player that raises, answers anything else or thinks longer than --time-limit stops the
simulation with an error naming it.

--tournament plays every line-up of --size players from the list (or --lineups N
line-ups drawn at random), --games games each, and ranks the players by their share of
the wins over all the games they played.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``sim`` subcommand."""
    bots = describe_kinds()
    parser = subparsers.add_parser(
        "sim",
        help="simulate games between computer players",
        description="Play many games between computer players and print each one's "
        "win rate and mean score with 95% intervals.",
        epilog=_EPILOG.format(bots=bots, personality=personality_example()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rules", default="classic", metavar="R",
                        help="rule set: classic, relics or relic-variant (default classic)")
    parser.add_argument("--bots", default=DEFAULT_BOTS, metavar="LIST",
                        help=f"3 to 8 comma-separated computer players (default {DEFAULT_BOTS})")
    parser.add_argument("--games", type=int, default=1000, metavar="N",
                        help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="random seed; the same seed gives the same figures (default 1)")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="processes to use (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--engine", action="store_true",
                        help="play every game on the rules engine, even when the fast path could")
    parser.add_argument("--exact", action="store_true",
                        help="every player plays its named rule exactly, with no parameter of "
                        "its own")
    parser.add_argument("--time-limit", type=seconds, default=TIME_LIMIT, metavar="SECONDS",
                        help=f"most processor time a player may think over one decision "
                        f"(default {TIME_LIMIT:g}; one that waits is stopped after ten times "
                        "that; 0 for no limit)")
    parser.add_argument("--tournament", action="store_true",
                        help="round-robin: play line-ups drawn from --bots and rank the players")
    parser.add_argument("--size", type=int, default=5, metavar="K",
                        help="players per line-up in a tournament (default 5)")
    parser.add_argument("--lineups", type=int, default=None, metavar="N",
                        help="in a tournament, N random line-ups instead of every one")
    parser.error = _one_line_error(parser)  # type: ignore[method-assign]
    parser.set_defaults(run=run)


def _one_line_error(parser: argparse.ArgumentParser):
    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: error: {message}\n")

    return error


def run(args: argparse.Namespace) -> int:
    """Run the simulation described by ``args``; print the figures."""
    progress = _ProgressBar() if sys.stderr.isatty() else None
    stuck.PREFIX = "diamant sim: error: "  # the line a player that will not stop ends on
    try:
        with _players_print_to_stderr():
            result = _played(args, progress)
    except (DiamantError, BotSpecError, BotFailure, ValueError) as exc:
        if progress is not None:
            print(file=sys.stderr)
        print(f"diamant sim: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.summary(), indent=2))
    elif args.tournament:
        print(format_ranking(result))
    else:
        print(format_table(result))
    return 0


@contextlib.contextmanager
def _players_print_to_stderr():
    """While players are loaded and play, what they print goes to standard error.

    Standard output is the figures alone (``--json`` is read by programs), whatever a
    player prints while it is written; the processes of ``--jobs`` inherit the file
    descriptor, so it is moved, not only ``sys.stdout``.
    """
    sys.stdout.flush()
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no standard output to move: sys.stdout alone is
        saved = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


def _played(args: argparse.Namespace, progress):
    """The simulation or tournament ``args`` describe, its arguments checked first."""
    specs = parse_lineup(args.bots)
    if args.jobs < 1:
        raise ValueError(f"--jobs {args.jobs}: use at least one process.")
    if args.time_limit < 0:
        raise ValueError(f"--time-limit {args.time_limit:g}: give 0 (no limit) or more.")
    limit = args.time_limit or None
    Rules.parse(args.rules)
    if args.tournament:
        return tournament(args.rules, specs, args.games, size=args.size,
                          count=args.lineups, seed=args.seed, jobs=args.jobs,
                          engine=args.engine, exact=args.exact, limit=limit,
                          progress=progress)
    return simulate(args.rules, specs, args.games, seed=args.seed, jobs=args.jobs,
                    engine=args.engine, exact=args.exact, limit=limit,
                    progress=progress)


def format_table(result: SimResult) -> str:
    """The figures as a small text table."""
    s = result.summary()
    path = "fast path" if result.fast else "engine"
    how = "exact rules" if result.exact else "each player with a parameter of its own"
    width = max([14] + [len(bot["bot"]) + 2 for bot in s["bots"]])
    lines = [
        f"{s['games']} games, rules {s['rules']}, {s['players']} players, "
        f"seed {s['seed']} ({path}, {how})",
        "",
        f"{'player':<{width}}{'wins':>8}   {'95% interval':<16}{'mean score':>11}   95% interval",
    ]
    for bot in s["bots"]:
        low, high = bot["wins_interval"]
        slow, shigh = bot["score_interval"]
        lines.append(
            f"{bot['bot']:<{width}}{bot['wins']:>8.1%}   {f'{low:.1%} - {high:.1%}':<16}"
            f"{bot['score']:>11.1f}   {slow:.1f} - {shigh:.1f}"
        )
    lines += [
        "",
        f"per game: {s['cards_per_round']:.2f} cards per round, "
        f"{s['disaster_share']:.1%} of rounds end in disaster",
    ]
    return "\n".join(lines)


class _ProgressBar:
    """A one-line progress bar on standard error."""

    WIDTH = 30

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        end = "\n" if done >= total else ""
        print(f"\r[{bar}] {done}/{total} games", end=end, file=sys.stderr, flush=True)
