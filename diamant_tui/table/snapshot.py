"""A table as plain JSON values, and the table state rebuilt from them after a restart.

What is kept is the :class:`~diamant_tui.table.state.TableState` with the table's settings:
the game as its record (which the engine replays), the game's random generator (so the
cards still to come come in the same order), the decisions already made this turn (kept
secret: stored, never shown), who sits where and who is away, the computer players'
specs and seeds, and the random generator the table seeds its computer players from.
People's connections, the chat and the turn's clock are not kept: people come back
through :meth:`~diamant_tui.table.Table.sit`, and the clock starts again.
"""

from __future__ import annotations

import base64
import random
import struct
from datetime import datetime
from typing import Any

from ..bots import make_bot
from ..engine.config import GameConfig
from ..engine.record import game_to_record, replay_record
from ..engine.view import Decision
from .info import SeatKind, TableSettings, TableStatus
from .state import Seat, TableState

FORMAT = "diamant-table/2"
READ_FORMATS = ("diamant-table/1", FORMAT)
"""Formats restored: the first kept each random generator's state as a list of 625
numbers (7 KB of JSON each, most of every save); the second as packed bytes."""


class SnapshotError(ValueError):
    """A saved table that cannot be rebuilt; the message says what is wrong."""


def settings_to_json(settings: TableSettings) -> dict[str, Any]:
    """A table's settings as plain JSON values."""
    return {
        "name": settings.name, "rules": settings.rules.value, "seats": settings.seats,
        "bots": list(settings.bots), "timer": settings.timer,
        "hidden_chests": settings.hidden_chests, "seed": settings.seed,
        "pace": settings.pace, "filler": settings.filler,
    }


def settings_from_json(data: dict[str, Any]) -> TableSettings:
    """The settings :func:`settings_to_json` wrote, checked as a new table's are."""
    return TableSettings(**{**data, "bots": tuple(data["bots"])}).checked()


def snapshot(settings: TableSettings, state: TableState, rng: random.Random) -> dict[str, Any]:
    """Everything needed to rebuild the table (see the module's docstring); a new dict
    made of new lists and dicts, which the caller may keep or hand to another thread."""
    game = state.game
    saved_game = None
    if game is not None:
        saved_game = {
            "config": game.config.to_dict(),
            "record": game_to_record(game),
            "rng": _rng_to_json(game.rng),
            **choices(state),  # "turn" and "pending"
        }
    return {
        "format": FORMAT,
        "settings": settings_to_json(settings),
        "creator": state.creator,
        "status": state.status.value,
        "games_played": state.games_played,
        "started": None if state.started is None else state.started.isoformat(),
        "ended": None if state.ended is None else state.ended.isoformat(),
        "votes": sorted(state.votes),
        "rng": _rng_to_json(rng),
        "seats": [
            {"name": s.name, "kind": s.kind.value, "spec": s.spec, "seed": s.bot_seed,
             "identity": s.identity, "away": s.away}
            for s in state.seats
        ],
        "game": saved_game,
    }


def choices(state: TableState) -> dict[str, Any] | None:
    """The choices made so far in the turn under way, and which turn it is: what changes
    between two snapshots while people choose (None: no game). Saved after the snapshot of
    their turn, it is a few bytes where a snapshot is some 8 KB taken and encoded."""
    game = state.game
    if game is None:
        return None
    return {"turn": [state.games_played, game.round, game.step],
            "pending": {str(seat): decision.value for seat, decision in game.pending.items()}}


def restore(data: Any, chosen: Any = None) -> tuple[TableSettings, TableState, random.Random]:
    """The settings, state and computer players' generator of a saved table, with the
    turn's ``chosen`` (as :func:`choices` gave them after ``data`` was taken; left out if
    they are of another turn). Every person is away from the keyboard and not connected
    until they come back; raises :class:`SnapshotError` for anything that does not make a
    table."""
    try:
        game = data.get("game")
        if (_choices_fit(chosen) and isinstance(game, dict) and "turn" in game
                and chosen.get("turn") == game["turn"]):
            data = {**data, "game": {**game, "pending": {**game["pending"], **chosen["pending"]}}}
        if data.get("format") not in READ_FORMATS:
            raise SnapshotError(f"not a {FORMAT} table")
        settings = settings_from_json(data["settings"])
        seats = [_seat(s) for s in data["seats"]]
        if len(seats) != settings.seats:
            raise SnapshotError(f"{len(seats)} seats saved for a table of {settings.seats}")
        state = TableState(
            seats, data["creator"], TableStatus(data["status"]),
            games_played=int(data["games_played"]),
            started=_time(data["started"]), ended=_time(data["ended"]),
            votes={int(seat) for seat in data["votes"]},
        )
        if data["game"] is not None:
            state.game = _game(data["game"])
        return settings, state, _rng_from_json(data["rng"])
    except SnapshotError:
        raise
    except Exception as exc:  # a damaged or foreign snapshot: say what, never half-build
        raise SnapshotError(f"{type(exc).__name__}: {exc}") from None


def _choices_fit(chosen: Any) -> bool:
    """Whether ``chosen`` reads as :func:`choices` writes it (anything else is left out,
    and the table rebuilt from its snapshot alone)."""
    made = {decision.value for decision in Decision}
    pending = chosen.get("pending") if isinstance(chosen, dict) else None
    return isinstance(pending, dict) and all(
        isinstance(seat, str) and seat.isdigit() and decision in made
        for seat, decision in pending.items())


def _seat(data: dict[str, Any]) -> Seat:
    kind = SeatKind(data["kind"])
    seat = Seat(data["name"], kind, data["spec"], identity=data["identity"],
                away=bool(data["away"]), connected=kind is SeatKind.BOT)
    if data["spec"] is not None and data["seed"] is not None:
        seat.bot_seed = float(data["seed"])
        seat.bot = make_bot(data["spec"], rng=random.Random(seat.bot_seed))
    return seat


def _game(data: dict[str, Any]):
    config = GameConfig.from_dict(data["config"])
    game = replay_record(data["record"], config).game
    game.rng.setstate(_rng_from_json(data["rng"]).getstate())
    for seat, decision in data["pending"].items():
        game.submit(int(seat), Decision(decision))
    return game


def _time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _rng_to_json(rng: random.Random) -> dict[str, Any]:
    # The Mersenne Twister's 624 words and position, packed (3.3 KB of base64): as a
    # list of numbers, the two generators were 87 % of every save, and a table is
    # saved at nearly every change.
    version, internal, gauss = rng.getstate()
    packed = struct.pack(f"<{len(internal)}I", *internal)
    return {"version": version, "state": base64.b64encode(packed).decode("ascii"),
            "gauss": gauss}


def _rng_from_json(data: dict[str, Any] | list[Any]) -> random.Random:
    """A generator as :func:`_rng_to_json` wrote it, or as a list (the first format)."""
    rng = random.Random()
    if isinstance(data, list):
        version, internal, gauss = data
    else:
        version, gauss = data["version"], data["gauss"]
        packed = base64.b64decode(data["state"], validate=True)
        internal = struct.unpack(f"<{len(packed) // 4}I", packed)
    rng.setstate((version, tuple(internal), gauss))
    return rng


