"""A recorded game again, step by step, as a spectator saw it.

:class:`Playback` takes a checked record (a :class:`~diamant_tui.engine.record.Replay`) and
gives the spectator's view at any step, with the events of that step and of every step
before it. The steps are those a table shows one at a time: a round begins, a card is
revealed, the choices of a turn are revealed together (never one by one, as at a table).

Going back is playing the record again from its first step: a whole game is a few
hundred engine steps, far cheaper than drawing one screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .cards import Card, Rules
from .config import GameConfig
from .events import Event
from .game import Game
from .record import Replay
from .view import Decision, PlayerView


@dataclass(frozen=True)
class _NextRound:
    """The next round begins (its path starts empty)."""


Move = Union[_NextRound, Card, dict[int, Decision]]
"""One step of a record: a round begins, a card is revealed, or a turn's choices by seat."""


@dataclass(frozen=True)
class PlaybackStep:
    """The game at one step of a record, as a spectator sees it."""

    number: int
    """The step, from 1 (the first round begins) to the number of steps."""
    view: PlayerView
    """What a spectator sees after this step."""
    events: tuple[Event, ...]
    """What this step did."""
    history: tuple[Event, ...]
    """Every event from the start of the game to this step, this step's included."""


class Playback:
    """The steps of a checked record; :meth:`at` gives any of them, in any order."""

    def __init__(self, replay: Replay) -> None:
        game = replay.game
        self.names: tuple[str, ...] = game.names
        self.rules: Rules = game.rules
        self.meta = replay.meta
        self.finished = replay.finished
        moves: list[Move] = []
        self._round_starts: list[int] = [1]
        for number, history in enumerate(game.history, 1):
            if number > 1:
                moves.append(_NextRound())
                self._round_starts.append(len(moves) + 1)
            # A turn still waiting for its choices (an unfinished record) is no step.
            moves.extend(history.steps())
        self._moves = moves
        self._game = self._new_game()
        self._done = 0
        """How many moves ``_game`` has played."""
        self._marks = [len(self._game.events)]
        """The number of events after each move played so far (index 0: before any)."""

    def __len__(self) -> int:
        """How many steps there are (the first round's beginning counts as one)."""
        return len(self._moves) + 1

    @property
    def rounds(self) -> int:
        """How many rounds the record reaches (begun, whether finished or not)."""
        return len(self._round_starts)

    def round_start(self, round_: int) -> int | None:
        """The step at which round ``round_`` begins, or None if the record never gets there."""
        if 1 <= round_ <= len(self._round_starts):
            return self._round_starts[round_ - 1]
        return None

    def round_of(self, number: int) -> int:
        """The round on show at step ``number``."""
        return sum(1 for start in self._round_starts if start <= number)

    def at(self, number: int) -> PlaybackStep:
        """Step ``number`` (1 to ``len(self)``): IndexError outside them."""
        if not 1 <= number <= len(self):
            raise IndexError(f"step {number} is not between 1 and {len(self)}.")
        moves = number - 1
        if moves < self._done:
            # Back: the game cannot undo a step, so it starts again from the record.
            self._game, self._done = self._new_game(), 0
        game = self._game
        while self._done < moves:
            self._play(game, self._moves[self._done])
            self._done += 1
            if len(self._marks) <= self._done:
                self._marks.append(len(game.events))
        events = tuple(game.events)
        start = self._marks[moves - 1] if moves else 0
        return PlaybackStep(number, game.view_for(None), events[start:], events)

    # -- the only calls into the game's rules: one place to change with them -------------

    def _new_game(self) -> Game:
        return Game(GameConfig(self.names, self.rules))

    @staticmethod
    def _play(game: Game, move: Move) -> None:
        if isinstance(move, _NextRound):
            game.start_next_round()
        elif isinstance(move, dict):
            game.apply_decisions(move)
        else:
            game.reveal(move)

