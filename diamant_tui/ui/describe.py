"""Words for the game's events and cards, in the app's language.

Pure functions: they take a translator and the players' names, so the log, the status
line and the summaries all say the same thing the same way.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..cards import Card, Hazard, HazardType, Relic, Treasure
from ..events import (
    CardRevealed,
    DecisionMade,
    DecisionsRevealed,
    Disaster,
    Event,
    GameEnded,
    PlayerLeft,
    RoundEnded,
    RoundStarted,
)
from ..view import Phase, PlayerView

Translate = Callable[..., str]
RUBY = "♦"
"""The ruby symbol, shown next to every ruby count (a diamond is 5 rubies)."""


def hazard_name(t: Translate, hazard: HazardType) -> str:
    """The hazard type's name in the app's language."""
    return t(f"hazard.{hazard.value}")


def card_name(t: Translate, card: Card) -> str:
    """A card in words: ``Treasure 11``, ``Trap: snakes``, ``Relic``."""
    if isinstance(card, Treasure):
        return t("card.treasure", value=card.value)
    if isinstance(card, Hazard):
        return t("card.hazard", hazard=hazard_name(t, card.type))
    if card.value is not None:
        return t("card.relic_value", value=card.value)
    return t("card.relic")


def names_of(names: Sequence[str], seats: Sequence[int]) -> str:
    """Players' names joined with commas."""
    return ", ".join(names[s] for s in seats)


def describe(t: Translate, names: Sequence[str], event: Event) -> str | None:
    """One line for ``event``; None for events that need no line of their own."""
    if isinstance(event, RoundStarted):
        text = t("event.round_started", round=event.round)
        if event.relic_added is not None:
            text += " " + t("event.relic_added", value=event.relic_added.value)
        return text
    if isinstance(event, CardRevealed):
        return _revealed(t, names, event)
    if isinstance(event, DecisionMade):
        return t("event.decided", name=names[event.seat])
    if isinstance(event, DecisionsRevealed):
        parts = []
        if event.continuing:
            parts.append(t("event.continuing", names=names_of(names, event.continuing)))
        if event.leaving:
            parts.append(t("event.leaving", names=names_of(names, event.leaving)))
        return " · ".join(parts)
    if isinstance(event, PlayerLeft):
        text = t("event.left", name=names[event.seat], banked=event.banked,
                 picked=event.picked_up, ruby=RUBY)
        if event.relics:
            text += " " + t("event.left_relics", count=len(event.relics),
                            points=sum(v for _, v in event.relics))
        return text
    if isinstance(event, Disaster):
        return disaster_text(t, names, event)
    if isinstance(event, RoundEnded):
        return round_end_text(t, event.round, event.disaster)
    if isinstance(event, GameEnded):
        return t("event.game_ended", names=names_of(names, event.winners))
    return None


def disaster_text(t: Translate, names: Sequence[str], event: Disaster) -> str:
    """The disaster banner: the word, the symbol and who lost what."""
    text = "✖ " + t("event.disaster", hazard=hazard_name(t, event.hazard)) + " ✖"
    lost = [f"{names[s]} −{n}{RUBY}" for s, n in event.losses]
    if lost:
        text += " " + t("event.disaster_losses", losses=", ".join(lost))
    return text


def round_end_text(t: Translate, round_: int, disaster: HazardType | None) -> str:
    """How a round ended, in a few words."""
    if disaster is not None:
        return t("event.round_ended_disaster", round=round_, hazard=hazard_name(t, disaster))
    return t("event.round_ended_safe", round=round_)


def arrival_lines(t: Translate, view: PlayerView) -> list[str]:
    """What a person arriving at a game under way is told: the round, and the last card in
    the words its live event used (a table starts as its last seat is taken, so the
    first card can be turned before the newcomer's screen is listening)."""
    lines = [t("event.round_started", round=view.round)]
    if not view.path:
        return lines
    last = view.path[-1]
    card = last.card
    names = [p.name for p in view.players]
    if isinstance(card, Treasure) and view.phase is Phase.DECISION:
        # Nobody has left since this card was turned: the players in the cave shared it
        # and what lies on it is the remainder.
        receivers = tuple(p.seat for p in view.players if p.in_cave)
        share = (card.value - last.rubies) // len(receivers) if receivers else 0
        event = CardRevealed(view.round, view.step, card, receivers, share, last.rubies)
        lines.append(_revealed(t, names, event))
    elif isinstance(card, Hazard):
        first = sum(1 for pc in view.path if pc.card == card) == 1
        lines.append(_revealed(t, names, CardRevealed(view.round, view.step, card,
                                                      first_of_type=first)))
    else:
        lines.append(card_name(t, card))
    return lines


def _revealed(t: Translate, names: Sequence[str], event: CardRevealed) -> str:
    card = event.card
    if isinstance(card, Treasure):
        return t("event.treasure", value=card.value, share=event.share,
                 count=len(event.receivers), remainder=event.remainder, ruby=RUBY)
    if isinstance(card, Hazard):
        if event.first_of_type:
            return t("event.hazard_first", hazard=hazard_name(t, card.type))
        return t("event.hazard_second", hazard=hazard_name(t, card.type))
    assert isinstance(card, Relic)
    return t("event.relic")
