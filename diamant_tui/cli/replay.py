"""``diamant replay FILE [--json]``: check a game record and show how the game went."""

from __future__ import annotations

import argparse
import json
import sys

from ..engine.errors import RecordError
from ..engine.record import Replay, read_record
from ..engine.view import Phase


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``replay`` subcommand to the ``diamant`` command."""
    parser = subparsers.add_parser(
        "replay",
        help="check a game record and show its outcome",
        description="Replay a diamant-record/1 game record through the rules, checking every "
        "step, and print the outcome. Exits with status 1 when the record is invalid or its "
        "result disagrees with the replay.",
    )
    parser.add_argument("file", metavar="FILE", help="the record (JSON); - reads standard input")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"scores", "winners", "chests", "relics"} as JSON instead of a summary',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file``; print the outcome, or the error on standard error."""
    try:
        text = _read(args.file)
        replay = read_record(text)
    except RecordError as exc:
        print(f"diamant replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(replay.outcome(), ensure_ascii=False))
    else:
        print(summary(replay))
    return 0


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, encoding="utf-8") as file:
            return file.read()
    except UnicodeDecodeError:
        raise RecordError("not a record: the file is not UTF-8 text.") from None
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}.") from None


def summary(replay: Replay) -> str:
    """A readable account: rules and players, how each round ended, scores and winners."""
    game = replay.game
    names = game.names
    played = len(game.round_results)
    rounds = game.config.rounds
    state = "finished" if replay.finished else f"unfinished, {played} of {rounds} rounds over"
    lines = [f"{game.rules.value}, {len(names)} players ({', '.join(names)}): {state}."]
    for result in game.round_results:
        if result.disaster is not None:
            ending = f"disaster at card {result.cards} (the {result.disaster.value} again)"
        else:
            cards = "1 card" if result.cards == 1 else f"{result.cards} cards"
            ending = f"everyone left after {cards}"
        banked = ", ".join(f"{names[s]} {b}" for s, b in enumerate(result.banked))
        lines.append(f"Round {result.round}: {ending}; banked: {banked}.")
    if game.phase in (Phase.REVEAL, Phase.DECISION) and game.step:
        inside = ", ".join(names[s] for s in game.players_in_cave)
        lines.append(
            f"Round {game.round}: stops after card {game.step} with {inside} still in the cave."
        )
    if not replay.finished:
        lines.append("Scores count only what is banked (chests and relics taken).")
    ranking = sorted(range(len(names)), key=lambda s: (-game.score(s), s))
    width = max(len(n) for n in names)
    lines.append("Scores:")
    for s in ranking:
        relics = sum(game.relics[s])
        detail = f" (chest {game.chest[s]}, relics {relics})" if relics else ""
        lines.append(f"  {names[s]:<{width}}  {game.score(s):>3}{detail}")
    leaders = ", ".join(names[s] for s in game.winners())
    if not replay.finished:
        lines.append(f"Leading: {leaders}")
    elif len(game.winners()) > 1:
        lines.append(f"Winners (tied): {leaders}")
    else:
        lines.append(f"Winner: {leaders}")
    return "\n".join(lines)
