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

from .config import ENV_PREFIX, data_dir_path, default_data_dir
from .records import write_atomically
from .storage import GameSummary, Storage, StorageError


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
    parser.add_argument("--data-dir", default=None,
                        help=f"the server's data folder (default: ${ENV_PREFIX}DATA_DIR, "
                             f"else {default_data_dir()})")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List the games or write one; returns the exit status (1, with one line on standard
    error, when it cannot)."""
    try:
        if args.list == (args.game is not None):
            raise _Refused("give either GAME_ID (the game to write) or --list (to see the "
                           "games kept), not both")
        folder = _data_folder(args.data_dir, os.environ)
        storage = Storage.open(folder, create=False)
        try:
            if args.list:
                _print_list(asyncio.run(storage.games()), storage.path)
            else:
                _export(storage, args.game, args.output)
        finally:
            storage.close()
    except (_Refused, StorageError) as exc:
        sys.stderr.write(f"diamant export: {exc}\n")
        return 1
    return 0


def _data_folder(flag: str | None, environ) -> Path:
    """The data folder, as ``diamant serve`` reads it: the flag, else the variable, else
    the default; an empty one is refused as ``serve`` refuses it."""
    for source, text in (("--data-dir", flag), (ENV_PREFIX + "DATA_DIR",
                                                environ.get(ENV_PREFIX + "DATA_DIR"))):
        if text is not None:
            try:
                return data_dir_path(text)
            except ValueError as exc:
                raise _Refused(f"{source}: {exc}") from None
    return default_data_dir()


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
    text = record_to_json(record)
    if output == "-":
        sys.stdout.write(text)
        return
    path = Path(output) if output else Path(f"game-{game_id}.json")
    if output is None and path.exists():
        raise _Refused(f"{path} exists already; choose another file with -o FILE")
    try:
        write_atomically(path, text)
    except OSError as exc:
        raise _Refused(f"cannot write {path}: {exc.strerror or exc}") from None
    sys.stderr.write(f"game {game_id} written to {path}\n")


def _print_list(games: list[GameSummary], database: Path) -> None:
    if not games:
        sys.stdout.write(f"No games kept in {database} yet.\n")
        return
    rows = [("ID", "STARTED (UTC)", "TABLE", "RULES", "STATE", "PLAYERS")]
    for game in games:
        rows.append((str(game.id), game.started.replace("T", " ").removesuffix("Z")[:16],
                     game.table, game.rules, "finished" if game.finished else "unfinished",
                     ", ".join(game.players)))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        cells = [row[0].rjust(widths[0])] + [c.ljust(w) for c, w in zip(row[1:5], widths[1:])]
        sys.stdout.write("  ".join(cells + [row[5]]) + "\n")
