"""Recorded games for the replay screen's tests: played by the engine, written, read back."""

from __future__ import annotations

import random
from datetime import datetime, timezone

from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.record import PERSON, Replay, game_to_record, read_record, record_meta
from diamant_tui.engine.record import record_to_json
from diamant_tui.engine.view import Decision, Phase

NAMES = ("Ana", "Bruno", "Chiara", "Dmytro")
STARTED = datetime(2025, 3, 1, 18, 45, 2, tzinfo=timezone.utc)


def played_game(names=NAMES, rules: str = "relics", seed: int = 3, cut: int | None = None,
                leave: float = 0.2) -> Game:
    """A game played by the engine with a seeded deck; each player in the cave leaves with
    chance ``leave``; ``cut``: stop after that many steps (an unfinished game)."""
    rng = random.Random(seed)
    game = Game(GameConfig(tuple(names), rules), seed=seed)
    steps = 0
    while not game.over and (cut is None or steps < cut):
        if game.phase is Phase.DECISION:
            game.apply_decisions({s: Decision.LEAVE if rng.random() < leave else Decision.CONTINUE
                                  for s in game.players_in_cave})
        elif game.phase is Phase.ROUND_OVER:
            game.start_next_round()
        else:
            game.reveal_random()
        steps += 1
    return game


def den_meta(names=NAMES) -> dict:
    """A server's meta: table den-2, started 2025-03-01 18:45:02 UTC, Bruno and Chiara
    are computer players."""
    seats = {name: PERSON for name in names}
    seats.update({names[1]: "expert", names[2]: "carry:20"})
    return record_meta(table="den-2", started=STARTED, seats=seats, seed=3)


def recorded(game: Game, meta: dict | None = None) -> Replay:
    """``game`` written as a record and read back, as ``diamant replay`` would."""
    return read_record(record_to_json(game_to_record(game, meta)))
