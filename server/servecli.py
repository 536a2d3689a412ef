"""``diamant serve``: host Diamant tables over SSH.

Players join with ``ssh -p PORT HOST`` (the lobby) or ``ssh -t -p PORT HOST play NAME``.
SIGTERM or Ctrl-C stops the server cleanly: everyone is told, games in progress are saved.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from .config import ConfigError, ServerConfig, add_arguments, load
from .hostkey import HostKeyError
from .records import DataFolderError

log = logging.getLogger("server")


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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until SIGTERM or Ctrl-C; returns the exit status."""
    try:
        config = load(args)
    except ConfigError as exc:
        sys.stderr.write(f"Error starting server: {exc}\n")
        return 1
    _setup_logging(config.log_level)
    try:
        return asyncio.run(_serve(config))
    except KeyboardInterrupt:
        return 130


def _setup_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level.upper())
    # asyncssh logs every packet exchange at INFO; keep only its warnings.
    logging.getLogger("asyncssh").setLevel(max(logging.WARNING, root.level))


async def _serve(config: ServerConfig) -> int:
    from .server import GameServer  # imports Textual: only once the flags are read

    server = GameServer(config)
    try:
        await server.start()
    except (OSError, HostKeyError, ValueError, DataFolderError) as exc:
        sys.stderr.write(f"Error starting server: {exc}\n")
        return 1
    host = "localhost" if config.host in ("0.0.0.0", "::", "") else config.host
    port_flag = "" if server.port == 22 else f"-p {server.port} "
    sys.stdout.write(
        f"Diamant server listening on {config.host} port {server.port}\n"
        f"Host key fingerprint: {server.fingerprint}\n"
        f"Data folder: {config.data_path}\n"
        f"Join with: ssh {port_flag}{host}   (or: ssh -t {port_flag}{host} play TABLE)\n"
    )
    sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    log.info("stop requested")
    saved = await server.stop()
    for path in saved:
        log.info("saved %s", path)
    return 0
