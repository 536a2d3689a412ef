"""A game's settings, fixed before the first card: who plays, under which rules, how long.

A :class:`GameConfig` is a value, as open_spiel's ``Game`` is to its ``State``: frozen,
hashable, comparable, and written to JSON and read back unchanged, so that a table can
be stored and rebuilt. :class:`~diamant_tui.engine.game.Game` is the state built from one.
Every check of the settings happens here, once, when the config is made.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .cards import HAZARD_COPIES, VARIANT_RELIC_VALUES, HazardType, Rules
from .errors import GameSetupError

MIN_PLAYERS = 3
MAX_PLAYERS = 8
ROUNDS = 5
"""The rounds of a game of the printed rules (the five cave entrances)."""

CONFIG_KEYS = ("players", "rules", "chests_hidden", "rounds")


def max_rounds(rules: Rules) -> int:
    """The longest game ``rules`` can be played over.

    ``relic-variant`` adds one relic of its five per round. Otherwise the deck must never
    run out while a player is in the cave: a hazard type threatens a disaster while two of
    its cards are left, and each disaster removes one card, so the deck is safe while fewer
    disasters have happened than it takes to leave every type with one card.
    """
    if rules is Rules.RELIC_VARIANT:
        return len(VARIANT_RELIC_VALUES)
    return len(HazardType) * (HAZARD_COPIES - 1)


@dataclass(frozen=True)
class GameConfig:
    """The settings of one game: players (names, in seat order), rule set, hidden chests
    and the number of rounds. Made once and never changed; a :class:`Game` reads it."""

    players: tuple[str, ...]
    rules: Rules = Rules.CLASSIC
    chests_hidden: bool = False
    """Others see no chest totals until the game ends (RULES.md, options)."""
    rounds: int = ROUNDS

    def __post_init__(self) -> None:
        # Any sequence of names and a rule set's name are taken too, and stored as the
        # tuple and the enum that make the config a hashable value.
        try:
            if isinstance(self.players, str):
                raise TypeError
            names = tuple(self.players)
        except TypeError:
            raise GameSetupError(
                f"players {self.players!r}: give a list of names, one per player."
            ) from None
        object.__setattr__(self, "players", names)
        object.__setattr__(self, "rules", Rules.parse(self.rules))
        self._check()

    def _check(self) -> None:
        names = self.players
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise GameSetupError(
                f"{len(names)} players: Diamant is for {MIN_PLAYERS} to {MAX_PLAYERS} players."
            )
        for name in names:
            if not isinstance(name, str) or not name:
                raise GameSetupError(f"a player's name must be some text, not {name!r}.")
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise GameSetupError(f"duplicate player name {duplicates[0]!r}: names must be distinct.")
        if not isinstance(self.chests_hidden, bool):
            raise GameSetupError(
                f"chests_hidden must be true or false, not {self.chests_hidden!r}."
            )
        longest = max_rounds(self.rules)
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int):
            raise GameSetupError(
                f"rounds must be a whole number from 1 to {longest}, not {self.rounds!r}."
            )
        if self.rounds < 1:
            raise GameSetupError(f"{self.rounds} rounds: a game has at least 1 round.")
        if self.rounds > longest:
            why = (
                "one of its relics joins the deck in each round"
                if self.rules is Rules.RELIC_VARIANT
                else "in a longer game every hazard could be down to one card, "
                "and the deck could run out"
            )
            raise GameSetupError(
                f"{self.rounds} rounds: {self.rules.value} is played over at most "
                f"{longest} rounds ({why})."
            )

    # -- as JSON -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The config as plain JSON values: ``{"players", "rules", "chests_hidden", "rounds"}``."""
        return {
            "players": list(self.players),
            "rules": self.rules.value,
            "chests_hidden": self.chests_hidden,
            "rounds": self.rounds,
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameConfig:
        """The config :meth:`to_dict` wrote; raise GameSetupError for anything else.

        ``chests_hidden`` and ``rounds`` may be left out (shown chests, 5 rounds).
        """
        if not isinstance(data, dict):
            raise GameSetupError(
                f"a game config must be an object with keys {', '.join(CONFIG_KEYS)}."
            )
        unknown = [key for key in data if key not in CONFIG_KEYS]
        if unknown:
            raise GameSetupError(
                f"unknown key {unknown[0]!r} in a game config; allowed: {', '.join(CONFIG_KEYS)}."
            )
        for key in ("players", "rules"):
            if key not in data:
                raise GameSetupError(f"a game config has no {key!r}.")
        players, rules = data["players"], data["rules"]
        if not isinstance(players, list):
            raise GameSetupError("players must be a list of player names.")
        if not isinstance(rules, str):
            allowed = ", ".join(r.value for r in Rules)
            raise GameSetupError(f"unknown rule set {rules!r}; choose one of {allowed}.")
        return cls(
            players,
            rules,
            chests_hidden=data.get("chests_hidden", False),
            rounds=data.get("rounds", ROUNDS),
        )

    def to_json(self) -> str:
        """The config as one line of JSON text (names kept as they are)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameConfig:
        """The config :meth:`to_json` wrote; raise GameSetupError for anything else."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError, RecursionError) as exc:
            raise GameSetupError(f"a game config must be JSON text: {exc}.") from None
        return cls.from_dict(data)
