"""How strong the computer players are: the README's strength figures, reproduced.

Two measures, per rule set:

- ``lineup``: the expert against ``ev,risk,cards:6,carry:20`` (five to a table, seats
  rotated, ties shared), its win rate and 95 % interval, with personalities and exactly
  as named (``--exact``);
- ``levels``: each strength of the setup screen against the one below it, two of each at
  a table of four, the share of the wins the stronger pair takes (and, for the expert,
  one expert against three of the strength below).

Run: ``python benchmarks/bench_strength.py --games 2000 --jobs 2`` (the README's figures;
several minutes a rule set on two cores) or fewer games for a quick look. No time limit
is set on the players' decisions: a machine busy with other work must not stop a run.
"""

from __future__ import annotations

import argparse
import time

from diamant_tui.sim.simulate import simulate
from diamant_tui.ui.setup_choices import levels

LINEUP = ["expert", "ev", "risk", "cards:6", "carry:20"]


def lineup(rules: str, games: int, jobs: int, seed: int, exact: bool) -> str:
    """The expert's figures in the README's line-up."""
    result = simulate(rules, LINEUP, games, seed=seed, jobs=jobs, exact=exact, limit=None)
    s = result.summary()["bots"][0]
    low, high = s["wins_interval"]
    return (f"{s['wins']:.1%} ({low:.1%}-{high:.1%}), mean score {s['score']:.1f}")


def pair(rules: str, strong: str, weak: str, games: int, jobs: int, seed: int,
         exact: bool) -> float:
    """Share of the wins that two ``strong`` players take from two ``weak`` ones."""
    result = simulate(rules, [strong, strong, weak, weak], games, seed=seed, jobs=jobs,
                      exact=exact, limit=None)
    return float(result.wins[:, :2].sum(axis=1).mean())


def main() -> None:
    """Print the line-up figures and the level pairs for each rule set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400,
                        help="games with the expert per figure (default 400)")
    parser.add_argument("--pair-games", type=int, default=20_000,
                        help="games per pair of simple players (default 20000)")
    parser.add_argument("--rules", default="classic,relics,relic-variant")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--what", default="lineup,levels", help="lineup, levels or both")
    args = parser.parse_args()
    what = args.what.split(",")
    chain = list(levels().items())[::-1]  # strongest first
    for rules in args.rules.split(","):
        start = time.time()
        if "lineup" in what:
            for exact in (False, True):
                how = "exact" if exact else "personalities"
                print(f"{rules:13} expert in {','.join(LINEUP)} ({how}, {args.games} games, "
                      f"seed {args.seed}): "
                      f"{lineup(rules, args.games, args.jobs, args.seed, exact)}", flush=True)
        if "levels" in what:
            for (high, strong), (low, weak) in zip(chain, chain[1:]):
                games = args.games if "expert" in (strong, weak) else args.pair_games
                shares = [pair(rules, strong, weak, games, args.jobs, args.seed, exact)
                          for exact in (False, True)]
                print(f"{rules:13} {high} {strong} vs {low} {weak} ({games} games): "
                      f"{shares[0]:.1%} / {shares[1]:.1%} exact", flush=True)
                if strong == "expert":
                    alone = simulate(rules, [strong, weak, weak, weak], games, seed=args.seed,
                                     jobs=args.jobs, limit=None)
                    print(f"{rules:13} one {strong} vs three {weak} ({games} games): "
                          f"{alone.wins[:, 0].mean():.1%} (even share 25%)", flush=True)
        print(f"{rules:13} ({time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
