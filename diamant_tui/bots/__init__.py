"""Computer players, named ``NAME`` or ``NAME:PARAM`` everywhere (command line, setup, README).

``make_bot("carry:20", seed=1)`` builds one; :data:`BOTS` lists every name with its
parameter's meaning and default.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from .base import Bot
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


BOTS: dict[str, BotKind] = {}


def register(kind: BotKind) -> None:
    """Make a kind of computer player available by name."""
    BOTS[kind.name] = kind


register(BotKind("cards", "leaves after N cards of the round", "N", 6,
                 lambda p, rng: CardsBot(int(p)), low=1, high=40))
register(BotKind("carry", "leaves when carrying at least X rubies", "X", 20,
                 lambda p, rng: CarryBot(int(p)), low=1, high=200))
register(BotKind("hazards", "leaves when K distinct hazards show", "K", 2,
                 lambda p, rng: HazardsBot(int(p)), low=1, high=5))
register(BotKind("random", "leaves with probability P after each card", "P", 0.2,
                 lambda p, rng: RandomBot(float(p), rng), integer=False, low=0, high=1))


def parse_spec(spec: str) -> tuple[BotKind, float | None]:
    """Split ``NAME[:PARAM]`` into its kind and checked parameter."""
    name, _, raw = str(spec).strip().partition(":")
    kind = BOTS.get(name)
    if kind is None:
        raise BotSpecError(
            f"unknown computer player {spec!r}; choose one of {', '.join(BOTS)} "
            "(with :PARAM where it takes one, e.g. carry:20)."
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


def make_bot(spec: str, seed: int | None = None, rng: random.Random | None = None) -> Bot:
    """Build the computer player named ``spec``; its randomness comes from ``seed``/``rng``."""
    kind, param = parse_spec(spec)
    return kind.build(param, rng if rng is not None else random.Random(seed))


from .ev import EvBot  # noqa: E402  (kept here, with their registrations, after the simple ones)
from .expert import ExpertBot  # noqa: E402
from .risk import RiskBot  # noqa: E402

register(BotKind("risk", "weighs the chance of disaster against the rubies carried", "F", 1.0,
                 lambda p, rng: RiskBot(float(p)), integer=False, low=0, high=100))
register(BotKind("ev", "expected value of one more card, counting path rubies and relics",
                 "F", 1.0, lambda p, rng: EvBot(float(p)), integer=False, low=0, high=100))

register(BotKind("expert", "plays the round out many times against what it learned of the others",
                 None, None, lambda p, rng: ExpertBot(rng=rng)))


__all__ = ["BOTS", "Bot", "BotKind", "BotSpecError", "make_bot", "parse_spec", "register"]
