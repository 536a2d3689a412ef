"""``diamant play``: play in this terminal against computer players."""

from __future__ import annotations

import argparse
import sys

from ..bots import BotSpecError, describe_kinds, parse_lineup, personality_example
from ..engine.cards import Rules
from ..engine.game import MAX_PLAYERS, MIN_PLAYERS
from ..i18n import LANGUAGES, UnknownLanguage, detect_language, parse_language
from ..table import PACE_MOST, TIMER_MOST
from .seconds import seconds

_EPILOG = """\
computer players for --bots (NAME or NAME:PARAM):
{bots}

Each computer player draws a parameter of its own around the named one
({personality}),
so two of a kind do not play as one. Your own computer player plays too:
path/to/file.py:Class or module:Class (see diamant sim --help).
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play in this terminal against computer players",
        description="Open the setup screen (the options fill in its defaults); "
        "Enter starts a game against computer players.",
        epilog=_EPILOG.format(bots=describe_kinds(), personality=personality_example()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--lang", help=f"interface language: {', '.join(LANGUAGES)} "
                        "(default: from LC_ALL, LC_MESSAGES or LANG)")
    parser.add_argument("--rules", choices=[r.value for r in Rules], default=Rules.CLASSIC.value,
                        help="rule set (default: classic)")
    parser.add_argument("--players", type=int, default=4,
                        help=f"players at the table including you, {MIN_PLAYERS} to {MAX_PLAYERS} (default: 4)")
    parser.add_argument("--bots", metavar="LIST",
                        help="comma-separated computer players for the other seats, e.g. "
                        "carry:20,cards:6 (used in turn; at most one fewer than --players; "
                        "see below)")
    parser.add_argument("--timer", type=seconds, metavar="S",
                        help="seconds to decide before a computer player decides for you, "
                        f"more than 0 and at most {TIMER_MOST:g} (default: no timer)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible game")
    parser.add_argument("--pace", type=seconds, default=0.7, metavar="S",
                        help=f"the least seconds from one card to the next, 0 to "
                        f"{PACE_MOST:g} (default: 0.7)")
    parser.set_defaults(run=run)


def _check_seconds(timer: float | None, pace: float) -> None:
    """Refuse a timer or a pace a table would not take: 1e9 seconds showed a countdown of
    ten digits cut in its corner, or turned the next card in 31 years."""
    if timer is not None and not 0 < timer <= TIMER_MOST:
        raise ValueError(f"--timer {timer:g}: give more than 0 and at most {TIMER_MOST:g} "
                         f"seconds to decide, e.g. 30, or leave --timer out for no timer.")
    if not 0 <= pace <= PACE_MOST:
        raise ValueError(f"--pace {pace:g}: give 0 to {PACE_MOST:g} seconds from one card "
                         f"to the next, e.g. 0.7 (0: as soon as everyone has chosen).")


def _check_room(bots: tuple[str, ...], players: int) -> None:
    """Refuse more computer players than the seats besides the person's: the extra ones
    would be left out without a word (``diamant sim`` refuses a line-up that does not fit
    a game too)."""
    room = players - 1
    if len(bots) <= room:
        return
    more = (f", or give --players {len(bots) + 1}" if len(bots) < MAX_PLAYERS
            else f" (a game has at most {MAX_PLAYERS} players)")
    raise ValueError(f"--bots names {len(bots)} computer players, but a game of {players} "
                     f"players has {room} besides you: name at most {room}{more}.")


def run(args: argparse.Namespace) -> int:
    """Check the options, then run the app; bad options get one clear line."""
    from ..ui import DiamantApp, SetupChoices
    from ..ui.setup_choices import CUSTOM

    try:
        lang = parse_language(args.lang) if args.lang else detect_language()
        if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
            raise ValueError(f"--players {args.players}: Diamant is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        _check_seconds(args.timer, args.pace)
        bots = parse_lineup(args.bots) if args.bots is not None else ()
        _check_room(bots, args.players)
    except (UnknownLanguage, BotSpecError, ValueError) as error:
        print(f"diamant play: {error}", file=sys.stderr)
        return 2
    choices = SetupChoices(rules=Rules.parse(args.rules), players=args.players,
                           timer=args.timer, seed=args.seed, pace=args.pace)
    if bots:
        choices = choices.with_(level=CUSTOM, custom_bots=bots)
    app = DiamantApp(lang=lang, choices=choices)
    app.run()
    return app.return_code or 0  # 1 when the app stopped on an error
