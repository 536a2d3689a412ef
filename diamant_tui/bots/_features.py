"""The few numbers the rule-based players decide from, and their rules as formulas.

The formulas are written once and work on plain numbers (a :class:`Features` built from a
:class:`PlayerView`) as well as on numpy arrays (one entry per simulated game), so the
engine path and the fast simulator decide exactly alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Relic, Rules
from ..view import PlayerView
from ._encoding import RELICS_VALUE


@dataclass
class Features:
    """What every player still in the cave knows alike (all of them carry the same).

    Each field is a number, or an array with one entry per simulated game.
    """

    step: Any
    """Cards revealed this round."""
    carried: Any
    """Rubies each player in the cave carries."""
    n: Any
    """Players in the cave."""
    deadly: Any
    """Cards in the deck that would end the round in disaster."""
    hazards: Any
    """Distinct hazard types on the path."""
    shares: Any
    """Sum over treasure in the deck of ``value // n``: what the deck holds for one player."""
    leftovers: Any
    """Sum over treasure in the deck of ``value % n``: what would stay on the path."""
    path: Any
    """Rubies lying on the path."""
    relics_path: Any
    """Points of the relics on the path, if one player left alone now."""
    relics_gain: Any
    """Sum over relics in the deck of the points each would add to ``relics_path``."""
    deck: Any
    """Cards in the deck."""


def relic_points(rules: Rules, taken: int, on_path: int, printed: int) -> tuple[int, int]:
    """(points of the relics on the path, points one more relic would add) for a lone leaver.

    ``printed`` is the sum of printed values on the path (``relic-variant``).
    """
    if rules is Rules.RELICS:
        now = int(RELICS_VALUE[taken, on_path])
        return now, int(RELICS_VALUE[taken, on_path + 1]) - now
    return printed, 0


def features_from_view(view: PlayerView) -> Features:
    """The :class:`Features` of the seat that owns ``view`` (it must be in the cave)."""
    me = view.me
    carried = me.carried if me is not None else 0
    n = max(1, len(view.in_cave))
    showing = {f"H:{h.value}" for h in view.hazards_showing}
    deadly = shares = leftovers = relics_in_deck = relic_deck_points = 0
    for code, count in view.deck:
        if code.startswith("T"):
            value = int(code[1:])
            shares += count * (value // n)
            leftovers += count * (value % n)
        elif code in showing:
            deadly += count
        elif code.startswith("R"):
            relics_in_deck += count
            relic_deck_points += count * int(code[1:] or 0)
    on_path = [pc.card for pc in view.path if isinstance(pc.card, Relic) and not pc.taken]
    printed = sum(card.value or 0 for card in on_path)
    relics_path, next_relic = relic_points(view.rules, view.relics_taken, len(on_path), printed)
    if view.rules is Rules.RELICS:
        relics_gain = relics_in_deck * next_relic
    else:
        relics_gain = relic_deck_points
    return Features(
        step=view.step,
        carried=carried,
        n=n,
        deadly=deadly,
        hazards=len(showing),
        shares=shares,
        leftovers=leftovers,
        path=view.rubies_on_path,
        relics_path=relics_path,
        relics_gain=relics_gain,
        deck=view.deck_size,
    )


# -- the rules of the rule-based players, for numbers and arrays alike --------------


def cards_leaves(f: Features, n: float) -> Any:
    """``cards:N``: N cards of the round are showing."""
    return f.step >= n


def carry_leaves(f: Features, x: float) -> Any:
    """``carry:X``: carrying at least X rubies."""
    return f.carried >= x


def hazards_leaves(f: Features, k: float) -> Any:
    """``hazards:K``: K distinct hazard types are showing."""
    return f.hazards >= k


def risk_leaves(f: Features, caution: float) -> Any:
    """``risk:F``: F x chance of disaster x carried >= expected share of the next card.

    Both sides are multiplied by the deck size, which leaves whole numbers. Alone in the
    cave with F = 1 this is the classic rule "leave when carried x 2h >= treasure left".
    """
    return caution * f.deadly * f.carried >= f.shares


def ev_leaves(f: Features, caution: float) -> Any:
    """``ev:F``: leave when one more card is worth less than what it puts at stake.

    At stake: carried, the rubies on the path and the relics (taken when leaving
    alone). The next card adds its share plus what stays on the path, or a relic.
    """
    stake = f.carried + f.path + f.relics_path
    return caution * f.deadly * stake >= f.shares + f.leftovers + f.relics_gain
