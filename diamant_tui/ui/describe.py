"""Words for the game's events and cards, in the app's language.

Pure functions: they take a translator and the players' names, so the log, the status
line and the summaries all say the same thing the same way.
"""

from __future__ import annotations

from typing import Callable, Sequence

from rich.cells import cell_len
from textual.cache import LRUCache

from ..engine.cards import Card, Hazard, HazardType, Relic, Treasure
from ..engine.events import (
    CardRevealed,
    DecisionMade,
    DecisionsRevealed,
    Disaster,
    GameEnded,
    PlayerLeft,
    RoundEnded,
    RoundStarted,
)
from ..engine.view import Phase, PlayerView
from ..i18n import Translator
from ..table.info import (ComputerPlayerFailed, Hurried, SeatGivenToComputer, TableEvent,
                          TimeRanOut)

Translate = Callable[..., str]
RUBY = "♦"
"""The ruby symbol, shown next to every ruby count (a diamond is 5 rubies)."""
DESCRIBED_KEPT = 1024
"""Lines of events kept for the process (:func:`described`): the last ones asked for."""
_NOT_YET = object()
LINE_WIDTH = 78
"""Cells a message line has on the smallest terminal the game supports (80 columns, less
the padding): a line that lists players shortens itself to fit in it."""


def hazard_name(t: Translate, hazard: HazardType) -> str:
    """The hazard type's name in the app's language."""
    return t(f"hazard.{hazard.value}")


def hazard_abbr(t: Translate, hazard: HazardType) -> str:
    """Two letters for the hazard type, distinct from the other four's in each language."""
    return t(f"hazard_abbr.{hazard.value}")


def fitting(*candidates: str, width: int = LINE_WIDTH) -> str:
    """The first of ``candidates`` that fits in ``width`` cells (the last one otherwise)."""
    for text in candidates:
        if cell_len(text) <= width:
            return text
    return candidates[-1]


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


def describe(t: Translate, names: Sequence[str], event: TableEvent) -> str | None:
    """One line for ``event``; None for events that need no line of their own."""
    if isinstance(event, SeatGivenToComputer):
        return seat_given_text(t, event)
    if isinstance(event, ComputerPlayerFailed):
        return failure_text(t, names, event)
    if isinstance(event, Hurried):
        return t("event.hurried_rematch" if event.rematch else "event.hurried",
                 name=names[event.seat], late=names_of(names, event.late),
                 seconds=f"{event.seconds:g}")
    if isinstance(event, TimeRanOut):
        return t("event.time_ran_out", late=names_of(names, event.late))
    if isinstance(event, RoundStarted):
        if event.relic_added is not None:
            return t("event.round_started_relic", round=event.round,
                     value=event.relic_added.value)
        return t("event.round_started", round=event.round)
    if isinstance(event, CardRevealed):
        return _revealed(t, names, event)
    if isinstance(event, DecisionMade):
        return t("event.decided", name=names[event.seat])
    if isinstance(event, DecisionsRevealed):
        return decisions_text(t, names, event)
    if isinstance(event, PlayerLeft):
        return left_text(t, names, event)
    if isinstance(event, Disaster):
        return disaster_text(t, names, event)
    if isinstance(event, RoundEnded):
        return round_end_text(t, event.round, event.disaster)
    if isinstance(event, GameEnded):
        return fitting(
            t("event.game_ended", names=names_of(names, event.winners)),
            t("event.game_ended_count", count=len(event.winners)),
        )
    return None


_DESCRIBED: LRUCache[tuple, str | None] = LRUCache(DESCRIBED_KEPT)


def described(translator: Translator, names: tuple[str, ...], event: TableEvent) -> str | None:
    """:func:`describe`, the line kept for the process: every seat at a table in one
    language describes the same event with the same names."""
    key = (translator.lang, names, event)
    text = _DESCRIBED.get(key, _NOT_YET)
    if text is _NOT_YET:
        text = _DESCRIBED[key] = describe(translator, names, event)
    return text  # type: ignore[return-value]


def seat_given_text(t: Translate, event: SeatGivenToComputer) -> str:
    """Who took the seat of a person who left, and whose it was: the computer player
    marked as the player list marks one, so that nobody takes it for a person (a person
    may show under a name a computer player has, and the other way round)."""
    computer = f"{event.computer} {t('players.computer')}"
    return t("event.seat_to_computer", computer=computer, name=event.person)


def failure_text(t: Translate, names: Sequence[str], event: ComputerPlayerFailed) -> str:
    """Which computer player failed and how, and who decided in its place. What it
    raised or answered is its own text, shown as it is, in every language."""
    name, player, stand_in = names[event.seat], event.player, event.stand_in
    if event.kind == "raised":
        return t("event.computer_raised", name=name, player=player, error=event.detail,
                 stand_in=stand_in)
    if event.kind == "answered":
        return t("event.computer_answered", name=name, player=player, answer=event.detail,
                 stand_in=stand_in)
    return t("event.computer_slow", name=name, player=player, seconds=event.detail,
             stand_in=stand_in)


def decisions_text(t: Translate, names: Sequence[str], event: DecisionsRevealed) -> str:
    """Who continues and who exits: by name when the line has room, else by number
    (each player who exits has a line of their own just after)."""

    def part(key: str, seats: tuple[int, ...], by_name: bool) -> list[str]:
        if not seats:
            return []
        if by_name:
            return [t(f"event.{key}", names=names_of(names, seats))]
        return [t(f"event.{key}_count", count=len(seats))]

    # Those who exit are named longest: they are who the next lines are about.
    forms = [(True, True), (False, True), (False, False)]
    return fitting(*(
        " · ".join(part("continuing", event.continuing, name_continuing)
                   + part("leaving", event.leaving, name_leaving))
        for name_continuing, name_leaving in forms
    ))


def left_text(t: Translate, names: Sequence[str], event: PlayerLeft) -> str:
    """A player back in camp: what they banked, what of it lay on the path, their relics."""
    fmt: dict[str, object] = dict(name=names[event.seat], banked=event.banked,
                                  picked=event.picked_up, ruby=RUBY)
    key = "event.left_picked" if event.picked_up else "event.left"
    if event.relics:
        fmt["relics"] = t("event.relics", count=len(event.relics),
                          points=sum(v for _, v in event.relics))
        key += "_relics"
    return t(key, **fmt)


def disaster_text(t: Translate, names: Sequence[str], event: Disaster) -> str:
    """The disaster line: the word, the symbol and who lost what (those who lost nothing
    are not named); the losers are counted instead when naming them does not fit."""
    text = "✖ " + t("event.disaster", hazard=hazard_name(t, event.hazard)) + " ✖"
    losses = [(s, n) for s, n in event.losses if n > 0]
    if not losses:
        return text
    named = ", ".join(f"{names[s]} −{n}{RUBY}" for s, n in losses)
    return fitting(
        text + " " + t("event.disaster_losses", losses=named),
        text + " " + t("event.disaster_losses_count", count=len(losses),
                       rubies=sum(n for _, n in losses), ruby=RUBY),
    )


def round_end_text(t: Translate, round_: int, disaster: HazardType | None) -> str:
    """How a round ended, in a few words."""
    if disaster is not None:
        return t("event.round_ended_disaster", round=round_, hazard=hazard_name(t, disaster))
    return t("event.round_ended_safe", round=round_)


def arrival_lines(t: Translate, view: PlayerView) -> list[str]:
    """What a person arriving at a game under way is told when the table sends nothing of
    the round so far (a table's first update to each person holds it: see
    ``TableUpdate.earlier``): the round, and the last card in the words its live event
    used."""
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
    elif isinstance(card, Relic):
        lines.append(_revealed(t, names, CardRevealed(view.round, view.step, card)))
    else:
        # A treasure after someone left: its shares are no longer known, its name is.
        lines.append(card_name(t, card))
    return lines


def _revealed(t: Translate, names: Sequence[str], event: CardRevealed) -> str:
    card = event.card
    if isinstance(card, Treasure):
        left = t("event.left_on_card", count=event.remainder, ruby=RUBY)
        # The players sharing it choose the plural form (the rubies left have their own).
        return t("event.treasure", value=card.value, share=event.share,
                 count=len(event.receivers), left=left, ruby=RUBY)
    if isinstance(card, Hazard):
        if event.first_of_type:
            return t("event.hazard_first", hazard=hazard_name(t, card.type))
        return t("event.hazard_second", hazard=hazard_name(t, card.type))
    assert isinstance(card, Relic)
    return t("event.relic")
