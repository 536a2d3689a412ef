"""Where a seat's CPU goes, moment by moment of a game, headless.

Five Textual apps sit at a real table of five people (no computer players), each person
deciding straight through their member after a few polls (no keys, so no Pilot), for a
few games with rematches. Every update the table sends out is named by what it carries:

- ``card``: a card (with the choices of the turn it ends, if any);
- ``own choice / marks``: a person's own choice, sent to them at once, and the others'
  marks, gathered (see ``MARKS_DELAY``);
- ``turn's choices``: the choices of a turn sent without a card (whoever ended it, when
  the card is late; everyone, when the round ends with them);
- ``round's end`` (its summary shown), ``round's start`` (with its first card),
  ``game's start`` (a rematch, with its first card), ``game's end`` (the last card or
  choices), ``final scores`` (the table's status once the game is over), ``votes`` and
  ``other`` (joins, wakes);

and the process's CPU from that update to the next is counted against it, with the
frames the apps sent, their bytes and the screens' layouts. The figures are per seat:
per reveal (what each moment adds to a seat's CPU per reveal, the load generator's
unit) and per update of that kind.

The machine's speed varies from run to run by a tenth or more: compare the shares within
one run, or runs made side by side.

Run: ``python benchmarks/phase_costs.py [--games 3] [--seed 1] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import time
from collections import Counter
from contextlib import AsyncExitStack

from textual._compositor import Compositor
from textual.app import App

from diamant_tui.engine.events import (CardRevealed, DecisionMade, DecisionsRevealed,
                                       GameEnded, RoundEnded, RoundStarted)
from diamant_tui.engine.view import Decision
from diamant_tui.table import Table, TableSettings, TableStatus
from diamant_tui.table.updates import Updates
from diamant_tui.ui import DiamantApp

SEATS = 5
POLL = 0.02
"""Seconds between two looks at whether a person has a choice to make."""
DECIDE = 0.3
"""The chance that a person with a choice to make decides at a look (a think time)."""
GAME_TIMEOUT = 120.0


def kind_of(events: tuple, status: TableStatus, first_round: bool) -> str:
    """The name of an update by what it carries (see the module)."""
    kinds = {type(event) for event in events}
    if GameEnded in kinds:
        return "game's end"
    if RoundEnded in kinds:
        return "round's end"
    if RoundStarted in kinds:
        return "game's start" if first_round else "round's start"
    if CardRevealed in kinds:
        return "card"
    if DecisionsRevealed in kinds:
        return "turn's choices"
    if kinds and kinds <= {DecisionMade}:
        return "own choice / marks"
    if status is TableStatus.FINISHED:
        return "final scores / votes"
    return "other"


class Meter:
    """Counts the process's CPU, frames, bytes and layouts between the table's updates,
    against the kind of the update that came first."""

    def __init__(self) -> None:
        self.cpu: Counter[str] = Counter()
        self.updates: Counter[str] = Counter()
        self.frames: Counter[str] = Counter()
        self.bytes: Counter[str] = Counter()
        self.layouts: Counter[str] = Counter()
        self.on = False
        self._kind: str | None = None
        self._since = 0.0
        self._publish: object = None

    def update_sent(self, shared: dict, events: tuple) -> None:
        """One update of a publish is sent (a publish sends one to every member, with the
        same ``shared`` part): the first of a publish starts a new count."""
        if shared is self._publish:
            return
        self._publish = shared  # (held until the next publish: its identity is the key)
        now = time.process_time()
        self.stop(now)
        if self.on:
            first = any(isinstance(e, RoundStarted) and e.round == 1 for e in events)
            self._kind = kind_of(events, shared["status"], first)
            self._since = now
            self.updates[self._kind] += 1

    def stop(self, now: float | None = None) -> None:
        """Count the CPU since the last update against its kind."""
        if self._kind is not None:
            self.cpu[self._kind] += (time.process_time() if now is None else now) - self._since
            self._kind = None

    def leave_out(self, cpu: float) -> None:
        """Take back ``cpu`` spent by the benchmark itself since the last update."""
        if self._kind is not None:
            self.cpu[self._kind] -= cpu

    def frame(self, written: int) -> None:
        if self._kind is not None:
            self.frames[self._kind] += 1
            self.bytes[self._kind] += written

    def layout(self) -> None:
        if self._kind is not None:
            self.layouts[self._kind] += 1


def instrument(meter: Meter) -> None:
    """Hook the meter into the table's sending, the apps' frames and the layouts."""
    send = Updates._send

    # Whatever else the table passes along (a first update's round so far) goes on as
    # it came: the meter counts the events of the update itself.
    def sent(self, member, callback, events, shared, **more):
        meter.update_sent(shared, events)
        return send(self, member, callback, events, shared, **more)

    Updates._send = sent  # type: ignore[method-assign]
    display = App._display

    def displayed(self, screen, renderable):
        if renderable is not None:
            meter.frame(len(renderable.render_segments(self.console)))
        return display(self, screen, renderable)

    App._display = displayed  # type: ignore[method-assign]
    arrange = Compositor._arrange_root

    def arranged(self, *args, **kwargs):
        meter.layout()
        return arrange(self, *args, **kwargs)

    Compositor._arrange_root = arranged  # type: ignore[method-assign]


async def play(games: int, seed: int, meter: Meter) -> int:
    """Play ``games`` games at a table of five apps; returns the cards revealed."""
    table = Table(TableSettings(name="phases", seats=SEATS, bots=(), pace=0.1, seed=seed))
    members = [table.sit(f"p{i}", f"p{i}") for i in range(SEATS)]
    rng = random.Random(seed)
    reveals = 0
    async with AsyncExitStack() as stack:
        for member in members:
            app = DiamantApp(lang="en", member=member)
            await stack.enter_async_context(app.run_test(size=(80, 24)))
        await asyncio.sleep(0.5)
        # What exists now lives to the end: the collector would only add its pauses to
        # whichever moment they fell in.
        gc.collect()
        gc.freeze()
        gc.disable()
        meter.on = True
        loop = asyncio.get_running_loop()
        for game in range(games):
            end = loop.time() + GAME_TIMEOUT
            while table.status is not TableStatus.FINISHED:
                if loop.time() > end:
                    raise RuntimeError(f"game {game + 1} did not end in {GAME_TIMEOUT:g} s")
                started = time.process_time()
                for member in members:
                    view = table.game.view_for(member.seat)
                    if view.decision_due and view.my_decision is None and rng.random() < DECIDE:
                        member.decide(Decision.CONTINUE if rng.random() < 0.8 else Decision.LEAVE)
                meter.leave_out(time.process_time() - started)
                await asyncio.sleep(POLL)
            reveals += sum(isinstance(e, CardRevealed) for e in table.game.events)
            await asyncio.sleep(0.5)
            if game + 1 < games:
                for member in members:
                    member.vote_rematch()
                    await asyncio.sleep(0.1)
                await asyncio.sleep(0.3)
        meter.stop()
        meter.on = False
        gc.enable()
    await table.close()
    return reveals


def results(meter: Meter, reveals: int, games: int) -> dict:
    """The figures per seat, by kind of update, as a dict for JSON."""
    seat_reveals = SEATS * reveals
    total = sum(meter.cpu.values())
    kinds = sorted(meter.cpu, key=lambda k: -meter.cpu[k])
    return {
        "games": games,
        "reveals": reveals,
        "cpu_per_seat_per_reveal_ms": 1000 * total / seat_reveals,
        "frames_per_seat_per_reveal": sum(meter.frames.values()) / seat_reveals,
        "by_kind": {
            kind: {
                "updates": meter.updates[kind],
                "share": meter.cpu[kind] / total if total else None,
                "cpu_per_seat_per_reveal_ms": 1000 * meter.cpu[kind] / seat_reveals,
                "cpu_per_seat_per_update_ms": 1000 * meter.cpu[kind] / SEATS / meter.updates[kind],
                "frames_per_seat_per_update": meter.frames[kind] / SEATS / meter.updates[kind],
                "bytes_per_frame": meter.bytes[kind] / meter.frames[kind] if meter.frames[kind] else 0,
                "layouts_per_seat": meter.layouts[kind] / SEATS,
            } for kind in kinds},
    }


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    meter = Meter()
    instrument(meter)
    reveals = asyncio.run(play(args.games, args.seed, meter))
    out = results(meter, reveals, args.games)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.games} games, {reveals} cards, five apps at 80x24: "
          f"{out['cpu_per_seat_per_reveal_ms']:.2f} ms of CPU and "
          f"{out['frames_per_seat_per_reveal']:.2f} frames per seat per reveal")
    print(f"{'update':22} {'count':>5} {'share':>6} {'ms/seat/reveal':>14} "
          f"{'ms/seat/update':>14} {'frames/seat':>11} {'bytes/frame':>11} {'layouts/seat':>12}")
    for kind, row in out["by_kind"].items():
        print(f"{kind:22} {row['updates']:5d} {100 * row['share']:5.1f}% "
              f"{row['cpu_per_seat_per_reveal_ms']:14.2f} {row['cpu_per_seat_per_update_ms']:14.2f} "
              f"{row['frames_per_seat_per_update']:11.2f} {row['bytes_per_frame']:11.0f} "
              f"{row['layouts_per_seat']:12.1f}")


if __name__ == "__main__":
    main()
