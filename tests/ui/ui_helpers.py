"""Helpers for the interface tests: waiting, rendering a screen as text, fixed tables."""

from __future__ import annotations

import asyncio
import io
from contextlib import asynccontextmanager
from typing import Callable

from rich.console import Console
from textual.geometry import Region
from textual.screen import Screen

from diamant_tui.engine.cards import Card, HazardType, Hazard, Relic, Rules, Treasure
from diamant_tui.engine.game import Game, GameConfig
from diamant_tui.engine.events import Event
from diamant_tui.table import SeatInfo, SeatKind, TableStatus, TableUpdate
from diamant_tui.engine.view import Decision

NAMES = ("Ana", "Bruno", "Chiara", "Dmytro")


async def until(pilot, predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    """Let the app run until ``predicate()`` holds (a generous bound, not a timing test)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not reached")
        await pilot.pause(0.005)


def screen_text(app) -> str:
    """What a person sees now: the whole screen as plain text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    update = app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens, simplify=True
    )
    console.print(update)
    return console.export_text()


def screen_segments(app) -> list:
    """What a terminal is sent for the whole screen now: every run of text with its style
    (two screens that read the same but differ in colour or weight are told apart)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", legacy_windows=False)
    update = app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens, simplify=True
    )
    return list(console.render(update))


def summary_shown(app) -> bool:
    """Whether the table screen is showing its round summary."""
    from diamant_tui.ui.screens.table import TableScreen
    from diamant_tui.ui.widgets.round_summary import RoundSummary

    screen = app.screen
    return isinstance(screen, TableScreen) and screen.query_one(RoundSummary).shown



@asynccontextmanager
async def round_summary_up(seat: int | None = 0):
    """A person's app at 80x24 (a spectator's, with ``seat`` None) at a :class:`FixedTable`
    whose first round has just ended in disaster (:func:`after_disaster`), the round's
    summary on show: the table and the app's pilot."""
    from diamant_tui.ui import DiamantApp

    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(seat))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        after_disaster(table)
        await until(pilot, lambda: summary_shown(app))
        yield table, pilot

def final_shown(app) -> bool:
    """Whether the table screen is showing the final scores."""
    from diamant_tui.ui.screens.table import TableScreen
    from diamant_tui.ui.widgets.final_scores import FinalScores

    screen = app.screen
    if not isinstance(screen, TableScreen):
        return False
    finals = screen.query(FinalScores)
    return bool(finals) and finals.first().shown and finals.first().is_mounted


def table_shown(app) -> bool:
    """Whether the table itself is on the screen (no summary, dialog or final scores)."""
    from diamant_tui.ui.screens.table import TableScreen

    return isinstance(app.screen, TableScreen) and not summary_shown(app)


async def settled(pilot) -> None:
    """Wait until the app has worked through everything queued: messages, screens pushed
    or popped, and animations (idle, not a fixed pause)."""
    app = pilot.app
    while True:
        stack = list(app.screen_stack)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        if list(app.screen_stack) == stack:
            return


def T(value: int) -> Treasure:
    return Treasure(value)


def H(kind: str) -> Hazard:
    return Hazard(HazardType(kind))


class FixedTable:
    """A table whose game the test drives card by card (a stacked deck), for snapshots.

    It offers the part of the Table API the interface uses and publishes real engine
    views; the test calls :meth:`reveal` and :meth:`decide` to move the game on.
    """

    def __init__(self, rules: Rules = Rules.CLASSIC, names=NAMES, hidden: bool = False) -> None:
        self.config = GameConfig(names, rules, chests_hidden=hidden)
        self.game = Game(self.config, seed=1)
        self.status = TableStatus.PLAYING
        self.subscribers: list[tuple[int | None, Callable]] = []
        self.submitted: list[tuple[int, Decision]] = []
        self.rematches = 0

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(s, n, SeatKind.PERSON if s == 0 else SeatKind.BOT,
                     None if s == 0 else "carry:20", False, True)
            for s, n in enumerate(self.game.names)
        )

    def subscribe(self, seat, callback):
        self.subscribers.append((seat, callback))
        callback(self._update(seat, ()))
        return lambda: None

    def _update(self, seat, events) -> TableUpdate:
        return TableUpdate(self.game.view_for(seat), tuple(events), self.seats, self.status, (),
                           seat=seat)

    def member(self, seat: int | None) -> "FixedMember":
        """The member the interface is given for ``seat`` (None: a spectator)."""
        return FixedMember(self, seat)

    def publish(self, events: list[Event]) -> None:
        if self.game.over:
            self.status = TableStatus.FINISHED
        for seat, callback in self.subscribers:
            callback(self._update(seat, events))

    def reveal(self, *cards: Card) -> None:
        for card in cards:
            self.publish(self.game.reveal(card))

    def decide(self, **by_name: str) -> None:
        """Submit decisions by player name (``Ana="continue"``)."""
        events = []
        for name, decision in by_name.items():
            events += self.game.submit(name, decision)
        self.publish(events)

    def everyone(self, decision: str) -> None:
        self.decide(**{self.game.names[s]: decision for s in self.game.players_in_cave})

    def rematch(self) -> None:
        """A new game at the table, the same seats: its first update."""
        self.game = Game(self.config, seed=1)
        self.status = TableStatus.PLAYING
        self.publish([])

    # intents the interface may send
    def submit(self, seat: int, decision: Decision) -> None:
        self.submitted.append((seat, decision))
        self.publish(self.game.submit(seat, decision))


class FixedMember:
    """A seat (or spectator) at a :class:`FixedTable`: the Member API, recorded."""

    def __init__(self, table: FixedTable, seat: int | None) -> None:
        self.table, self.seat = table, seat
        self.name = "spectator" if seat is None else table.game.names[seat]
        self.said: list[str] = []

    @property
    def watching(self) -> bool:
        return self.seat is None

    def subscribe(self, callback):
        return self.table.subscribe(self.seat, callback)

    def decide(self, decision: Decision) -> None:
        self.table.submit(self.seat, decision)

    def say(self, text: str) -> None:
        self.said.append(text)

    def may_chat(self) -> None:
        pass

    def vote_rematch(self) -> None:
        self.table.rematches += 1

    def start_now(self) -> None:
        pass

    def wake(self) -> None:
        pass

    def leave(self) -> None:
        pass


def mid_round(table: FixedTable) -> FixedTable:
    """Round 2, six cards on the path, Bruno is in camp; Chiara has decided, Ana not yet."""
    table.reveal(T(9))
    table.everyone("continue")
    table.reveal(T(5))
    table.everyone("leave")
    for card in (T(11), T(7)):
        table.reveal(card)
        table.everyone("continue")
    table.reveal(H("lava"))
    table.decide(Ana="continue", Bruno="leave", Chiara="continue", Dmytro="continue")
    for card in (T(2), H("rams")):
        table.reveal(card)
        table.decide(Ana="continue", Chiara="continue", Dmytro="continue")
    table.reveal(T(13))
    table.decide(Chiara="leave", Dmytro="continue")
    return table


def after_disaster(table: FixedTable) -> FixedTable:
    """Round 1 ends in a disaster: a second snakes catches everyone still in the cave."""
    table.reveal(T(9))
    table.everyone("continue")
    table.reveal(H("snakes"))
    table.everyone("continue")
    table.reveal(T(14))
    table.decide(Ana="continue", Bruno="leave", Chiara="continue", Dmytro="continue")
    table.reveal(H("spiders"))
    table.everyone("continue")
    table.reveal(H("snakes"))
    return table


def whole_game(table: FixedTable, *, last_card: bool = True) -> FixedTable:
    """Five rounds; Ana and Chiara tie for the victory (the game ends with the last card,
    the second boulders, held back if not ``last_card``)."""
    plays = [
        ([T(9), T(14)], {"Ana": "leave", "Bruno": "continue", "Chiara": "leave", "Dmytro": "continue"},
         [H("snakes"), H("snakes")]),
        ([T(7), T(4)], {"Ana": "continue", "Bruno": "leave", "Chiara": "continue", "Dmytro": "leave"},
         [T(11), H("lava"), H("lava")]),
        ([T(13)], {"Ana": "leave", "Bruno": "leave", "Chiara": "leave", "Dmytro": "leave"}, []),
        ([T(5), T(3)], {"Ana": "continue", "Bruno": "continue", "Chiara": "continue", "Dmytro": "leave"},
         [H("rams"), H("rams")]),
        ([T(15)], {"Ana": "leave", "Bruno": "continue", "Chiara": "leave", "Dmytro": "continue"},
         [H("boulders"), H("boulders")]),
    ]
    if not last_card:
        plays[-1][2].pop()
    for first, choice, rest in plays:
        for card in first[:-1]:
            table.reveal(card)
            table.everyone("continue")
        table.reveal(first[-1])
        table.decide(**choice)
        for card in rest:
            table.reveal(card)
            if table.game.phase.value == "decision":
                table.everyone("continue")
    return table


def drawn_lines(widget) -> list:
    """The lines ``widget`` gives the compositor for the whole of it."""
    return widget.render_lines(Region(0, 0, *widget.size))


def cell_looks(strip) -> list[tuple[str, object]]:
    """Each cell of a drawn line: its character and look (without the mouse's selection
    offsets)."""
    return [(char, segment.style.clear_meta_and_links() if segment.style else None)
            for segment in strip for char in segment.text]


class FrameCounter:
    """Counts the frames an app sends to its terminal, and how many were full repaints."""

    def __init__(self, app) -> None:
        self.frames = 0
        self.full = 0
        self.bytes = 0
        self.sent: list[str] = []
        """What each frame wrote to the terminal (escape sequences included)."""
        self._app = app
        self._display = app._display
        app._display = self._count

    def _count(self, screen, renderable) -> None:
        if renderable is not None:
            self.frames += 1
            self.full += type(renderable).__name__ == "LayoutUpdate"
            written = renderable.render_segments(self._app.console)
            self.bytes += len(written)
            self.sent.append(written)
        self._display(screen, renderable)

    def reset(self) -> None:
        self.frames = self.full = self.bytes = 0
        self.sent.clear()


__all__ = ["FixedMember", "FixedTable", "FrameCounter", "cell_looks", "H", "NAMES", "Relic", "T", "after_disaster", "mid_round", "round_summary_up",
           "screen_segments", "screen_text", "settled", "summary_shown", "table_shown", "until",
           "whole_game"]


def screen_layouts(monkeypatch) -> list[Screen]:
    """The screens laid out from now on, one entry per layout."""
    layouts: list[Screen] = []
    refresh_layout = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(self)
        return refresh_layout(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return layouts


THREE_LANGS = ("en", "fr", "uk")
THREE_SIZES = ((80, 24), (100, 30), (80, 24))


async def three_at_a_table(stack, **run_test) -> tuple:
    """A real table with a computer player, two people (English at 80x24, French at
    100x30) and a Ukrainian spectator, each in an app run on ``stack``: the table and the
    three pilots."""
    from diamant_tui.table import Table, TableSettings
    from diamant_tui.ui import DiamantApp

    table = Table(TableSettings(name="den", seats=3, bots=("cards:4",), pace=0.02, seed=5))
    members = [table.sit("ann", "ann"), table.sit("bob", "bob"), table.watch("wes", "wes")]
    pilots = []
    for member, lang, size in zip(members, THREE_LANGS, THREE_SIZES):
        app = DiamantApp(lang=lang, member=member)
        pilots.append(await stack.enter_async_context(app.run_test(size=size, **run_test)))
    return table, pilots


async def play_to_the_end(table, pilots, before_choice=None, timeout: float = 90.0) -> None:
    """The people among ``pilots`` (the first two) play until the game is over: each goes
    on for four cards, then leaves; ``before_choice(view)`` is awaited before a choice."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while table.status is not TableStatus.FINISHED:
        assert loop.time() < end, "the game did not end"
        for pilot in pilots[:2]:
            view = getattr(pilot.app.screen, "view", None)
            if view is not None and view.decision_due and view.my_decision is None:
                if before_choice is not None:
                    await before_choice(view)
                await pilot.press("c" if view.step < 4 else "l")
        await asyncio.sleep(0.02)
