"""The rules of the rule-based players, as formulas over :class:`Features`.

The formulas are written once and work on plain numbers (a :class:`Features` built from a
:class:`PlayerView`) as well as on numpy arrays (one entry per simulated game), so the
engine path and the fast simulator decide exactly alike.
"""

from __future__ import annotations

from typing import Any

from ..engine.features import Features


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
