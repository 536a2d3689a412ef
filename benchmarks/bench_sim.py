"""Games per second of ``diamant sim`` for 5-player games of simple computer players.

Prints the engine path (one game at a time through :class:`diamant_tui.engine.game.Game`,
each player deciding from its view) and the numpy fast path, on one core. Times are
processor time of this process (best of a few runs), so other work on the machine
disturbs them less. Run: ``python benchmarks/bench_sim.py``.
"""

from __future__ import annotations

import argparse
import time

from diamant_tui.sim.simulate import simulate

LINEUPS = {
    "simple": ["cards:6", "carry:20", "hazards:2", "random:0.2", "cards:4"],
    "risk/ev": ["ev", "risk", "cards:6", "carry:20", "hazards:2"],
}


def rate(specs: list[str], games: int, engine: bool, rules: str, repeats: int) -> float:
    """Best games per second of ``repeats`` simulation runs in this process."""
    best = 0.0
    for seed in range(repeats):
        start = time.process_time()
        simulate(rules, specs, games, seed=seed, engine=engine)
        best = max(best, games / (time.process_time() - start))
    return best


def main() -> None:
    """Print one line per rule set and line-up."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-games", type=int, default=300)
    parser.add_argument("--fast-games", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rules", default="classic,relics,relic-variant")
    args = parser.parse_args()
    rate(LINEUPS["simple"], 1000, False, "classic", 1)  # warm up numpy and the lookup tables
    for rules in args.rules.split(","):
        for name, specs in LINEUPS.items():
            engine = rate(specs, args.engine_games, True, rules, 1)
            fast = rate(specs, args.fast_games, False, rules, args.repeats)
            print(f"{rules:13} {name:8} ({','.join(specs)}): engine {engine:6,.0f} games/s, "
                  f"fast path {fast:7,.0f} games/s ({fast / engine:,.0f}x)")


if __name__ == "__main__":
    main()
