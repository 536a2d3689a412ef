"""The commands a client may give after the host: ``play``, ``watch`` and ``resume``.

``ssh -t host play NAME [--rules R] [--seats N] [--bots K]`` joins table NAME (creating it
with N seats, K of them for computer players and the rest for people),
``ssh -t host watch NAME`` watches it, ``ssh -t host resume CODE`` gives a guest their seat
back. Anything else gets a message listing these.
"""

from __future__ import annotations

import argparse
import functools
import shlex
from dataclasses import dataclass

from diamant_tui.engine.cards import Rules

USAGE = (
    "commands: play NAME [--rules classic|relics|relic-variant] [--seats 3-8] [--bots K], "
    "watch NAME, resume CODE (or no command for the lobby)"
)


class CommandError(ValueError):
    """A command that cannot be read; the message says what is allowed."""


@dataclass(frozen=True)
class Command:
    """What a client asked for. ``verb`` is play, watch or resume."""

    verb: str
    name: str
    rules: Rules = Rules.CLASSIC
    seats: int = 4
    bots: int = 0
    """Seats kept for computer players from the start; the others wait for people."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # never exit the server or print usage
        raise CommandError(message)


@functools.cache
def _play_parser() -> _Parser:
    # Made once: it keeps nothing from one command to the next (each gets a namespace of
    # its own), and making it was about 1 % of a join's CPU.
    parser = _Parser(prog="play", add_help=False, exit_on_error=False)
    parser.add_argument("name")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--bots", type=int, default=0)
    return parser


def parse_command(text: str) -> Command:
    """Read a client's command line; raises :class:`CommandError` with a clear message."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise CommandError(f"cannot read the command ({exc}); {USAGE}") from None
    if not words:
        raise CommandError(USAGE)
    verb, args = words[0].lower(), words[1:]
    if verb in ("watch", "resume"):
        if len(args) != 1:
            raise CommandError(f"{verb} takes one word: {verb} {'NAME' if verb == 'watch' else 'CODE'}")
        return Command(verb, args[0])
    if verb != "play":
        raise CommandError(f"unknown command {words[0][:20]!r}; {USAGE}")
    try:
        ns = _play_parser().parse_args(args)
    except (CommandError, argparse.ArgumentError) as exc:
        raise CommandError(f"play: {exc}; {USAGE}") from None
    try:
        rules = Rules.parse(ns.rules)
    except ValueError as exc:
        raise CommandError(f"play: {exc}") from None
    if not 3 <= ns.seats <= 8:
        raise CommandError(f"play: --seats {ns.seats}: a table has 3 to 8 seats")
    if not 0 <= ns.bots < ns.seats:
        raise CommandError(
            f"play: --bots {ns.bots}: between 0 and {ns.seats - 1} computer players, "
            "so that at least one seat is yours")
    return Command("play", ns.name, rules, ns.seats, ns.bots)


def without_secrets(text: str) -> str:
    """A client's command as it may be logged: ``resume CODE`` without its code (a code
    gives a seat), every other command as it is."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if words and words[0].strip("'\"").lower() == "resume":
        return "resume ******"
    return text
