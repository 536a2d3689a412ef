"""Game records in the ``diamant-record/1`` format (RECORD.md): write, read, replay.

:func:`game_to_record` turns a :class:`~diamant_tui.engine.game.Game` (finished or not) into a
record dict, with an optional ``meta`` object (:func:`record_meta`) that describes the game
without changing it. :func:`read_record` and
:func:`replay_record` check a record against the rules by playing it again through the
engine, step by step; anything wrong raises :class:`~diamant_tui.engine.errors.RecordError` with a
message that names the round and step. Nothing is ever repaired on the way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

from .cards import (
    TREASURE_VALUES,
    VARIANT_RELIC_VALUES,
    Card,
    Hazard,
    Rules,
    Treasure,
    parse_card,
)
from .config import ROUNDS, GameConfig
from .game import Game
from .errors import DiamantError, RecordError
from .view import Decision, Phase

FORMAT = "diamant-record/1"
RECORD_KEYS = ("format", "rules", "players", "meta", "rounds", "result")
REQUIRED_KEYS = ("format", "rules", "players", "rounds")
ROUND_KEYS = ("cards", "decisions")
RESULT_KEYS = ("scores", "winners")
PERSON = "person"
"""What ``meta.seats`` says of a seat played by a person."""
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def record_meta(
    *,
    table: str | None = None,
    started: datetime | None = None,
    ended: datetime | None = None,
    seats: Mapping[str, str] | None = None,
    seed: int | None = None,
    server: str | None = None,
) -> dict[str, Any]:
    """A record's ``meta`` object from what is known (RECORD.md); unknown parts are left out.

    ``seats`` maps each player's name to ``"person"`` or the computer player's name.
    Times are written in UTC, to the second.
    """
    meta: dict[str, Any] = {}
    if table is not None:
        meta["table"] = table
    if started is not None:
        meta["started"] = _utc(started)
    if ended is not None:
        meta["ended"] = _utc(ended)
    if seats is not None:
        meta["seats"] = dict(seats)
    if seed is not None:
        meta["seed"] = seed
    if server is not None:
        meta["server"] = server
    return meta


def _utc(when: datetime) -> str:
    if when.tzinfo is None:
        raise ValueError("record times must carry their time zone")
    return when.astimezone(timezone.utc).strftime(_TIME_FORMAT)


def game_to_record(game: Game, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``game`` so far; a finished game also gets its ``result``.

    ``meta`` (see :func:`record_meta`) is checked as a reader checks it (RecordError if
    it has the wrong shape) and stored as given; it never changes a replay.
    A record states no number of rounds, so only a game of the usual five can be written.
    """
    if game.config.rounds != ROUNDS:
        raise RecordError(
            f"a {FORMAT} record holds a game of {ROUNDS} rounds; this game has "
            f"{game.config.rounds}, so it cannot be written as one."
        )
    rounds = []
    for history in game.history:
        decisions = [
            {game.names[s]: d.value for s, d in sorted(entry.items())}
            for entry in history.decisions
        ]
        # A turn still waiting for choices has an empty entry: it is not part of the record yet.
        if decisions and not decisions[-1]:
            decisions.pop()
        rounds.append({"cards": [c.code for c in history.cards], "decisions": decisions})
    # A round that has started but shown no card changes nothing: only what was revealed is stored.
    if rounds and not rounds[-1]["cards"]:
        rounds.pop()
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.value,
        "players": list(game.names),
    }
    if meta is not None:
        # Checked here too, so that no record is written that its readers would refuse.
        record["meta"] = _check_meta(dict(meta), game.names)
    record["rounds"] = rounds
    if game.over:
        record["result"] = {
            "scores": dict(zip(game.names, game.scores())),
            "winners": [game.names[s] for s in game.winners()],
        }
    return record


def record_to_json(record: dict[str, Any]) -> str:
    """A record as indented JSON text (UTF-8 names kept as they are)."""
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


def parse_time(text: str) -> datetime:
    """An ISO 8601 time in UTC (``Z`` or ``+00:00``); ValueError for anything else."""
    when = datetime.fromisoformat(text)
    if when.tzinfo is None or when.utcoffset():
        raise ValueError(f"{text!r} is not in UTC")
    return when


@dataclass(frozen=True)
class Replay:
    """A record played again: the resulting game and whether it ran to its end."""

    game: Game
    finished: bool
    meta: dict[str, Any] = field(default_factory=dict)
    """The record's ``meta`` as it was read, keys this version does not know included."""

    def outcome(self) -> dict[str, Any]:
        """``{"scores", "winners", "chests", "relics"}`` by player name (RECORD.md).

        For an unfinished game the scores count only what is banked and the winners are
        the players leading on those scores.
        """
        game = self.game
        return {
            "scores": dict(zip(game.names, game.scores())),
            "winners": [game.names[s] for s in game.winners()],
            "chests": dict(zip(game.names, game.chest)),
            "relics": {name: sum(game.relics[s]) for s, name in enumerate(game.names)},
        }


def read_record(text: str) -> Replay:
    """Parse the JSON ``text`` of a record and replay it (raise RecordError if invalid)."""
    return replay_record(parse_json(text))


def parse_json(text: str) -> Any:
    """JSON ``text`` as Python values, refusing duplicate keys and NaN/Infinity."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise RecordError(f"not valid JSON: {exc.msg} at {where}.") from None
    except RecursionError:
        raise RecordError("not valid JSON for a record: it is nested too deeply.") from None


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise RecordError(f"the key {_short(key)} appears twice in one JSON object.")
        seen[key] = value
    return seen


def _no_constant(name: str) -> Any:
    raise RecordError(f"not valid JSON for a record: {name} is not a number.")


def replay_record(record: Any, config: GameConfig | None = None) -> Replay:
    """Check ``record`` and play it through the engine; raise RecordError if anything is wrong.

    ``config`` gives the game's settings a record does not hold (hidden chests): a saved
    table is rebuilt that way. Its players and rule set must be the record's."""
    _check_keys(record, RECORD_KEYS, "the record", required=REQUIRED_KEYS)
    if record["format"] != FORMAT:
        raise RecordError(f"format {_short(record['format'])} is not {FORMAT!r}.")
    game = _new_game(record["rules"], record["players"])
    if config is not None:
        if (config.players, config.rules) != (game.config.players, game.config.rules):
            raise RecordError("the record's players and rule set are not the game's.")
        game = Game(config)
    # Checked, kept, and otherwise left alone: nothing in it changes the replay.
    meta = _check_meta(record.get("meta", {}), game.names)
    rounds = record["rounds"]
    if not isinstance(rounds, list):
        raise RecordError("rounds must be a list of rounds.")
    if len(rounds) > game.config.rounds:
        raise RecordError(
            f"the record has {len(rounds)} rounds; a game has {game.config.rounds}."
        )
    for number, round_ in enumerate(rounds, 1):
        if number > 1:
            game.start_next_round()
        last = number == len(rounds)
        _replay_round(game, number, round_, last)
    finished = game.over
    if "result" in record:
        _check_result(game, record["result"], finished)
    return Replay(game, finished, meta)


META_TYPES: dict[str, tuple[type, str]] = {
    "table": (str, "the table's name as text"),
    "started": (str, "an ISO 8601 time in UTC such as 2025-03-01T18:45:02Z"),
    "ended": (str, "an ISO 8601 time in UTC such as 2025-03-01T18:45:02Z"),
    "seats": (dict, 'an object giving each player "person" or a computer player\'s name'),
    "seed": (int, "a whole number"),
    "server": (str, "the server's name as text"),
}


def _check_meta(meta: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """Check the documented keys of ``meta`` (RECORD.md); keys it does not know are kept."""
    if not isinstance(meta, dict):
        raise RecordError("meta must be a JSON object (table, started, ended, seats, seed, server).")
    for key, (kind, what) in META_TYPES.items():
        if key not in meta:
            continue
        value = meta[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordError(f"meta: {key} must be {what}, not {_short(value)}.")
        if key in ("started", "ended"):
            try:
                parse_time(value)
            except ValueError:
                raise RecordError(f"meta: {key} must be {what}, not {_short(value)}.") from None
        if key == "seats":
            for name, seat in value.items():
                if name not in names:
                    raise RecordError(
                        f"meta: seats names {_short(name)}, who is not one of the players "
                        f"{', '.join(names)}."
                    )
                if not isinstance(seat, str) or not seat:
                    raise RecordError(
                        f"meta: seats: {name}'s seat must be \"person\" or a computer "
                        f"player's name, not {_short(seat)}."
                    )
            # Per player (RECORD.md): a seats object that is there names every one.
            missing = [name for name in names if name not in value]
            if missing:
                raise RecordError(
                    f"meta: seats gives no seat for {', '.join(missing)}; it names each "
                    "player with \"person\" or a computer player's name."
                )
    return dict(meta)


def _check_keys(obj: Any, keys: tuple[str, ...], where: str, required: tuple[str, ...]) -> None:
    if not isinstance(obj, dict):
        raise RecordError(f"{where} must be a JSON object with keys {', '.join(keys)}.")
    for key in obj:
        if key not in keys:
            raise RecordError(f"unknown key {_short(key)} in {where}; allowed: {', '.join(keys)}.")
    for key in required:
        if key not in obj:
            raise RecordError(f"{where} has no {key!r}.")


def _new_game(rules: Any, players: Any) -> Game:
    if not isinstance(rules, str) or len(rules) > 40:
        allowed = ", ".join(r.value for r in Rules)
        raise RecordError(f"unknown rule set {_short(rules)}; choose one of {allowed}.")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise RecordError("players must be a list of non-empty player names.")
    try:
        # A record states no number of rounds: it holds a game of the printed rules' five.
        return Game(GameConfig(tuple(players), Rules.parse(rules)))
    except DiamantError as exc:
        raise RecordError(str(exc)) from None


def _replay_round(game: Game, number: int, round_: Any, last: bool) -> None:
    where = f"round {number}"
    _check_keys(round_, ROUND_KEYS, where, required=ROUND_KEYS)
    cards, decisions = round_["cards"], round_["decisions"]
    if not isinstance(cards, list):
        raise RecordError(f"{where}: cards must be a list of card codes.")
    if not isinstance(decisions, list):
        raise RecordError(f"{where}: decisions must be a list, one entry per step.")
    for step, code in enumerate(cards, 1):
        at = f"round {number}, step {step}"
        _reveal(game, at, code)
        if _round_ended(game):
            if step < len(cards):
                raise RecordError(
                    f"round {number}, step {step + 1}: the round ended in disaster at step {step} "
                    f"(a second {code}); no card may follow."
                )
            if len(decisions) >= step:
                raise RecordError(f"{at}: a decision after the disaster that ended the round.")
            return
        if len(decisions) < step:
            if step < len(cards):
                raise RecordError(f"{at}: no decisions after {code}, yet the round goes on.")
            break  # the record stops while the players in the cave choose
        _decide(game, at, decisions[step - 1])
        if _round_ended(game):
            if step < len(cards):
                raise RecordError(
                    f"round {number}, step {step + 1}: everyone left at step {step}, "
                    "so the round is over; no card may follow."
                )
            if len(decisions) > step:
                raise RecordError(
                    f"round {number}, step {step + 1}: a decision after everyone left "
                    f"at step {step}."
                )
            return
    if len(decisions) > len(cards):
        raise RecordError(
            f"round {number}, step {len(cards) + 1}: a decision with no card revealed before it."
        )
    if not last:
        inside = ", ".join(game.names[s] for s in game.players_in_cave)
        raise RecordError(
            f"{where} stops after step {len(cards)} with {inside} still in the cave; "
            "only the last round of an unfinished game may stop early."
        )


def _round_ended(game: Game) -> bool:
    return game.phase in (Phase.ROUND_OVER, Phase.OVER)


def _reveal(game: Game, at: str, code: Any) -> None:
    if not isinstance(code, str) or len(code) > 12:
        raise RecordError(f"{at}: {_short(code)} is not a card code such as T9, H:snakes, R or R7.")
    try:
        card = parse_card(code)
    except DiamantError as exc:
        raise RecordError(f"{at}: {exc}") from None
    if card not in (c for c, _ in game.reveal_outcomes()):
        raise RecordError(f"{at}: {_why_not_in_deck(game, card)}")
    game.reveal(card)


def _why_not_in_deck(game: Game, card: Card) -> str:
    """Explain why ``card`` cannot be revealed now (it is known not to be in the deck)."""
    code, rules = card.code, game.rules
    on_path = sum(1 for pc in game.path if pc.card == card)
    if isinstance(card, Treasure):
        if card.value not in TREASURE_VALUES:
            values = ", ".join(map(str, TREASURE_VALUES))
            return f"{code} is not a treasure card; treasure values are {values}."
        copies = TREASURE_VALUES.count(card.value)
        which = f"the only {code} is" if copies == 1 else f"all {copies} {code} cards are"
        return f"{code} is not in the deck: {which} already on this round's path."
    if isinstance(card, Hazard):
        rounds = [str(r.round) for r in game.round_results if r.disaster is card.type]
        return (
            f"{code} is not in the deck: of its 3 cards, {len(rounds)} were removed after "
            f"disasters (rounds {', '.join(rounds)}) and {on_path} is on this round's path."
        )
    if rules is Rules.CLASSIC:
        return f"{code} is not in the deck: the classic rule set has no relics."
    if rules is Rules.RELICS:
        if card.value is not None:
            return f"{code} is not a card of the relics rule set, whose relics are written R."
        return f"{code} is not in the deck: all 5 relics have been revealed already."
    if card.value is None or card.value not in VARIANT_RELIC_VALUES:
        allowed = ", ".join(f"R{v}" for v in VARIANT_RELIC_VALUES)
        return f"{code} is not a relic-variant relic; they are {allowed}."
    added = VARIANT_RELIC_VALUES.index(card.value) + 1
    if added > game.round:
        return f"{code} is not in the deck yet: relic-variant adds it in round {added}."
    if on_path:
        return f"{code} is not in the deck: it is already on this round's path."
    seen = [r for r, h in enumerate(game.history, 1) if card in h.cards]
    return f"{code} is not in the deck: it was revealed in round {seen[0]} and left the game."


def _decide(game: Game, at: str, entry: Any) -> None:
    if not isinstance(entry, dict):
        raise RecordError(f"{at}: the decisions must be an object of player names to choices.")
    for name, word in entry.items():
        if name not in game.names:
            players = ", ".join(game.names)
            raise RecordError(f"{at}: unknown player {_short(name)}; players are {players}.")
        if not game.in_cave[game.names.index(name)]:
            raise RecordError(f"{at}: {name} is in camp; only players in the cave decide.")
        if word not in (d.value for d in Decision):
            raise RecordError(
                f"{at}: {name}'s decision {_short(word)} is not 'continue' or 'leave'."
            )
    missing = [game.names[s] for s in game.players_in_cave if game.names[s] not in entry]
    if missing:
        raise RecordError(f"{at}: no decision for {', '.join(missing)}, still in the cave.")
    game.apply_decisions({name: Decision(word) for name, word in entry.items()})


def _check_result(game: Game, result: Any, finished: bool) -> None:
    if not finished:
        raise RecordError(
            f"a result is given but the game is unfinished (it stops in round {game.round}, "
            f"step {game.step}); only a finished game has a result."
        )
    _check_keys(result, RESULT_KEYS, "the result", required=RESULT_KEYS)
    scores, winners = result["scores"], result["winners"]
    if not isinstance(scores, dict) or not all(type(v) is int for v in scores.values()):
        raise RecordError("result: scores must map each player's name to a whole number.")
    if set(scores) != set(game.names):
        raise RecordError(f"result: scores must name exactly the players {', '.join(game.names)}.")
    for s, name in enumerate(game.names):
        if scores[name] != game.score(s):
            raise RecordError(
                f"result: the score of {name} is {scores[name]} in the record "
                f"but {game.score(s)} when the game is replayed."
            )
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        raise RecordError("result: winners must be a list of player names.")
    expected = [game.names[s] for s in game.winners()]
    if len(set(winners)) != len(winners) or set(winners) != set(expected):
        raise RecordError(
            f"result: the winners are {_short(winners)} in the record but {expected} "
            "when the game is replayed (all tied leaders win)."
        )


def _short(value: Any) -> str:
    """``repr(value)``, cut short so that a huge bad value cannot flood the message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
