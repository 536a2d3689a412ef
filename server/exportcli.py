"""``diamant export``: the games a server kept, as ``diamant-record/1`` files.

``diamant export --list`` lists the games in the server's database; ``diamant export
GAME_ID`` writes one of them as a record file (whole or not at all), which ``diamant
replay`` reads. It reads the database of a running server safely (SQLite's WAL mode).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from diamant_tui.engine.record import record_to_json

from .columns import aligned
from .config import ConfigError, add_data_folder_arguments, load
from .records import followed, is_special_file, write_atomically
from .storage import GameSummary, Storage, StorageError, database_file, refused_target


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``export`` subcommand to ``diamant``."""
    parser = subparsers.add_parser(
        "export",
        help="write a game the server kept as a record file",
        description="List the games a Diamant server kept (--list), or write one of them as a "
        "diamant-record/1 file that `diamant replay` reads. Works while the server runs.",
    )
    parser.add_argument("game", nargs="?", metavar="GAME_ID",
                        help="the game to write (its id, as --list shows it)")
    parser.add_argument("--list", action="store_true", help="list the games kept, latest first")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="the file to write (default: game-GAME_ID.json in the current "
                             "folder, never written over; - for standard output)")
    add_data_folder_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List the games or write one; returns the exit status (1, with one line on standard
    error, when it cannot)."""
    try:
        if args.list == (args.game is not None):
            raise _Refused("give either GAME_ID (the game to write) or --list (to see the "
                           "games kept), not both")
        # Found as `diamant serve` and `diamant backup` find it: the flag, the variable,
        # then the settings file (a systemd unit names it with DIAMANT_CONFIG).
        folder = load(args).data_path
        storage = Storage.open(folder, create=False)
        try:
            if args.list:
                _print_list(asyncio.run(storage.games()), storage.path)
            else:
                _export(storage, args.game, args.output)
        finally:
            storage.close()
    except (_Refused, StorageError, ConfigError) as exc:
        sys.stderr.write(f"diamant export: {exc}\n")
        return 1
    return 0


class _Refused(Exception):
    """Something asked of ``diamant export`` that it cannot do; the message says why."""


def _game_id(text: str) -> int | None:
    """The game ``text`` names (None: a number past any game id)."""
    # ASCII digits only: str.isdigit also takes '²', which int() refuses.
    if not (text.isascii() and text.isdigit()) or not text.strip("0"):
        raise _Refused(f"{text!r} is not a game id: give the number --list shows")
    digits = text.lstrip("0")
    # Ids stop at 2**63 - 1 (19 digits); a longer number is no game, and past 4300
    # digits Python would not even read it.
    return None if len(digits) > 19 else int(digits)


def _export(storage: Storage, game: str, output: str | None) -> None:
    game_id = _game_id(game)
    record = None if game_id is None else asyncio.run(storage.game_record(game_id))
    if record is None:
        shown = game if len(game) <= 30 else game[:20] + "..."
        raise _Refused(f"there is no game {shown} in {storage.path}; "
                       f"`diamant export --list` lists the games kept")
    if output is not None and not output.strip():
        # (It wrote over an existing game-N.json, which no -o at all refuses to do.)
        raise _Refused("-o needs the name of the file to write (or - for standard output)")
    text = record_to_json(record)
    if output == "-":
        _to_standard_output(text)
        return
    path = Path(output) if output else Path(f"game-{game_id}.json")
    # The record put in the database's place would leave a running server writing to a
    # file no longer in its folder, and the next start would find JSON there.
    which = database_file(path, storage.path.parent)
    if which is not None:
        raise _Refused(refused_target(path, which, storage.path,
                                      "the games are read from"))
    if output is None and path.exists():
        raise _Refused(f"{path} exists already; choose another file with -o FILE")
    try:
        if is_special_file(path):
            # A pipe or a device (/dev/stdout, /dev/null): written into, as a shell's
            # redirection writes. Renamed over, it would be replaced by a regular file.
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
        else:
            write_atomically(followed(path), text)
    except OSError as exc:
        raise _Refused(f"cannot write {path}: {exc.strerror or exc}") from None
    sys.stderr.write(f"game {game_id} written to {path}\n")


def _to_standard_output(text: str) -> None:
    """Write ``text`` to standard output, and flush it: a full disk behind a redirection,
    or a pipe closed early, is said in one line (a :class:`_Refused`), not a traceback."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as exc:
        # What could not be written stays in the buffer: it goes nowhere, rather than
        # fail again (a traceback) as the program exits and flushes it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise _Refused(f"cannot write to standard output: {exc.strerror or exc}") from None


def _print_list(games: list[GameSummary], database: Path) -> None:
    if not games:
        _to_standard_output(f"No games kept in {database} yet.\n")
        return
    rows = [("ID", "STARTED (UTC)", "TABLE", "RULES", "STATE", "PLAYERS")]
    for game in games:
        rows.append((str(game.id), game.started.replace("T", " ").removesuffix("Z")[:16],
                     game.table, game.rules, "finished" if game.finished else "unfinished",
                     ", ".join(game.players)))
    _to_standard_output("".join(line + "\n" for line in aligned(rows, right=1)))
