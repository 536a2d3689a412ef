"""What a player in the cave knows, as the few numbers that decide a choice.

A :class:`Features` holds plain numbers (built from a :class:`PlayerView` by
:func:`features_from_view`) or numpy arrays with one entry per game (built by
:meth:`diamant_tui.engine.cave.Cave.features`), so rules written over it work alike on
the engine and on the vectorized round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Relic, Rules
from .view import PlayerView
from .encoding import RELICS_VALUE


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
