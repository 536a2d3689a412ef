"""``risk:F``: weighs the chance of disaster against the rubies carried."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.view import Decision, PlayerView
from ..engine.features import features_from_view
from ._features import risk_leaves


@dataclass
class RiskBot:
    """Leaves when F x (chance the next card is a disaster) x carried reaches the
    expected share of the next card, both read from the cards left in the deck.

    F is the caution: 1 weighs both sides evenly, more leaves sooner.
    """

    caution: float = 1.0

    @property
    def spec(self) -> str:
        return f"risk:{self.caution:g}"

    def decide(self, view: PlayerView) -> Decision:
        if view.me is None or not view.me.in_cave:
            return Decision.CONTINUE
        leave = risk_leaves(features_from_view(view), self.caution)
        return Decision.LEAVE if leave else Decision.CONTINUE
