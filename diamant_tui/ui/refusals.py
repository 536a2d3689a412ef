"""What a person is told when the table refuses what they asked, in their language.

The engine and the table say why in English, for the log and for tests; they know no
language of the interface. Here each kind of refusal (its class) has a text of the
catalogues, or nothing at all: a key that came a moment too late for what the screen
showed needs no message, since the next update shows what happened instead.
"""

from __future__ import annotations

from typing import Callable

from ..engine.errors import DiamantError, GameOver, IllegalDecision, NoDecisionDue
from ..table.info import ChatRejected, NotAtTable, NotNow, NotTheCreator, OnlyPlayers, TableFull

Translate = Callable[..., str]

TOO_LATE: tuple[type[DiamantError], ...] = (NoDecisionDue, IllegalDecision, GameOver, NotNow)
"""Refusals of a key the table had moved past: a choice once the turn had ended (a
computer chose for an away seat, the card is on its way), or the player had gone back to
camp, or the game had ended; starting a game that had just begun, a rematch vote as the
final scores went. A note would describe a moment already gone, over the screen that
shows the new one."""

SAID: tuple[tuple[type[DiamantError], str], ...] = (
    (NotAtTable, "refused.gone"),
    (OnlyPlayers, "refused.watching"),
    (NotTheCreator, "refused.not_creator"),
    (TableFull, "refused.full"),
)
"""The refusals a person is told about, and the key of the text that tells them."""

OTHER = "refused.other"
"""Any other refusal: said in general words, never in the engine's English."""


def refusal_text(t: Translate, error: DiamantError) -> str | None:
    """What to tell the person about ``error`` in the language of ``t``; None when
    nothing is to be said (:data:`TOO_LATE`)."""
    if isinstance(error, ChatRejected):
        return error.text(t)
    if isinstance(error, TOO_LATE):
        return None
    for kind, key in SAID:
        if isinstance(error, kind):
            return t(key)
    return t(OTHER)
