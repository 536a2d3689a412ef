"""The commands a client may give after the host: ``play``, ``watch`` and ``resume``.

``ssh -t host play NAME [--rules R] [--seats N] [--bots K] [--private]`` joins table NAME
(creating it with N seats, K of them for computer players and the rest for people, listed
in nobody else's lobby with ``--private``), ``ssh -t host play``
alone seats the person at the next game (as "play now" in the lobby),
``ssh -t host watch NAME`` watches it, ``ssh -t host resume CODE`` gives a guest their seat
back, ``ssh host help`` (or ``--help``, ``-h``) lists them. Anything else gets a message
listing these, in the client's language.
"""

from __future__ import annotations

import argparse
import functools
import shlex
from dataclasses import dataclass

from diamant_tui.engine.cards import Rules
from diamant_tui.i18n import Translator

_ENGLISH = Translator("en")
"""The English text of a refusal, for ``str()`` and the log (each person reads their own)."""
SHOWN_MAX = 20
"""Characters of a word the person typed that an answer quotes back (as Python quotes a
string: control characters escaped, so nothing typed acts on the terminal)."""
HELP_WORDS = ("help", "--help", "-h")
"""The words that ask for the list of commands (anything after them is not read)."""


class CommandError(ValueError):
    """A command that cannot be read; the message says what is allowed.

    ``key`` and ``fmt`` name its text in the catalogues, so each person reads it in their
    own language (:meth:`text`); ``str()`` is the English text.
    """

    def __init__(self, key: str, **fmt: object) -> None:
        super().__init__(_ENGLISH(key, **_with_usage(_ENGLISH, fmt)))
        self.key, self.fmt = key, fmt

    def text(self, t) -> str:
        """The message in the language of ``t`` (a translator)."""
        return t(self.key, **_with_usage(t, self.fmt))


def _with_usage(t, fmt: dict) -> dict:
    # Every message may end with the list of commands, in its own language. The rule
    # sets are given, not written in the catalogue: "|" there separates plural forms.
    rules = "|".join(rules.value for rules in Rules)
    return {**fmt, "usage": t("command.usage", rules=rules)}


def _quoted(word: str) -> str:
    """A word the person typed, as an answer shows it (see :data:`SHOWN_MAX`)."""
    return repr(word[:SHOWN_MAX])


@dataclass(frozen=True)
class Command:
    """What a client asked for. ``verb`` is play, watch, resume or help (the list of
    commands, answered by the session itself: no app is made for it); ``play`` with no
    ``name`` is :attr:`play_now`."""

    verb: str
    name: str
    rules: Rules = Rules.CLASSIC
    seats: int = 4
    bots: int = 0
    """Seats kept for computer players from the start; the others wait for people."""
    private: bool = False
    """The table, if the command opens it, is private (``--private``): reached by its
    name only, listed in no stranger's lobby."""
    chosen: bool = False
    """The command set up the table (``--rules``, ``--seats``, ``--bots`` or
    ``--private`` given): a table of that name already open is joined as it is, and the
    person told so."""

    @property
    def play_now(self) -> bool:
        """``play`` with no table named: a seat at the next game, wherever it is."""
        return self.verb == "play" and not self.name


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # never exit the server or print usage
        raise CommandError("command.play_unreadable")


@functools.cache
def _play_parser() -> _Parser:
    # Made once: it keeps nothing from one command to the next (each gets a namespace of
    # its own), and making it was about 1 % of a join's CPU. The values are read here,
    # not by argparse, whose messages are English only.
    parser = _Parser(prog="play", add_help=False, exit_on_error=False)
    parser.add_argument("name", nargs="?")
    parser.add_argument("--rules")
    parser.add_argument("--seats")
    parser.add_argument("--bots")
    parser.add_argument("--private", action="store_true")
    return parser


def parse_command(text: str) -> Command:
    """Read a client's command line; raises :class:`CommandError` with a clear message."""
    try:
        words = shlex.split(text)
    except ValueError:
        raise CommandError("command.unreadable") from None
    if not words:
        raise CommandError("command.usage_only")
    verb, args = words[0].lower(), words[1:]
    if verb in HELP_WORDS:
        return Command("help", "")
    if verb in ("watch", "resume"):
        if len(args) != 1:
            raise CommandError(f"command.{verb}_one_word")
        return Command(verb, args[0])
    if verb != "play":
        raise CommandError("command.unknown", command=_quoted(words[0]))
    try:
        ns, extra = _play_parser().parse_known_args(args)
    except argparse.ArgumentError as exc:
        if exc.argument_name == "--private":  # given a value (--private=yes)
            raise CommandError("command.play_flag", option=exc.argument_name) from None
        if exc.argument_name:  # an option without its value (the only kind left)
            raise CommandError("command.play_value", option=exc.argument_name) from None
        raise CommandError("command.play_unreadable") from None
    if extra:
        raise CommandError("command.play_extra", words=_quoted(" ".join(extra)))
    chosen = ns.private or any(value is not None for value in (ns.rules, ns.seats, ns.bots))
    if ns.name is None:
        if chosen:  # they set up a table of the person's own, which needs a name
            raise CommandError("command.play_name")
        return Command("play", "")
    try:
        rules = Rules.parse(ns.rules or Rules.CLASSIC.value)
    except ValueError:
        raise CommandError("command.play_rules", value=_quoted(ns.rules)) from None
    seats = _number("--seats", ns.seats or str(Command.seats))
    bots = _number("--bots", ns.bots or str(Command.bots))
    if not 3 <= seats <= 8:
        raise CommandError("command.play_seats", seats=seats)
    if not 0 <= bots < seats:
        raise CommandError("command.play_bots", bots=bots, most=seats - 1)
    return Command("play", ns.name, rules, seats, bots, ns.private, chosen)


def help_text(t, ssh: str) -> str:
    """The list of commands, as ``help`` answers it, in the language of ``t`` (a
    translator), lines ending with ``\\n``; ``ssh`` is the command that reaches the lobby."""
    rules = "|".join(rules.value for rules in Rules)
    return t("command.help", rules=rules, ssh=ssh) + "\n"


def _number(option: str, value: str) -> int:
    """The whole number given to ``option``; raises :class:`CommandError` otherwise."""
    try:
        return int(value)
    except ValueError:
        raise CommandError("command.play_number", option=option, value=_quoted(value)) from None


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
