"""The rules of Diamant as a pure, synchronous state machine (RULES.md).

A :class:`Game` is the state of one game, built from its settings, a :class:`GameConfig`
(open_spiel's ``Game``/``State`` split). It alternates two kinds of step. A *reveal* is a
chance step: the caller names the card (:meth:`Game.reveal`), so tests, replays and a
restored table can stack the deck, or asks for one drawn with the game's own seeded RNG
(:meth:`Game.reveal_random`); the game never draws otherwise. A *decision* step collects
one secret choice from every player in the cave (:meth:`Game.submit`); the turn resolves
when the last choice is in. Every step returns the events it caused.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import groupby
from dataclasses import dataclass, field, replace
from typing import Mapping

from .cards import (
    VARIANT_RELIC_VALUES,
    Card,
    Hazard,
    HazardType,
    Relic,
    Rules,
    Treasure,
    base_deck,
    relic_value_in_relics,
    sort_key,
)
from .config import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, GameConfig
from .errors import (
    CardNotInDeck,
    GameOver,
    IllegalDecision,
    NoDecisionDue,
    UnknownPlayer,
)
from .events import (
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
from .view import Decision, PathCard, Phase, PlayerView, RoundResult, SeatView

# The settings live in .config; callers also find them here, beside the state.
__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "ROUNDS", "Game", "GameConfig", "RoundHistory"]


@dataclass
class RoundHistory:
    """The cards revealed in one round and the decisions after each (by seat)."""

    cards: list[Card] = field(default_factory=list)
    decisions: list[dict[int, Decision]] = field(default_factory=list)

    def steps(self) -> list[Card | dict[int, Decision]]:
        """The round in the order it was played: each card, then the choices of the turn
        that followed it (a turn still waiting for its choices is no step)."""
        steps: list[Card | dict[int, Decision]] = []
        for card, decisions in zip(self.cards, self.decisions + [{}]):
            steps.append(card)
            if decisions:
                steps.append(dict(decisions))
        return steps


class Game:
    """The state of one game of Diamant, played under its :class:`GameConfig`."""

    def __init__(
        self,
        config: GameConfig,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not isinstance(config, GameConfig):
            raise TypeError(
                f"Game takes a GameConfig, not {type(config).__name__}: "
                "Game(GameConfig(players, rules), seed=...)."
            )
        self.config = config
        self.rng = rng if rng is not None else random.Random(seed)
        n = len(self.names)
        self.deck: list[Card] = base_deck(self.rules)
        self._deck_view: tuple[tuple[str, int], ...] | None = None
        self.round = 0
        self.step = 0
        self.phase = Phase.REVEAL
        self.path: list[PathCard] = []
        self.in_cave = [True] * n
        self.carried = [0] * n
        self.chest = [0] * n
        self.relics: list[list[int]] = [[] for _ in range(n)]
        self.pending: dict[int, Decision] = {}
        self.relics_taken = 0
        self.hazards_removed: list[HazardType] = []
        self.round_results: list[RoundResult] = []
        self.history: list[RoundHistory] = []
        self.treasure_revealed = 0
        self.rubies_returned = 0
        self.rubies_lost = 0
        self._round_banked = [0] * n
        self._round_relics = [0] * n
        self.events: list[Event] = []
        self._emit(self._start_round())

    # -- queries -------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order (from the config)."""
        return self.config.players

    @property
    def rules(self) -> Rules:
        """The rule set (from the config)."""
        return self.config.rules

    @property
    def chests_hidden(self) -> bool:
        """Whether others see no chest totals until the game ends (from the config)."""
        return self.config.chests_hidden

    @property
    def over(self) -> bool:
        """True once the last round has ended."""
        return self.phase is Phase.OVER

    @property
    def players_in_cave(self) -> tuple[int, ...]:
        """The seats of the players still in the cave."""
        return tuple(s for s, inside in enumerate(self.in_cave) if inside)

    def seat_of(self, player: int | str) -> int:
        """The seat of ``player`` (a seat number or a name); raise UnknownPlayer otherwise."""
        if isinstance(player, bool) or not isinstance(player, (int, str)):
            raise UnknownPlayer(f"unknown player {player!r}; players are {', '.join(self.names)}.")
        if isinstance(player, str):
            if player in self.names:
                return self.names.index(player)
        elif 0 <= player < len(self.names):
            return player
        raise UnknownPlayer(f"unknown player {player!r}; players are {', '.join(self.names)}.")

    def score(self, seat: int) -> int:
        """Rubies in the chest plus the points of relics taken."""
        return self.chest[seat] + sum(self.relics[seat])

    def scores(self) -> tuple[int, ...]:
        """Every seat's score (:meth:`score`), in seat order."""
        return tuple(self.score(s) for s in range(len(self.names)))

    def winners(self) -> tuple[int, ...]:
        """Every seat tied for the highest score (ties share the victory)."""
        scores = self.scores()
        best = max(scores)
        return tuple(s for s, v in enumerate(scores) if v == best)

    def deck_counts(self) -> dict[str, int]:
        """How many cards of each code are left in the deck."""
        return dict(Counter(card.code for card in self.deck))

    def reveal_outcomes(self) -> list[tuple[Card, float]]:
        """The cards that may be revealed next, each with its probability."""
        self._require_phase(Phase.REVEAL, Phase.ROUND_OVER)
        deck = list(self.deck)
        if self.phase is Phase.ROUND_OVER and self.rules is Rules.RELIC_VARIANT:
            deck.append(Relic(VARIANT_RELIC_VALUES[self.round]))
        counts = Counter(deck)
        size = len(deck)
        return [(card, counts[card] / size) for card in sorted(counts, key=sort_key)]

    def view_for(self, seat: int | None) -> PlayerView:
        """A frozen snapshot of what ``seat`` may know (None: a spectator)."""
        if seat is not None:
            seat = self.seat_of(seat)
        hide = self.chests_hidden and not self.over
        players = tuple(
            SeatView(
                seat=s,
                name=name,
                in_cave=self.in_cave[s],
                carried=self.carried[s],
                chest=None if hide and s != seat else self.chest[s],
                relics=tuple(self.relics[s]),
                decided=s in self.pending,
            )
            for s, name in enumerate(self.names)
        )
        if self._deck_view is None:
            # The deck is kept sorted, so equal cards sit together.
            self._deck_view = tuple(
                (card.code, sum(1 for _ in same)) for card, same in groupby(self.deck)
            )
        deck = self._deck_view
        due = (
            seat is not None
            and self.phase is Phase.DECISION
            and self.in_cave[seat]
        )
        return PlayerView(
            rules=self.rules,
            seat=seat,
            players=players,
            round=self.round,
            step=self.step,
            phase=self.phase,
            path=tuple(self.path),
            deck=deck,
            hazards_removed=tuple(self.hazards_removed),
            round_results=self._round_results_for(seat, hide),
            relics_taken=self.relics_taken,
            chests_hidden=self.chests_hidden,
            decision_due=due,
            my_decision=self.pending.get(seat) if seat is not None else None,
            scores=self.scores() if self.over else None,
            winners=self.winners() if self.over else (),
            rounds=self.config.rounds,
        )

    def _round_results_for(self, seat: int | None, hide: bool) -> tuple[RoundResult, ...]:
        # What others banked round by round adds up to their chests: hide it with them.
        if not hide:
            return tuple(self.round_results)
        return tuple(
            replace(r, banked=tuple(b if s == seat else None for s, b in enumerate(r.banked)))
            for r in self.round_results
        )

    # -- reveal (chance) steps ----------------------------------------------

    def reveal(self, card: Card) -> list[Event]:
        """Reveal ``card``, which must be in the deck now (the caller names every card).

        In the ROUND_OVER phase this starts the next round first.
        """
        self._require_phase(Phase.REVEAL, Phase.ROUND_OVER)
        # Check before starting the next round, so a refused card changes nothing.
        between_rounds = self.phase is Phase.ROUND_OVER
        if between_rounds or card not in self.deck:
            possible = [c for c, _ in self.reveal_outcomes()]
            if card not in possible:
                deck = ", ".join(c.code for c in possible)
                upcoming = self.round + 1 if between_rounds else self.round
                raise CardNotInDeck(
                    f"{getattr(card, 'code', card)!s} is not in the deck in round {upcoming} "
                    f"(deck: {deck})."
                )
        started = self.start_next_round() if between_rounds else []
        self.deck.remove(card)
        self._deck_view = None
        self.step += 1
        self.history[-1].cards.append(card)
        events: list[Event] = []
        cave = self.players_in_cave
        if isinstance(card, Treasure):
            share, remainder = divmod(card.value, len(cave))
            for s in cave:
                self.carried[s] += share
            self.treasure_revealed += card.value
            self.path.append(PathCard(card, remainder))
            events.append(CardRevealed(self.round, self.step, card, cave, share, remainder))
        elif isinstance(card, Hazard):
            first = card not in (pc.card for pc in self.path)
            self.path.append(PathCard(card))
            events.append(CardRevealed(self.round, self.step, card, first_of_type=first))
            if not first:
                losses = tuple((s, self.carried[s]) for s in cave)
                for s in cave:
                    self.rubies_lost += self.carried[s]
                    self.carried[s] = 0
                    self.in_cave[s] = False
                self.hazards_removed.append(card.type)
                events.append(Disaster(self.round, card.type, losses, card))
                events.extend(self._end_round(disaster=card))
                return started + self._emit(events)
        else:
            self.path.append(PathCard(card))
            events.append(CardRevealed(self.round, self.step, card))
        self.phase = Phase.DECISION
        self.history[-1].decisions.append({})
        return started + self._emit(events)

    def reveal_random(self) -> list[Event]:
        """Reveal a card drawn from the deck with the game's own RNG (a shuffled deck's top).

        In the ROUND_OVER phase this starts the next round first.
        """
        self._require_phase(Phase.REVEAL, Phase.ROUND_OVER)
        events = self.start_next_round() if self.phase is Phase.ROUND_OVER else []
        assert self.deck, "the deck cannot run out while a player is in the cave"
        card = self.deck[self.rng.randrange(len(self.deck))]
        return events + self.reveal(card)

    # -- decision steps ------------------------------------------------------

    def submit(self, player: int | str, decision: Decision | str) -> list[Event]:
        """Record ``player``'s secret choice; it may change until the last choice is in.

        When every player in the cave has chosen, the turn resolves at once and the
        returned events include the reveal of the choices and what followed.
        """
        if self.over:
            raise GameOver("the game is over; start a new one to play again.")
        seat = self.seat_of(player)
        if self.phase is not Phase.DECISION:
            raise NoDecisionDue(
                f"no decision is due in round {self.round}: the game waits for a card to be revealed."
            )
        if not self.in_cave[seat]:
            raise IllegalDecision(
                f"{self.names[seat]} is in camp; only players in the cave decide."
            )
        self.pending[seat] = _parse_decision(decision)
        events: list[Event] = [DecisionMade(seat)]
        if len(self.pending) == len(self.players_in_cave):
            events.extend(self._resolve_turn())
        return self._emit(events)

    def apply_decisions(self, by_seat: Mapping[int | str, Decision | str]) -> list[Event]:
        """Submit several choices at once (all are checked before any is recorded)."""
        if self.over:
            raise GameOver("the game is over; start a new one to play again.")
        parsed = {self.seat_of(p): _parse_decision(d) for p, d in by_seat.items()}
        if self.phase is not Phase.DECISION:
            raise NoDecisionDue(
                f"no decision is due in round {self.round}: the game waits for a card to be revealed."
            )
        for seat in parsed:
            if not self.in_cave[seat]:
                raise IllegalDecision(
                    f"{self.names[seat]} is in camp; only players in the cave decide."
                )
        events: list[Event] = []
        for seat, decision in parsed.items():
            events.extend(self.submit(seat, decision))
        return events

    def _resolve_turn(self) -> list[Event]:
        choices = dict(sorted(self.pending.items()))
        self.pending = {}
        self.history[-1].decisions[-1] = choices
        leaving = tuple(s for s, d in choices.items() if d is Decision.LEAVE)
        continuing = tuple(s for s, d in choices.items() if d is Decision.CONTINUE)
        events: list[Event] = [DecisionsRevealed(self.round, self.step, continuing, leaving)]
        if leaving:
            events.extend(self._leave(leaving))
        if not self.players_in_cave:
            events.extend(self._end_round(disaster=None))
        else:
            self.phase = Phase.REVEAL
        return events

    def _leave(self, leaving: tuple[int, ...]) -> list[Event]:
        k = len(leaving)
        total = sum(pc.rubies for pc in self.path)
        share = total // k
        self._take_from_path(share * k)
        relics: list[tuple[Relic, int]] = []
        if k == 1:
            for i, pc in enumerate(self.path):
                if isinstance(pc.card, Relic) and not pc.taken:
                    if self.rules is Rules.RELIC_VARIANT:
                        value = pc.card.value or 0
                    else:
                        value = relic_value_in_relics(self.relics_taken)
                    self.relics_taken += 1
                    relics.append((pc.card, value))
                    self.path[i] = PathCard(pc.card, 0, taken=True)
        events: list[Event] = []
        for seat in leaving:
            carried = self.carried[seat]
            banked = carried + share
            self.chest[seat] += banked
            self.carried[seat] = 0
            self.in_cave[seat] = False
            taken = tuple(relics) if k == 1 else ()
            self.relics[seat].extend(v for _, v in taken)
            self._round_banked[seat] += banked + sum(v for _, v in taken)
            self._round_relics[seat] += sum(v for _, v in taken)
            events.append(PlayerLeft(seat, carried, share, taken, banked))
        return events

    def _take_from_path(self, amount: int) -> None:
        # Leavers walk back to camp, so they pick up from the deepest card first.
        for i in range(len(self.path) - 1, -1, -1):
            if amount <= 0:
                break
            pc = self.path[i]
            took = min(pc.rubies, amount)
            if took:
                self.path[i] = PathCard(pc.card, pc.rubies - took, pc.taken)
                amount -= took

    # -- rounds --------------------------------------------------------------

    def _start_round(self) -> list[Event]:
        self.round += 1
        self.step = 0
        self.phase = Phase.REVEAL
        self.path = []
        self.pending = {}
        n = len(self.names)
        self.in_cave = [True] * n
        self.carried = [0] * n
        self._round_banked = [0] * n
        self._round_relics = [0] * n
        self.history.append(RoundHistory())
        added = None
        if self.rules is Rules.RELIC_VARIANT:
            added = Relic(VARIANT_RELIC_VALUES[self.round - 1])
            self.deck.append(added)
            self.deck.sort(key=sort_key)
            self._deck_view = None
        return [RoundStarted(self.round, added)]

    def _end_round(self, disaster: Hazard | None) -> list[Event]:
        returned = sum(pc.rubies for pc in self.path)
        self.rubies_returned += returned
        relics_removed = sum(1 for pc in self.path if isinstance(pc.card, Relic) and not pc.taken)
        back = [pc.card for pc in self.path if not isinstance(pc.card, Relic)]
        if disaster is not None:
            back.remove(disaster)
        self.deck.extend(back)
        self.deck.sort(key=sort_key)
        self._deck_view = None
        self.round_results.append(
            RoundResult(
                self.round,
                disaster.type if disaster else None,
                self.step,
                tuple(self._round_banked),
                tuple(self._round_relics),
            )
        )
        events: list[Event] = [
            RoundEnded(self.round, disaster.type if disaster else None, returned, relics_removed)
        ]
        self.path = [PathCard(pc.card, 0, pc.taken) for pc in self.path]
        if self.round == self.config.rounds:
            self.phase = Phase.OVER
            events.append(GameEnded(self.scores(), self.winners()))
        else:
            self.phase = Phase.ROUND_OVER
        return events

    def start_next_round(self) -> list[Event]:
        """Leave the finished round's path on show no longer and begin the next round.

        Revealing a card in the ROUND_OVER phase does this first by itself.
        """
        self._require_phase(Phase.ROUND_OVER)
        return self._emit(self._start_round())

    # -- helpers -------------------------------------------------------------

    def _require_phase(self, *phases: Phase) -> None:
        if self.over:
            raise GameOver("the game is over; start a new one to play again.")
        if self.phase not in phases:
            raise NoDecisionDue(
                f"round {self.round} waits for {self.phase.value}, not {phases[0].value}."
            )

    def _emit(self, events: list[Event]) -> list[Event]:
        self.events.extend(events)
        return events


def _parse_decision(decision: Decision | str) -> Decision:
    try:
        return Decision(decision)
    except ValueError:
        raise IllegalDecision(
            f"unknown decision {decision!r}; choose 'continue' or 'leave'."
        ) from None
