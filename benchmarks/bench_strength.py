"""How strong the computer players are: the README's strength figures, reproduced.

Two measures, per rule set:

- ``lineup``: the expert against ``ev,risk,cards:6,carry:20`` (five to a table, seats
  rotated, ties shared), its win rate and 95 % interval, with personalities and exactly
  as named (``--exact``);
- ``levels``: each strength of the setup screen against the one below it, two of each at
  a table of four, the share of the wins the stronger pair takes (and, for the expert,
  one expert against three of the strength below).

- ``trial``: the expert with other settings (``--expert most=1000``) against the expert
  as it is, in the line-up, on the same seeds: the change in win rate, game by game,
  with its 95 % interval (the README's table of what was tried).
- ``told``: likewise, the expert told every other player's own rule from the start of
  each game (a measure of what its beliefs still lack, not a fair player).

Run: ``python benchmarks/bench_strength.py --games 2000 --jobs 2`` (the README's figures;
several minutes a rule set on two cores) or fewer games for a quick look. No time limit
is set on the players' decisions: a machine busy with other work must not stop a run.
"""

from __future__ import annotations

import argparse
import ast
import multiprocessing
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from diamant_tui.bots import BOTS, register
from diamant_tui.bots._model import CARDS, CARRY, EV, FAMILY, PARAM, RISK
from diamant_tui.bots.ev import EvBot
from diamant_tui.bots.expert import ExpertBot
from diamant_tui.bots.risk import RiskBot
from diamant_tui.bots.simple import CardsBot, CarryBot
from diamant_tui.sim import simulate as simulate_module
from diamant_tui.sim.simulate import _chunks, _play_chunk, check_lineup, simulate, win_shares
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


class _ToldExpert(ExpertBot):
    """The expert, told at the start of each game which candidate rule each other player
    follows (the nearest to its own parameter): its beliefs hold that rule alone."""

    told: dict[int, int] | None = None
    """Seat -> candidate index, set by :func:`_telling`."""

    def _learn(self, view) -> None:
        super()._learn(view)
        if self._seen is None and self.told:  # the beliefs were just set up for a game
            for seat, index in self.told.items():
                self._beliefs.log[seat] = np.where(np.arange(FAMILY.size) == index, 0.0, -1e9)


def _candidate(bot) -> int:
    """The candidate rule nearest to what a simple player does."""
    for cls, family, attr in ((CardsBot, CARDS, "n"), (CarryBot, CARRY, "x"),
                              (RiskBot, RISK, "caution"), (EvBot, EV, "caution")):
        if isinstance(bot, cls):
            distance = np.where(FAMILY == family, np.abs(PARAM - getattr(bot, attr)), np.inf)
            return int(distance.argmin())
    raise ValueError(f"no candidate rule for {bot!r}")


def _telling(play_game):
    """``play_game`` that first tells each told expert every other player's rule."""
    def play(game, bots, *args, **kwargs):
        for seat, bot in enumerate(bots):
            if isinstance(bot, _ToldExpert):
                bot.told = {s: _candidate(b) for s, b in enumerate(bots) if s != seat}
        return play_game(game, bots, *args, **kwargs)
    return play


def _expert_chunk(job: tuple[dict, object]) -> np.ndarray:
    """Scores of one chunk of games, with the expert built with ``options`` (``told``:
    told the others' rules, see :class:`_ToldExpert`)."""
    options, chunk = job
    options = dict(options)
    expert = _ToldExpert if options.pop("told", False) else ExpertBot
    if expert is _ToldExpert and not hasattr(simulate_module.play_game, "__wrapped__"):
        telling = _telling(simulate_module.play_game)
        telling.__wrapped__ = simulate_module.play_game
        simulate_module.play_game = telling
    kind = BOTS["expert"]
    register(replace(kind, build=lambda p, rng: expert(rng=rng, **options)))
    return _play_chunk(chunk)[0]


def expert_wins(rules: str, options: dict, games: int, jobs: int, seed: int) -> np.ndarray:
    """The expert's win share in each game of the line-up, built with ``options``."""
    checked = check_lineup(rules, tuple(LINEUP), games)
    chunks = _chunks(checked, tuple(LINEUP), games, seed, False, False, None)
    work = [(options, chunk) for chunk in chunks]
    with multiprocessing.get_context("spawn").Pool(max(1, jobs)) as pool:
        scores = np.concatenate(pool.map(_expert_chunk, work))
    return win_shares(scores)[:, 0]


def trial(rules: str, options: dict, games: int, jobs: int, seed: int,
          keep: Path | None = None) -> str:
    """The change in the expert's win rate that ``options`` make, game by game.

    With ``keep``, the expert as it is is played once per rule set, games and seed, and
    its results kept in that folder for the next trials.
    """
    saved = keep / f"expert-{rules}-{games}-{seed}.npy" if keep else None
    if saved is not None and saved.exists():
        before = np.load(saved)
    else:
        before = expert_wins(rules, {}, games, jobs, seed)
        if saved is not None:
            keep.mkdir(parents=True, exist_ok=True)
            np.save(saved, before)
    after = expert_wins(rules, options, games, jobs, seed)
    diff = after - before
    half = 1.96 * diff.std(ddof=1) / np.sqrt(diff.size)
    return (f"{after.mean():.1%} against {before.mean():.1%}: "
            f"{100 * diff.mean():+.1f} (±{100 * half:.1f}) points")


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
    parser.add_argument("--what", default="lineup,levels",
                        help="lineup, levels, trial or told")
    parser.add_argument("--expert", action="append", default=[], metavar="NAME=VALUE",
                        help="for trial: a setting of the expert to try (e.g. most=1000)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="for trial: a folder to keep the expert's own results in")
    args = parser.parse_args()
    options = {k: ast.literal_eval(v) for k, _, v in (o.partition("=") for o in args.expert)}
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
        if "trial" in what:
            print(f"{rules:13} expert with {options} ({args.games} games, seed {args.seed}): "
                  f"{trial(rules, options, args.games, args.jobs, args.seed, args.keep)}", flush=True)
        if "told" in what:
            told = {**options, "told": True}
            print(f"{rules:13} expert told every other player's rule ({args.games} games, "
                  f"seed {args.seed}): "
                  f"{trial(rules, told, args.games, args.jobs, args.seed, args.keep)}", flush=True)
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
