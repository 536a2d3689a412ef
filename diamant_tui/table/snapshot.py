"""A table as plain JSON values, and the table state rebuilt from them after a restart.

What is kept is the :class:`~diamant_tui.table.state.TableState` with the table's settings:
the game as its record (which the engine replays), the game's random generator (so the
cards still to come come in the same order), the decisions already made this turn (kept
secret: stored, never shown), who sits where and who is away, the computer players'
specs and seeds, the random generator the table seeds its computer players from, and who
took whose seat as the game began (told again to whoever comes back during it).
People's connections, the chat and the turn's clock are not kept: people come back
through :meth:`~diamant_tui.table.Table.sit`, and the clock starts again.

Between two snapshots, what the game has done since the first is kept as its
:func:`progress`: the cards turned and the turns' choices since then, and the choices of
the turn under way, a few hundred bytes where a snapshot is some 9 KB. Rebuilt, the game
plays them again from the snapshot with its own generator, so the same cards come out
(each is checked) and the generator is where it was.
"""

from __future__ import annotations

import base64
import random
import struct
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..bots import make_bot
from ..engine.config import GameConfig
from ..engine.errors import DiamantError
from ..engine.game import Game
from ..engine.record import game_to_record, replay_record
from ..engine.view import Decision, Phase
from .info import SeatGivenToComputer, SeatKind, TableSettings, TableStatus
from .state import Seat, TableState

FORMAT = "diamant-table/2"
READ_FORMATS = ("diamant-table/1", FORMAT)
"""Formats restored: the first kept each random generator's state as a list of 625
numbers (7 KB of JSON each, most of every save); the second as packed bytes."""
PROGRESS_STEPS = 32
"""Most steps (cards and turns' choices) kept as progress; past them, a snapshot is taken
again. About 1 KB of JSON, and as many steps played again when the table is rebuilt."""


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
        # Read as none when absent (tables saved before it was kept).
        "told_at_start": [[e.seat, e.person, e.computer] for e in state.told_at_start
                          if isinstance(e, SeatGivenToComputer)],
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


@dataclass(frozen=True)
class Base:
    """What a snapshot was taken of, for the :func:`progress` made after it."""

    table: tuple
    """Everything the snapshot holds but the game's course (see :func:`_table_key`)."""
    game: Game | None
    """The game it holds (the same object, while it is played)."""
    at: tuple[int, int]
    """Where that game stood (see :func:`_position`)."""


def base_of(settings: TableSettings, state: TableState, rng: random.Random) -> Base:
    """What :func:`snapshot` of the same arguments, taken now, holds."""
    game = state.game
    return Base(_table_key(settings, state, rng), game,
                (-1, 0) if game is None else _position(game))


def progress(base: Base, settings: TableSettings, state: TableState,
             rng: random.Random) -> dict[str, Any] | None:
    """What the game has done since the snapshot ``base`` describes, as plain JSON values
    that :func:`restore` plays again after that snapshot; None when a snapshot must be
    taken instead: something else has changed (a seat, the table's status, another game),
    or the game went more than :data:`PROGRESS_STEPS` steps on."""
    game = state.game
    if game is None or game is not base.game or _table_key(settings, state, rng) != base.table:
        return None
    steps = _steps_since(game, base.at)
    if len(steps) > PROGRESS_STEPS:
        return None
    return {"since": [state.games_played, *base.at], "steps": steps, **choices(state)}


def _table_key(settings: TableSettings, state: TableState, rng: random.Random) -> tuple:
    # Compared, never stored: the generator's state as the tuple it is (packing it is
    # what a snapshot costs), the seats as values (they change in place).
    return (settings, state.creator, state.status, state.games_played, state.started,
            state.ended, frozenset(state.votes), state.told_at_start, rng.getstate(),
            tuple((s.name, s.kind, s.spec, s.bot_seed, s.identity, s.away)
                  for s in state.seats))


def _position(game: Game) -> tuple[int, int]:
    """How far ``game`` has gone: the index of its last round with a card turned, and the
    steps of that round (cards, and turns whose choices are all in). A round begun with
    no card yet counts for nothing, as in a record."""
    for index in range(len(game.history) - 1, -1, -1):
        history = game.history[index]
        if history.cards:
            return index, len(history.steps())
    return -1, 0


def _steps_since(game: Game, at: tuple[int, int]) -> list[str | dict[str, str]]:
    """The steps of ``game`` after position ``at``, in order: a card as its code, a turn
    as its choices by seat."""
    first, skip = at
    steps: list[str | dict[str, str]] = []
    for index in range(max(first, 0), len(game.history)):
        played = game.history[index].steps()
        for step in played[skip:] if index == first else played:
            steps.append({str(s): d.value for s, d in step.items()}
                         if isinstance(step, dict) else step.code)
    return steps


def _play_again(game: Game, steps: list[Any]) -> None:
    """Play ``steps`` (as :func:`_steps_since` wrote them) on ``game``: every card drawn
    with its generator and checked, every turn's choices made again."""
    for number, step in enumerate(steps, start=1):
        where = f"step {number} after the snapshot (round {game.round}, card {game.step})"
        if isinstance(step, str):
            try:
                game.reveal_random()
            except DiamantError as exc:
                raise SnapshotError(f"{where}: no card comes there ({exc})") from None
            drawn = game.history[-1].cards[-1].code
            if drawn != step:
                raise SnapshotError(f"{where}: the generator draws {drawn}, {step} was saved")
        elif isinstance(step, dict):
            made = {int(seat): Decision(value) for seat, value in step.items()}
            # Those already made first: the turn resolves on the last one missing.
            for seat in sorted(made, key=lambda s: s not in game.pending):
                game.submit(seat, made[seat])
            if game.phase is Phase.DECISION or game.history[-1].decisions[-1] != made:
                raise SnapshotError(f"{where}: these choices do not end the turn")
        else:
            raise SnapshotError(f"{where}: {step!r} is neither a card nor a turn's choices")


def restore(data: Any, chosen: Any = None) -> tuple[TableSettings, TableState, random.Random]:
    """The settings, state and computer players' generator of a saved table, gone on with
    ``chosen``: the :func:`progress` saved after ``data`` was taken (or, as the first
    tables saved it, only the :func:`choices` of the turn under way). Progress made after
    another snapshot, choices of another turn and anything damaged there are left out.
    Every person is away from the keyboard and not connected until they come back; raises
    :class:`SnapshotError` for anything that does not make a table."""
    try:
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
            told_at_start=tuple(SeatGivenToComputer(int(seat), str(person), str(computer))
                                for seat, person, computer in data.get("told_at_start", ())),
        )
        if data["game"] is not None:
            state.game = _game(data["game"])
            if _choices_fit(chosen):
                _go_on(state, state.game, chosen)
        return settings, state, _rng_from_json(data["rng"])
    except SnapshotError:
        raise
    except Exception as exc:  # a damaged or foreign snapshot: say what, never half-build
        raise SnapshotError(f"{type(exc).__name__}: {exc}") from None


def _go_on(state: TableState, game: Game, chosen: dict[str, Any]) -> None:
    """Play the progress ``chosen`` on the game just rebuilt, then make the choices of the
    turn under way again."""
    if "since" in chosen or "steps" in chosen:
        steps = chosen.get("steps")
        if chosen.get("since") != [state.games_played, *_position(game)] or not isinstance(steps, list):
            return  # made after another snapshot (one that was lost)
        _play_again(game, steps)
    if chosen.get("turn") == [state.games_played, game.round, game.step]:
        for seat, decision in chosen["pending"].items():
            game.submit(int(seat), Decision(decision))


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


