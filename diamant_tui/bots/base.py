"""What every computer player is: something that decides from a :class:`PlayerView`."""

from __future__ import annotations

from typing import Protocol

from ..view import Decision, PlayerView


class Bot(Protocol):
    """A computer player. It sees exactly what a person in its seat would see."""

    spec: str
    """How it is named everywhere: ``NAME`` or ``NAME:PARAM``."""

    def decide(self, view: PlayerView) -> Decision:
        """Continue or leave, from this view alone."""
        ...
