"""Computer players, named ``NAME`` or ``NAME:PARAM`` everywhere (command line, setup, README).

``make_bot("carry:20", seed=1)`` builds one; :data:`BOTS` lists every name with its
parameter's meaning and default.

Each computer player has a small personality of its own: its parameter is drawn, from its
own random generator, within a narrow range around the named one (``carry:20`` leaves at
15 to 25 rubies, ``risk`` has a caution of 0.7 to 1.3). Two players of the same name at a
table therefore do not play as one, while the range keeps the strength the name stands
for. ``exact=True`` builds the named rule itself, for the reference figures of
``diamant sim --exact`` and for tests.
"""

from __future__ import annotations

import inspect
import math
import random
from dataclasses import dataclass
from typing import Callable

from .base import Bot
from .outside import (
    BotFailure,
    BotLoadError,
    build,
    check_built,
    checked_decision,
    entry_point_names,
    load_class,
    looks_outside,
)
from .simple import CardsBot, CarryBot, HazardsBot, RandomBot


class BotSpecError(ValueError):
    """A computer player name that cannot be read; the message says what is allowed."""


@dataclass(frozen=True)
class BotKind:
    """One kind of computer player and how to build it from its parameter."""

    name: str
    summary: str
    param: str | None
    """What the parameter means, or None when the bot takes none."""
    default: float | None
    build: Callable[[float | None, random.Random], Bot]
    integer: bool = True
    low: float = 0
    high: float = 1000
    spread: float = 0.0
    """How far one player's own parameter may be from the named one, as a share of it."""

    def personal_range(self, param: float) -> tuple[int, int, int] | None:
        """``(first, last, unit)``: a player's own parameter is ``k / unit`` for a whole ``k``
        from ``first`` to ``last``, all equally likely; None when it keeps ``param`` as is.

        Non-integer parameters go in hundredths, so that the parameter a player drew reads
        back exactly from its name (``risk:1.13``).
        """
        if self.spread <= 0:
            return None
        unit = 1 if self.integer else 100
        low = max(self.low, param * (1 - self.spread)) * unit
        high = min(self.high, param * (1 + self.spread)) * unit
        first, last = math.ceil(low - 1e-9), math.floor(high + 1e-9)
        return (first, last, unit) if first < last else None

    def personal(self, param: float, rng: random.Random) -> float:
        """One player's own parameter, drawn from ``rng`` around the named ``param``."""
        found = self.personal_range(param)
        if found is None:
            return param
        first, last, unit = found
        k = rng.randint(first, last)
        return k if self.integer else k / unit


BOTS: dict[str, BotKind] = {}


def register(kind: BotKind) -> None:
    """Make a kind of computer player available by name."""
    BOTS[kind.name] = kind


register(BotKind("cards", "leaves after N cards of the round", "N", 6,
                 lambda p, rng: CardsBot(int(p)), low=1, high=40, spread=0.25))
register(BotKind("carry", "leaves when carrying at least X rubies", "X", 20,
                 lambda p, rng: CarryBot(int(p)), low=1, high=200, spread=0.25))
register(BotKind("hazards", "leaves when K distinct hazards show", "K", 2,
                 lambda p, rng: HazardsBot(int(p)), low=1, high=5, spread=0.25))
register(BotKind("random", "leaves with probability P after each card", "P", 0.2,
                 lambda p, rng: RandomBot(float(p), rng), integer=False, low=0, high=1))


def parse_spec(spec: str) -> tuple[BotKind, float | None]:
    """Split ``NAME[:PARAM]`` into its kind and checked parameter.

    A player from outside (``file.py:Class``, ``module:Class`` or an installed package's
    ``NAME``, see :mod:`.outside`) is loaded here, so a name that cannot be used is
    refused as early as a misspelt built-in one.
    """
    spec = str(spec).strip()
    name, _, raw = spec.partition(":")
    kind = BOTS.get(name)
    if kind is None and (looks_outside(name, raw) or (not raw and name in entry_point_names())):
        return _outside_kind(spec), None
    if kind is None:
        offered = entry_point_names()
        extra = f"; installed: {', '.join(offered)}" if offered else ""
        raise BotSpecError(
            f"unknown computer player {name!r}; known: {', '.join(BOTS)}{extra} "
            "(NAME, or NAME:PARAM where it takes one, e.g. carry:20; or your own class, "
            "as path/to/file.py:Class or module:Class)."
        )
    if kind.param is None:
        if raw:
            raise BotSpecError(f"computer player {name!r} takes no parameter (got {spec!r}).")
        return kind, None
    if not raw:
        return kind, kind.default
    try:
        value = int(raw) if kind.integer else float(raw)
    except ValueError:
        want = "a whole number" if kind.integer else "a number"
        raise BotSpecError(f"{spec!r}: {kind.param} must be {want}.") from None
    if not kind.low <= value <= kind.high:
        raise BotSpecError(
            f"{spec!r}: {kind.param} must be between {kind.low:g} and {kind.high:g}."
        )
    return kind, value


def _outside_kind(spec: str) -> BotKind:
    try:
        cls = load_class(spec)
        check_built(spec)
    except BotLoadError as exc:
        raise BotSpecError(str(exc)) from None
    summary = (inspect.getdoc(cls) or cls.__name__).splitlines()[0]
    return BotKind(spec, summary, None, None, lambda p, rng: build(spec, rng))


def parse_lineup(text: str) -> tuple[str, ...]:
    """Split a comma-separated list of computer players (``ev,risk,carry:20``) and check
    every one; the error names the player and its position in the list."""
    specs = tuple(part.strip() for part in str(text).split(","))
    if specs == ("",):
        raise BotSpecError(f"no computer player named; known: {', '.join(BOTS)}.")
    for position, spec in enumerate(specs, 1):
        if not spec:
            raise BotSpecError(
                f"computer player {position} of {len(specs)} is empty: separate the names "
                "with single commas, e.g. ev,risk,carry:20."
            )
        try:
            parse_spec(spec)
        except BotSpecError as exc:
            raise BotSpecError(f"computer player {position} of {len(specs)}: {exc}") from None
    return specs


def describe_kinds(indent: str = "  ") -> str:
    """One line per kind of computer player, for the command line's help."""
    return "\n".join(
        f"{indent}{kind.name + (':' + kind.param if kind.param else ''):12} {kind.summary}"
        + (f" (default {kind.default:g})" if kind.default is not None else "")
        for kind in BOTS.values()
    )


def personality_example() -> str:
    """How far players stray from their names, in two examples, for the command line's help."""
    carry_low, carry_high, _ = BOTS["carry"].personal_range(20) or (20, 20, 1)
    risk_low, risk_high, unit = BOTS["risk"].personal_range(1.0) or (1, 1, 1)
    return (f"carry:20 leaves at {carry_low} to {carry_high} rubies, risk has a caution of "
            f"{risk_low / unit:g} to {risk_high / unit:g}")


def make_bot(spec: str, seed: int | None = None, rng: random.Random | None = None,
             *, exact: bool = False) -> Bot:
    """Build the computer player named ``spec``; its randomness comes from ``seed``/``rng``.

    It first draws its own parameter around the named one (see the module docstring),
    unless ``exact``: then it plays the named rule exactly.
    """
    kind, param = parse_spec(spec)
    rng = rng if rng is not None else random.Random(seed)
    if param is not None and not exact:
        param = kind.personal(param, rng)
    try:
        return kind.build(param, rng)
    except BotLoadError as exc:
        raise BotSpecError(str(exc)) from None


from .ev import EvBot  # noqa: E402  (kept here, with their registrations, after the simple ones)
from .expert import ExpertBot  # noqa: E402
from .risk import RiskBot  # noqa: E402

register(BotKind("risk", "weighs the chance of disaster against the rubies carried", "F", 1.0,
                 lambda p, rng: RiskBot(float(p)), integer=False, low=0, high=100, spread=0.3))
register(BotKind("ev", "expected value of one more card, counting path rubies and relics",
                 "F", 1.0, lambda p, rng: EvBot(float(p)), integer=False, low=0, high=100,
                 spread=0.3))

register(BotKind("expert", "plays the round out many times against what it learned of the others",
                 None, None, lambda p, rng: ExpertBot(rng=rng)))


__all__ = ["BOTS", "Bot", "BotFailure", "BotKind", "BotSpecError", "checked_decision", "describe_kinds", "make_bot",
           "parse_lineup", "parse_spec", "personality_example", "register"]
