"""What every computer player is: something that decides from a :class:`PlayerView`.

This is the whole interface, for the built-in players and for players from outside
(see :mod:`.outside`):

- ``decide(view) -> Decision`` is called each time the player is in the cave and must
  choose, with a frozen :class:`~diamant_tui.engine.view.PlayerView` of exactly what a person in
  that seat may know: the path, the cards left in the deck (counted, never their order),
  who is still in the cave and what each carries, the chests (unless hidden), the
  relics taken, and the results of the rounds played so far. It returns
  ``Decision.CONTINUE`` or ``Decision.LEAVE`` (the texts ``"continue"`` and ``"leave"``
  are accepted too).
- The game's events reach the player through those views: between two calls it may
  compare what changed (who left, which card came, how the last round ended in
  ``view.round_results``). A view with ``round == 1`` and ``step == 1`` starts a game.
- ``watch(view) -> None``, optional, is called once it has left the cave, with its view
  of each step of the round that follows (the same moments at which it would have been
  asked to decide: a new card showing, who left at the step before), as a person in camp
  sees them. It returns nothing; a player without it is not called.
- ``spec``, optional, is how the player is named; a player from outside gets the name it
  was loaded by.

A decision that raises, returns anything else or takes too long is a failure of that
player: the simulator stops with an error that names it; a table has a stand-in play
that one decision and logs it. A ``watch`` that raises is logged once, naming the player,
and not called again for it in that game (simulator) or at that table; the game goes on.
"""

from __future__ import annotations

from typing import Protocol

from ..engine.view import Decision, PlayerView


class Bot(Protocol):
    """A computer player. It sees exactly what a person in its seat would see."""

    spec: str
    """How it is named everywhere: ``NAME`` or ``NAME:PARAM``."""

    def decide(self, view: PlayerView) -> Decision:
        """Continue or leave, from this view alone."""
        ...
