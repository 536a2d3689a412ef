"""``ev:F``: one card of look-ahead, counting the path's rubies and the relics."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.view import Decision, PlayerView
from ..engine.features import features_from_view
from ._features import ev_leaves


@dataclass
class EvBot:
    """Compares leaving now with leaving after one more card, in expectation.

    Leaving now banks what it carries, the rubies on the path and the relics there
    (counted as if it leaves alone). One more card adds its share and what stays on
    the path, or a relic, but a disaster loses all of it. F is the caution: more
    weight on the loss, so more leaves sooner.
    """

    caution: float = 1.0

    @property
    def spec(self) -> str:
        return f"ev:{self.caution:g}"

    def decide(self, view: PlayerView) -> Decision:
        if view.me is None or not view.me.in_cave:
            return Decision.CONTINUE
        leave = ev_leaves(features_from_view(view), self.caution)
        return Decision.LEAVE if leave else Decision.CONTINUE
