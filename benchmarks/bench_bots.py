"""How long the expert takes to decide: mean and worst time per decision.

Both real time and the processor time of the deciding thread are shown: on a machine
busy with other work the first grows, the second hardly.

Plays 5-player games (expert against ev, risk, cards:6 and carry:20 by default) on the
engine and times every decision of the expert, and every step it watches from camp
(apart). Run: ``python benchmarks/bench_bots.py``.
"""

from __future__ import annotations

import argparse
import ast
import time

import numpy as np

from diamant_tui.bots import make_bot
from diamant_tui.bots.expert import ExpertBot
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.sim.simulate import play_game, seat_names


class _Timed:
    """A computer player that records how long each decision takes (and each step it
    watches from camp, in ``watched``)."""

    def __init__(self, bot, times: list[float], cpu: list[float],
                 watched: list[float]) -> None:
        self.bot, self.times, self.cpu, self.spec = bot, times, cpu, bot.spec
        self.watched = watched

    def watch(self, view):
        start_cpu = time.thread_time()
        self.bot.watch(view)
        self.watched.append(time.thread_time() - start_cpu)

    def decide(self, view):
        start, start_cpu = time.perf_counter(), time.thread_time()
        decision = self.bot.decide(view)
        self.times.append(time.perf_counter() - start)
        self.cpu.append(time.thread_time() - start_cpu)
        return decision


def main() -> None:
    """Print the expert's mean, 99th percentile and worst decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bots", default="expert,ev,risk,cards:6,carry:20")
    parser.add_argument("--expert", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the expert other than its own (e.g. most=1000)")
    args = parser.parse_args()
    options = {k: ast.literal_eval(v) for k, _, v in (o.partition("=") for o in args.expert)}
    specs = args.bots.split(",")
    times: list[float] = []
    cpu: list[float] = []
    watched: list[float] = []
    for g in range(args.games):
        bots = [make_bot(s, seed=g * 10 + i) for i, s in enumerate(specs)]
        bots = [ExpertBot(rng=b.rng, **options) if s == "expert" else b
                for s, b in zip(specs, bots)]
        bots = [_Timed(b, times, cpu, watched) if s == "expert" else b for s, b in zip(specs, bots)]
        play_game(Game(GameConfig(seat_names(specs), args.rules), seed=g), bots, limit=None)
    for what, found in (("real time", times), ("processor time", cpu)):
        ms = np.array(found) * 1000
        print(f"expert, {args.rules}, {len(specs)} players, {args.games} games, {what}: "
              f"{ms.size} decisions, mean {ms.mean():.1f} ms, 99th percentile "
              f"{np.percentile(ms, 99):.1f} ms, worst {ms.max():.1f} ms")
    if watched:
        ms = np.array(watched) * 1000
        print(f"expert, {args.rules}, watching from camp, processor time: {ms.size} steps, "
              f"mean {ms.mean():.2f} ms, worst {ms.max():.2f} ms")


if __name__ == "__main__":
    main()
