"""Computer players with one parameter and one simple rule each."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..engine.view import Decision, PlayerView


def _leave_if(condition: bool) -> Decision:
    return Decision.LEAVE if condition else Decision.CONTINUE


@dataclass
class CardsBot:
    """``cards:N`` leaves once N cards of the round have been revealed."""

    n: int = 6

    @property
    def spec(self) -> str:
        return f"cards:{self.n}"

    def decide(self, view: PlayerView) -> Decision:
        return _leave_if(view.step >= self.n)


@dataclass
class CarryBot:
    """``carry:X`` leaves when carrying at least X rubies."""

    x: int = 20

    @property
    def spec(self) -> str:
        return f"carry:{self.x}"

    def decide(self, view: PlayerView) -> Decision:
        me = view.me
        return _leave_if(me is not None and me.carried >= self.x)


@dataclass
class HazardsBot:
    """``hazards:K`` leaves when K distinct hazards show on the path."""

    k: int = 2

    @property
    def spec(self) -> str:
        return f"hazards:{self.k}"

    def decide(self, view: PlayerView) -> Decision:
        return _leave_if(len(set(view.hazards_showing)) >= self.k)


@dataclass
class RandomBot:
    """``random:P`` leaves with probability P after every card."""

    p: float = 0.2
    rng: random.Random = field(default_factory=random.Random, repr=False)

    @property
    def spec(self) -> str:
        return f"random:{self.p:g}"

    def decide(self, view: PlayerView) -> Decision:
        return _leave_if(self.rng.random() < self.p)
