"""``diamant bans``: the bans in force, and a ban lifted from the host's shell.

Bans are made and lifted on the admin screen (``a`` in the lobby). That screen is out of
reach of an admin whose own key or address is banned (the ban dialog warns, but an
address several admins share is easily banned with a guest's), and nothing else lifted
a ban short of editing the database by hand. This command reads the same settings as
``diamant serve`` (``--data-dir``, ``--config``, the ``DIAMANT_*`` environment) to find the
database, lists the bans in force, and with ``--lift`` lifts one.

A running server keeps its bans in memory (a connection is never kept waiting on the
disk): a ban lifted in the database under it would still be in force there, and written
back by nothing. So ``--lift`` is refused while a server holds the data folder (its
lock, :mod:`.folder_lock`), with what to do instead; listing works at any time.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import datetime, timezone
from pathlib import Path

from diamant_tui.names import clean_text

from .bans import ADDRESS, KEY, REASON_MAX, Ban, Bans, normal_address, normal_key
from .columns import aligned
from .config import ConfigError, add_data_folder_arguments, load
from .folder_lock import FolderInUse, check_free
from .storage import Storage, StorageError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bans`` subcommand to ``diamant``."""
    parser = subparsers.add_parser(
        "bans",
        help="list the server's bans, or lift one (with the server stopped)",
        description="List the bans in force on a Diamant server's keys and addresses, or "
        "lift one with --lift: an admin whose own key or address is banned cannot reach "
        "the admin screen to do it. The database is found as `diamant serve` finds it. "
        "A running server keeps its bans in memory: lift a ban on its admin screen, or "
        "stop it, lift the ban here, and start it again.",
    )
    parser.add_argument("--lift", metavar="KEY_OR_ADDRESS",
                        help="the key fingerprint (SHA256:..., as ssh-keygen -lf shows it) "
                             "or the address (such as 192.0.2.7) whose ban to lift")
    add_data_folder_arguments(parser)
    parser.set_defaults(run=run)


class _Refused(Exception):
    """Something asked of ``diamant bans`` that it cannot do; the message says why."""


def run(args: argparse.Namespace) -> int:
    """List the bans, or lift one; returns the exit status (1, with one line on standard
    error, when it cannot)."""
    try:
        folder = load(args).data_path
        if args.lift is not None:
            banned = _banned(args.lift)  # a mistyped value is said before anything else
            try:
                check_free(folder)
            except FolderInUse:
                raise _Refused(f"a Diamant server is running on {folder}, and it keeps its "
                               f"bans in memory: lift the ban on its admin screen (a in the "
                               f"lobby), or stop the server, run this again, and start "
                               f"it") from None
        storage = Storage.open(folder, create=False)
        try:
            if args.lift is None:
                _print_bans(asyncio.run(storage.bans()), storage.path)
            else:
                asyncio.run(_lift(storage, *banned))
        finally:
            storage.close()
    except (_Refused, StorageError, ConfigError) as exc:
        sys.stderr.write(f"diamant bans: {exc}\n")
        return 1
    return 0


def _banned(text: str) -> tuple[str, str]:
    """The kind and the usual form of what ``--lift`` names: a key or an address."""
    if text.strip().removeprefix("key:").upper().startswith("SHA256:"):
        try:
            return KEY, normal_key(text)
        except ValueError as exc:
            raise _Refused(f"--lift: {exc}") from None
    try:
        return ADDRESS, normal_address(text)
    except ValueError:
        raise _Refused(f"--lift: {text!r} is neither a key fingerprint (SHA256:..., as "
                       f"ssh-keygen -lf shows it) nor an IP address (such as 192.0.2.7 or "
                       f"2001:db8::7)") from None


async def _lift(storage: Storage, kind: str, value: str) -> None:
    bans = Bans(storage)
    await bans.load()  # (those over are forgotten on the way, as a start does)
    lifted, write = bans.remove(kind, value)
    if lifted is None:
        raise _Refused(f"no ban in force on the {kind} {value} in {storage.path}; "
                       f"`diamant bans` lists those in force")
    await write  # type: ignore[misc]  (a storage is given: there is a write)
    sys.stdout.write(f"Lifted the ban on the {kind} {value} (made {_shown(lifted.made)} "
                     f"by {lifted.by}). It is gone at the server's next start.\n")


def _shown(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _print_bans(saved: list, database: Path) -> None:
    now = datetime.now(timezone.utc)
    bans = [ban for ban in map(Ban.from_saved, saved) if not ban.over(now)]
    if not bans:
        sys.stdout.write(f"No bans in force in {database}.\n")
        return
    rows = [("KIND", "KEY OR ADDRESS", "UNTIL", "MADE", "BY", "REASON")]
    for ban in bans:
        # The reason was typed by an admin: shown as text, never as a terminal's codes.
        rows.append((ban.kind, ban.value, ban.until_text() or "for good", _shown(ban.made),
                     clean_text(ban.by, REASON_MAX), clean_text(ban.reason, REASON_MAX)))
    sys.stdout.write("".join(line.rstrip() + "\n" for line in aligned(rows)))
    sys.stdout.write("To lift one, with the server stopped: diamant bans --lift "
                     "KEY_OR_ADDRESS\n")


__all__ = ["register", "run"]
