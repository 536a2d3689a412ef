"""The ``diamant`` command and its subcommands.

Each subcommand lives in its own module, which exposes ``register(subparsers)``; it is
imported here so that ``diamant --help`` lists them all.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from .. import __version__

SUBCOMMANDS = (
    "diamant_tui.cli.play",
    "diamant_tui.cli.sim",
    "diamant_tui.cli.replay",
    "diamant_server.servecli",
    "diamant_server.exportcli",
    "diamant_server.backupcli",
    "diamant_server.banscli",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="diamant",
        description="Diamant, the push-your-luck cave game: play in the terminal, "
        "host games over SSH, simulate computer players and replay game records.",
    )
    parser.add_argument("--version", action="version", version=f"diamant {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``diamant``; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """The program reading the output stopped (``| head``): end quietly, as a program
    stopped by SIGPIPE does, its status 128 + 13."""
    # Python flushes standard output once more on the way out, which would fail again
    # with a message of its own: let that flush go nowhere.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141


if __name__ == "__main__":
    sys.exit(main())
