"""``diamant serve``: host Diamant tables over SSH.

Players join with ``ssh -p PORT HOST`` (the lobby) or ``ssh -t -p PORT HOST play NAME``.
SIGTERM or Ctrl-C stops the server cleanly: everyone is told, games in progress are saved.
Whatever the load, the process ends within a few seconds of the signal
(:func:`stop_deadline`): a service manager never has to kill it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import threading
from typing import NoReturn

from .config import ConfigError, ServerConfig, add_arguments, load
from .eventlog import setup_logging
from .folder_lock import FolderLockError
from .hostkey import HostKeyError
from .storage import StorageError

log = logging.getLogger("diamant_server")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand to ``diamant``."""
    parser = subparsers.add_parser(
        "serve",
        help="host games over SSH",
        description="Host Diamant tables over SSH: a lobby, tables for people and computer "
        "players, spectators and chat. Every setting can also be given as an environment "
        "variable or in a TOML file (--config), with the same name.",
    )
    add_arguments(parser)
    parser.add_argument("--check", action="store_true",
                        help="check the settings, the data folder, the host key and the "
                        "ports, say what the server would do, and exit (status 0: it would "
                        "start; 1: the one line printed says what stops it)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until SIGTERM or Ctrl-C; returns the exit status."""
    checking = getattr(args, "check", False)
    try:
        config = load(args)
    except ConfigError as exc:
        sys.stderr.write(f"{'Check failed' if checking else 'Error starting server'}: {exc}\n")
        return 1
    if checking:
        return _check(config)
    setup_logging(config.log_level, config.log_format)
    try:
        status = asyncio.run(_serve(config))
    except KeyboardInterrupt:
        return 130
    exit_at_once(status)


def exit_at_once(status: int) -> NoReturn:
    """End the process once the server has stopped, without the interpreter's teardown.

    By then every table is saved, the database closed and the sessions gone. The teardown
    would only free the process's objects one by one, millions with hundreds of seats:
    ``benchmarks/load.py --seats 100`` took 1.7 s from the signal to the exit with it,
    0.6 s without, and a service manager waits for the exit before starting the server
    again. The log and the standard streams are flushed first."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # closed or gone: nothing more can be said on it
    os._exit(status)


def _check(config: ServerConfig) -> int:
    from .check import CheckFailed, check

    try:
        lines = check(config)
    except CheckFailed as exc:
        sys.stderr.write(f"Check failed: {exc}\n")
        return 1
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


def start_lines(config: ServerConfig, server) -> list[str]:
    """What ``diamant serve`` prints once it listens: where, the host key as players'
    ssh shows it, the data folder, and the command that joins at each address."""
    from .addresses import fingerprint_line, join_commands

    host = config.host or "every address"
    return [
        f"Diamant server listening on {host} port {server.port}",
        fingerprint_line(server.host_key),
        f"Data folder: {config.data_path}",
        "Join with:",
        *(f"  {command}" for command in
          join_commands(server.listening(), server.port, config.public_host)),
    ]


def stop_deadline(config: ServerConfig) -> float:
    """Seconds from SIGTERM to the end of the process, at most: the stop's own bounded
    waits (three graces and a second), and a little more for the rest."""
    return 3 * config.stop_grace + 5.0


class _Watchdog:
    """Ends the process if stopping overruns its deadline.

    A signal reaches the event loop only between its callbacks, and one app working
    through a long backlog can hold the loop for minutes: so the signal is taken by a
    plain signal handler (run by the interpreter at once), and a thread ends the process
    if the loop has not finished stopping in time.
    """

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.saved = False
        """Whether the games in progress were saved (the stop got that far)."""
        self._timer: threading.Timer | None = None

    def start(self) -> None:
        if self._timer is None:
            self._timer = threading.Timer(self.deadline, self._give_up)
            self._timer.daemon = True
            self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _give_up(self) -> None:
        saved = ("games in progress were saved" if self.saved
                 else "games in progress may not have been saved")
        try:
            sys.__stderr__.write(
                f"Diamant server: not stopped {self.deadline:g} s after the signal (too busy); "
                f"exiting now ({saved}).\n")
            sys.__stderr__.flush()
        finally:
            os._exit(0 if self.saved else 1)


async def _serve(config: ServerConfig) -> int:
    from .check import CheckFailed, preflight
    from .server import GameServer  # imports Textual: only once the flags are read

    server = GameServer(config)
    try:
        # What --check checks, first: the same sentence for the same problem, and
        # nothing made in the data folder by a start that cannot go on.
        preflight(config)
        await server.start()
    except (CheckFailed, OSError, HostKeyError, ValueError, StorageError,
            FolderLockError) as exc:
        sys.stderr.write(f"Error starting server: {exc}\n")
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    watchdog = _Watchdog(stop_deadline(config))

    def stop_requested(signum: int, frame: object) -> None:
        watchdog.start()
        loop.call_soon_threadsafe(stop.set)

    # Taken before the server says it listens: whoever stops it as soon as it does (a
    # service manager, a script) gets the clean stop, not Python's default ending.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop_requested)
    sys.stdout.write("".join(line + "\n" for line in start_lines(config, server)))
    sys.stdout.flush()
    try:
        await stop.wait()
        log.info("stop requested")
        saved = await server.stop()
        watchdog.saved = True
        for name in saved:
            log.info("table %r saved as it was, to be rebuilt at the next start", name)
        # Sessions still ending are cut when asyncio.run cancels the tasks left.
    except BaseException:
        watchdog.cancel()
        raise
    return 0
