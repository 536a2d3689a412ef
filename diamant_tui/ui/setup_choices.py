"""What the setup screen asks, its defaults, and the computer players per strength."""

from __future__ import annotations

import getpass
from dataclasses import dataclass, field, replace

from ..bots import BOTS, BotSpecError, parse_spec
from ..engine.cards import Rules
from ..table import TableSettings

TIMERS: tuple[float | None, ...] = (None, 15.0, 30.0, 60.0)
# For each strength, the computer players to use, best first: the first one that
# exists is chosen (stronger players are added to the registry over time).
LEVEL_CANDIDATES: dict[str, tuple[str, ...]] = {
    "beginner": ("cards:3", "random:0.3"),
    "easy": ("carry:20", "cards:6"),
    "medium": ("risk", "hazards:2", "carry:25"),
    "hard": ("ev", "carry:30"),
    "expert": ("expert",),
}
MIXED = "mixed"
CUSTOM = "custom"


def _exists(spec: str) -> bool:
    try:
        parse_spec(spec)
    except BotSpecError:
        return False
    return True


def levels() -> dict[str, str]:
    """Each available strength and the computer player that plays it."""
    found: dict[str, str] = {}
    seen: set[str] = set()
    for level, candidates in LEVEL_CANDIDATES.items():
        spec = next((c for c in candidates if _exists(c) and c not in seen), None)
        if spec is not None:
            found[level] = spec
            seen.add(spec)
    return found


def default_level() -> str:
    """The strength chosen by default: medium when it exists."""
    available = levels()
    for level in ("medium", "easy", "hard"):
        if level in available:
            return level
    return next(iter(available))


def default_name() -> str:
    """The person's name by default: the login name, or "you"."""
    try:
        return getpass.getuser()[:16] or "you"
    except Exception:  # no login name in some containers
        return "you"


@dataclass(frozen=True)
class SetupChoices:
    """The choices of the setup screen; the defaults make Enter alone start a game."""

    name: str = field(default_factory=default_name)
    rules: Rules = Rules.CLASSIC
    players: int = 4
    level: str = field(default_factory=default_level)
    timer: float | None = None
    hidden_chests: bool = False
    seed: int | None = None
    custom_bots: tuple[str, ...] = ()
    """Computer players named on the command line (``--bots``), used in seat order."""
    pace: float = 0.7

    def with_(self, **changes) -> "SetupChoices":
        """A copy with some choices changed."""
        return replace(self, **changes)

    def bot_specs(self) -> tuple[str, ...]:
        """The computer players for the seats other than the person's."""
        count = self.players - 1
        if self.level == CUSTOM and self.custom_bots:
            specs = self.custom_bots
        elif self.level == MIXED:
            specs = tuple(levels().values())
        else:
            specs = (levels().get(self.level) or next(iter(levels().values())),)
        return tuple(specs[i % len(specs)] for i in range(count))

    def settings(self) -> TableSettings:
        """The settings of a local table for these choices."""
        return TableSettings(
            name="local",
            rules=self.rules,
            seats=self.players,
            bots=self.bot_specs(),
            timer=self.timer,
            hidden_chests=self.hidden_chests,
            seed=self.seed,
            pace=self.pace,
        )


__all__ = ["BOTS", "CUSTOM", "MIXED", "SetupChoices", "TIMERS", "levels", "default_level"]
