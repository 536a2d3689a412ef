"""Exceptions raised by the engine and the record reader.

Each message names the bad value and what was allowed, so it can be shown as is.
"""


class DiamantError(Exception):
    """Base class of every error the rules engine raises."""


class GameSetupError(DiamantError, ValueError):
    """A game cannot be set up as asked (player count, names, rule set, rounds)."""


class UnknownRules(GameSetupError):
    """The rule set name is not one of ``classic``, ``relics``, ``relic-variant``."""


class UnknownCard(DiamantError, ValueError):
    """A card code cannot be read."""


class IllegalAction(DiamantError):
    """An action that the rules do not allow at this moment."""


class UnknownPlayer(IllegalAction, KeyError):
    """A seat or name that is not at this table."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class IllegalDecision(IllegalAction):
    """A decision from a player who may not decide now."""


class NoDecisionDue(IllegalAction):
    """A decision was sent while the game waits for a card to be revealed."""


class CardNotInDeck(IllegalAction):
    """A card to reveal that is not in the deck at this moment."""


class GameOver(IllegalAction):
    """Any action after the last round has ended."""


class RecordError(DiamantError, ValueError):
    """A game record that cannot be replayed; the message names the round and step."""
