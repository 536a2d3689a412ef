"""``diamant backup FILE``: a consistent copy of the server's database, while it runs.

It reads the same settings as ``diamant serve`` (``--data-dir``, ``--config``, the
``DIAMANT_*`` environment) to find the database, copies it with SQLite's online backup
(the server goes on writing meanwhile; the copy is the database as it was at one moment),
writes the copy whole or not at all, and says how to restore it. An existing FILE is
never written over, unless ``--force``; the database itself and the files SQLite keeps
beside it (``-wal``, ``-shm``) never are, by whatever name they are given. ``-`` is
standard output, as for ``diamant export``: a pipe gets the copy, a terminal is refused.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from .config import ConfigError, add_data_folder_arguments, load
from .logtext import counted
from .records import followed, is_special_file
from .storage import DATABASE, Storage, StorageError, database_file, refused_target


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``backup`` subcommand to ``diamant``."""
    parser = subparsers.add_parser(
        "backup",
        help="copy the server's database to a file, also while the server runs",
        description="Write a consistent copy of a Diamant server's database (games, "
        "players, ratings, bans, mutes) to FILE, also while the server runs, and say how to "
        "restore it. The database is found as `diamant serve` finds it.",
    )
    parser.add_argument("file", metavar="FILE", type=Path, help="the copy to write")
    parser.add_argument("--force", action="store_true",
                        help="write over FILE if it exists (without it, an existing FILE "
                             "is refused)")
    add_data_folder_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the copy; returns the exit status (1, with one line on standard error, when
    it cannot)."""
    if str(args.file) == "-":
        return _to_standard_output(args)
    target: Path = args.file
    try:
        config = load(args)
        # Before anything else, --force included: a copy put over the database a server
        # is writing to would leave it writing to files no longer in the folder, and
        # everything saved afterwards would be lost at its next start.
        which = database_file(target, config.data_path)
        if which is not None:
            raise _Refused(refused_target(target, which, config.data_path / DATABASE))
        if target.is_dir():
            raise _Refused(f"{target} is a folder: give the name of the file to write")
        if is_special_file(target):
            # Even forced: the copy renamed over a device or a pipe would replace it
            # (/dev/null itself, for root).
            raise _Refused(f"{target} is not a regular file (a device or a pipe): the copy "
                           f"is a file of its own; give - to send it to standard output "
                           f"(diamant backup - > {target})")
        if target.exists() and not args.force:
            raise _Refused(f"{target} exists already: choose another file, or add --force "
                           f"to write over it")
        if not target.parent.is_dir():
            raise _Refused(f"the folder {target.parent} does not exist: make it first")
        storage = Storage.open(config.data_path, create=False)
        try:
            summary = storage.backup(followed(target), replace=args.force)
        finally:
            storage.close()
    except FileExistsError:
        sys.stderr.write(f"diamant backup: {target} exists already: choose another file, "
                         f"or add --force to write over it\n")
        return 1
    except OSError as exc:
        sys.stderr.write(f"diamant backup: cannot write {target}: {exc.strerror or exc}\n")
        return 1
    except (ConfigError, StorageError, _Refused) as exc:
        sys.stderr.write(f"diamant backup: {exc}\n")
        return 1
    data = config.data_path
    live = data / DATABASE
    sys.stdout.write(
        f"Backed up {live} to {target}: {counted(summary.games, 'game')} "
        f"({summary.finished} finished), {max(1, round(summary.size / 1024))} KiB.\n"
        f"To restore it: stop the server, put the copy in place as {live} (without the "
        f"old -wal and -shm files beside it), then start the server:\n"
        f"  cp {shlex.quote(str(target))} {shlex.quote(str(live))}\n"
        f"  rm -f {shlex.quote(str(live) + '-wal')} {shlex.quote(str(live) + '-shm')}\n")
    return 0


def _to_standard_output(args: argparse.Namespace) -> int:
    """``diamant backup -``: the copy on standard output, as ``diamant export -o -``
    writes a record there, for a pipe (``| gzip > FILE``, ``| ssh elsewhere 'cat > FILE'``).
    The copy is made whole and checked in a temporary folder first, so what goes out is a
    whole database or nothing of it; what it holds and how to restore it go to standard
    error."""
    try:
        config = load(args)
        if sys.stdout.isatty():
            raise _Refused("standard output is a terminal, and the copy is a binary file: "
                           "send it to a file or a program (diamant backup - | gzip > "
                           "diamant.sqlite3.gz), or give the FILE to write")
        storage = Storage.open(config.data_path, create=False)
        try:
            with tempfile.TemporaryDirectory(prefix="diamant-backup-") as folder:
                copy = Path(folder) / DATABASE
                summary = storage.backup(copy)
                with open(copy, "rb") as source:
                    sys.stdout.flush()
                    shutil.copyfileobj(source, sys.stdout.buffer, 1 << 20)
                    sys.stdout.buffer.flush()
        finally:
            storage.close()
    except BrokenPipeError:
        # What reads it stopped early: it has only part of the copy, and must know.
        # Nothing more may go to the pipe, not even the flush at the exit (Python's
        # advice for a closed pipe: standard output pointed at devnull).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.stderr.write("diamant backup: standard output was closed before the whole "
                         "copy was written; what was written is not a backup\n")
        return 1
    except OSError as exc:
        sys.stderr.write(f"diamant backup: cannot make the copy: {exc.strerror or exc}\n")
        return 1
    except (ConfigError, StorageError, _Refused) as exc:
        sys.stderr.write(f"diamant backup: {exc}\n")
        return 1
    live = config.data_path / DATABASE
    sys.stderr.write(
        f"Backed up {live} to standard output: {counted(summary.games, 'game')} "
        f"({summary.finished} finished), {max(1, round(summary.size / 1024))} KiB.\n"
        f"To restore it: stop the server, put the copy in place as {live} (without the "
        f"old -wal and -shm files beside it), then start the server.\n")
    return 0


class _Refused(Exception):
    """Something asked of ``diamant backup`` that it cannot do; the message says why."""
