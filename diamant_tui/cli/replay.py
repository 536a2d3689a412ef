"""``diamant replay FILE``: watch a recorded game again, step by step, in this terminal.

``--json`` and ``--summary`` check the record and print its outcome instead, for scripts
and for a quick look.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata

from rich.cells import cell_len

from ..engine.errors import RecordError
from ..engine.record import Replay, read_record
from ..engine.view import Phase
from ..i18n import LANGUAGES, UnknownLanguage, detect_language, parse_language

BAD_RECORD_HINT = "Choose a game record saved by diamant (the diamant-record/1 format)."
UNREADABLE_HINT = "Check the file's name and that you may read it."
FOLDER_HINT = "Give the name of a record file, not of its folder."
BAD_FILE = 1
"""Exit status for a file that is not a good record, whichever the mode: scripts checking
records with --json or --summary have relied on it since before the screen existed."""
CANNOT_RUN = 2
"""Exit status for a command that cannot run as given (a usage error, as argparse's)."""


class _CannotWatch(Exception):
    """The replay screen cannot open: one line says why and what to do instead."""


class _BadFile(Exception):
    """The file is not a record the replay can use: one line says what was wrong with it
    and what to do, the same in every mode."""


class _Unreadable(RecordError):
    """The file could not be read at all (missing, a folder, not allowed)."""

    def __init__(self, message: str, hint: str = UNREADABLE_HINT) -> None:
        super().__init__(message)
        self.hint = hint


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``replay`` subcommand to the ``diamant`` command."""
    parser = subparsers.add_parser(
        "replay",
        help="watch a recorded game again, or check it and print its outcome",
        description="Open a diamant-record/1 game record in this terminal and watch the game "
        "again step by step: forward and back, jump to a round, or let it play at a chosen "
        "speed. With --json or --summary the outcome is printed instead. Every step of the "
        "record is checked first. Exit status: 0 when the record is good; 1 when the file "
        "cannot be read or is not a valid record (a step breaks the rules, its result "
        "disagrees with the replay), in every mode, or when the replay screen stops on an "
        "error; 2 when the command cannot run as given (an unknown --lang; the screen with "
        "no terminal, or with its record on standard input).",
    )
    parser.add_argument("file", metavar="FILE",
                        help="the record (JSON); - reads standard input (with --json or --summary)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--json",
        action="store_true",
        help='print {"scores", "winners", "chests", "relics"} as JSON',
    )
    shown.add_argument("--summary", action="store_true",
                       help="print a short account of the game (rounds, scores, winners)")
    parser.add_argument("--lang", help=f"language of the replay screen: {', '.join(LANGUAGES)} "
                        "(default: from LC_ALL, LC_MESSAGES or LANG)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Watch ``args.file`` again, or print its outcome; errors go to standard error."""
    if not (args.json or args.summary):
        return watch(args)
    try:
        replay = _load(args.file)
    except _BadFile as exc:
        print(printable(f"diamant replay: {exc}"), file=sys.stderr)
        return BAD_FILE
    if args.json:
        print(json.dumps(replay.outcome(), ensure_ascii=False))
    else:
        print(printable(summary(replay)))
    return 0


def printable(text: str) -> str:
    """``text`` with every control or formatting character but the newline written as an
    escape (``\\x1b``): a record's names are as its file holds them, and one edited to
    hold an escape must not reach the terminal as it is (the screen shows them safely)."""
    return "".join(
        ch if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf")
        else (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        for ch in text)


def watch(args: argparse.Namespace) -> int:
    """Open the replay screen on ``args.file``; anything in the way is one line, with
    status 1 for a bad file (as the printing modes) and 2 for a command that cannot run."""
    try:
        replay = _watchable(args)
    except _BadFile as exc:
        print(printable(f"diamant replay: {exc}"), file=sys.stderr)
        return BAD_FILE
    except _CannotWatch as exc:
        print(printable(f"diamant replay: {exc}"), file=sys.stderr)
        return CANNOT_RUN
    from ..ui import DiamantApp  # only here: the printing modes need no interface

    app = DiamantApp(lang=args.lang, replay=replay)
    app.run()
    return app.return_code or 0  # 1 when the app stopped on an error


def _watchable(args: argparse.Namespace) -> Replay:
    """The checked record of ``args.file``, once sure the screen can show it."""
    try:
        args.lang = parse_language(args.lang) if args.lang else detect_language()
    except UnknownLanguage as exc:
        raise _CannotWatch(f"--lang: {exc}") from None
    if args.file == "-":
        raise _CannotWatch(
            "the replay screen reads its keys from standard input, so the record cannot "
            "come from there: give its file name, or add --json or --summary to print "
            "the outcome."
        )
    replay = _load(args.file)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise _CannotWatch(
            f"{args.file}: the replay screen needs a terminal; add --summary or --json "
            "to print the outcome instead."
        )
    return replay


def _load(path: str) -> Replay:
    """The checked record in the file ``path`` (``-``: standard input); raises _BadFile
    saying what was wrong and what to do."""
    try:
        return read_record(_read(path))
    except _Unreadable as exc:
        raise _BadFile(f"{path}: {exc} {exc.hint}") from None
    except RecordError as exc:
        raise _BadFile(f"{path}: {exc} {BAD_RECORD_HINT}") from None


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, encoding="utf-8") as file:
            return file.read()
    except UnicodeDecodeError:
        raise RecordError("not a record: the file is not UTF-8 text.") from None
    except IsADirectoryError:
        raise _Unreadable("cannot read the file: it is a folder.", FOLDER_HINT) from None
    except OSError as exc:
        raise _Unreadable(f"cannot read the file: {exc.strerror or exc}.") from None


def summary(replay: Replay) -> str:
    """A readable account: rules and players, how each round ended, scores and winners."""
    game = replay.game
    names = game.names
    played = len(game.round_results)
    rounds = game.config.rounds
    state = "finished" if replay.finished else f"unfinished, {played} of {rounds} rounds over"
    lines = [f"{game.rules.value}, {len(names)} players ({', '.join(names)}): {state}."]
    for result in game.round_results:
        if result.disaster is not None:
            ending = f"disaster at card {result.cards} (the {result.disaster.value} again)"
        else:
            cards = "1 card" if result.cards == 1 else f"{result.cards} cards"
            ending = f"everyone left after {cards}"
        banked = ", ".join(f"{names[s]} {b}" for s, b in enumerate(result.banked))
        lines.append(f"Round {result.round}: {ending}; banked: {banked}.")
    if game.phase in (Phase.REVEAL, Phase.DECISION) and game.step:
        inside = ", ".join(names[s] for s in game.players_in_cave)
        lines.append(
            f"Round {game.round}: stops after card {game.step} with {inside} still in the cave."
        )
    if not replay.finished:
        lines.append("Scores count only what is banked (chests and relics taken).")
    ranking = sorted(range(len(names)), key=lambda s: (-game.score(s), s))
    # Measured in terminal cells: a CJK letter takes two.
    width = max(cell_len(n) for n in names)
    lines.append("Scores:")
    for s in ranking:
        relics = sum(game.relics[s])
        detail = f" (chest {game.chest[s]}, relics {relics})" if relics else ""
        pad = " " * (width - cell_len(names[s]))
        lines.append(f"  {names[s]}{pad}  {game.score(s):>3}{detail}")
    leaders = ", ".join(names[s] for s in game.winners())
    if not replay.finished:
        lines.append(f"Leading: {leaders}")
    elif len(game.winners()) > 1:
        lines.append(f"Winners (tied): {leaders}")
    else:
        lines.append(f"Winner: {leaders}")
    return "\n".join(lines)
