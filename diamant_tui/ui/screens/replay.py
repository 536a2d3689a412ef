"""A recorded game watched again, step by step, with the table screen's widgets.

The screen is given a checked record (a :class:`~diamant_tui.engine.record.Replay`) and
shows what a spectator saw at each step: a round begins, a card is turned, the choices
of a turn are revealed together. It goes forward and back, jumps to the start of a
round, and plays by itself at a chosen speed. Leaving it posts :class:`LeaveReplay`:
the app decides where that leads.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Label

from ...engine.events import DecisionMade, Disaster, RoundStarted
from ...engine.playback import Playback, PlaybackStep
from ...engine.record import PERSON, Replay, parse_time
from ...engine.view import Phase, PlayerView
from ..describe import describe
from ..literal import literal, printable
from ..messages import LeaveReplay
from ..widgets.cave_path import CavePath, shown_path
from ..widgets.deck_info import DeckInfo, DeckState
from ..widgets.event_banner import SHOWN, EventBanner
from ..widgets.game_log import KeptLog
from ..widgets.players import PlayerList, PlayersState
from ..widgets.key_bar import KeyBar
from ..widgets.replay_header import HeaderState, ReplayHeader
from ..widgets.replay_progress import ProgressState, ReplayProgress
from ..widgets.round_bar import BarState, RoundBar
from ..widgets.too_small import below_minimum
from ..widgets.score_table import ScoreTable
from .base import DiamantScreen

SPEEDS = (0.25, 0.5, 1, 2, 4, 8)
"""Steps a second (times ``1 / step_seconds``) that the faster and slower keys go through."""
SPEED_LABELS = ("×¼", "×½", "×1", "×2", "×4", "×8")
NORMAL_SPEED = SPEEDS.index(1)
STEP = Binding.Group("key.step", compact=True)
SPEED = Binding.Group("key.speed", compact=True)


class ReplayScreen(DiamantScreen):
    """A recorded game, one step at a time; any DiamantApp can push it."""

    BINDINGS = [
        Binding("left", "previous", "key.back", group=STEP),
        Binding("right", "next", "key.next", group=STEP),
        Binding("space", "toggle_play", "key.play", key_display="␣"),
        Binding("minus", "slower", "key.slower", group=SPEED),
        Binding("plus,equals_sign", "faster", "key.faster", group=SPEED),
        Binding("1", "round(1)", "key.round", key_display="1-5"),
        *(Binding(str(n), f"round({n})", show=False) for n in range(2, 6)),
        # Not in the key bar, which has no room left at 80 columns ("1" is the first step).
        Binding("home", "first", "key.first", show=False),
        Binding("end", "last", "key.last", show=False),
        Binding("g", "toggle_log", "key.log"),
        Binding("q", "leave", "key.quit"),
    ]

    def __init__(self, replay: Replay, *, step_seconds: float = 1.0,
                 back_to: str | None = None) -> None:
        """``step_seconds``: how long each step stays on show at normal speed (×1).
        ``back_to``: the catalogue key naming where ``q`` leads, when the replay lies
        over another screen (a host's list of games); None when ``q`` ends the app."""
        super().__init__()
        self.back_to = back_to
        self.playback = Playback(replay)
        self.step_seconds = step_seconds
        self.step = 0
        """The step on show (from 1; 0 before the screen is mounted)."""
        self.playing = False
        self.speed = NORMAL_SPEED
        """Index of the speed in SPEEDS."""
        self._timer: Timer | None = None
        self._held = False
        """Playing, but held at its step while the terminal is too small to show it."""
        # Names and the table's name come from a file: shown as written, without any
        # control character reaching the terminal.
        self._names = tuple(printable(name) for name in self.playback.names)
        self._people = _people(replay.meta, self.playback.names)
        self._table, self._played = _table_and_time(replay.meta)
        self._lines: list[str | None] = []
        """The line for each event of the whole game (None: no line of its own)."""
        self._logged = 0
        """How many events of the game the log has been given."""
        self._log = KeptLog()
        """The game log: its lines wait while it is hidden (80 columns, closed), so that
        they wrap at its width once it is opened, not at 20 columns."""

    def binding_text(self, key: str) -> str:
        # q names where it leads: out of the app (a replay opened alone), or back to the
        # screen the replay was opened from (a server's "My games", which read "q Quit").
        if key == "key.quit" and self.back_to is not None:
            key = self.back_to
        return super().binding_text(key)

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ReplayHeader(id="replay-header")
        with Horizontal(id="table-columns"):
            with Vertical(id="table-main"):
                yield RoundBar(id="round-bar")
                with Vertical(id="path-area"):
                    with _unfocusable(VerticalScroll(id="path-scroll")):
                        yield CavePath(id="cave-path")
                with Vertical(id="replay-final"):
                    yield Label("", id="replay-winners")
                    yield ScoreTable(id="replay-scores")
                with Horizontal(id="table-middle"):
                    yield PlayerList(id="players")
                    yield DeckInfo(id="deck")
                yield EventBanner(id="banner")
            # A new log for each composition (a new language writes the game again).
            self._log = KeptLog()
            yield _unfocusable(self._log.make())
        yield ReplayProgress(id="replay-progress")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(CavePath).empty_text = self.app.t("path.empty")
        last = self.playback.at(len(self.playback))
        self._lines = [
            None if isinstance(event, DecisionMade) else describe(self.app.t, self._names, event)
            for event in last.history
        ]
        self.show_step(self.step or 1)

    async def retranslate(self) -> None:
        """Redraw in the app's new language at the same step (the log too)."""
        await super().retranslate()
        self._logged = 0
        self.on_mount()

    # -- showing a step --------------------------------------------------------------

    @property
    def steps(self) -> int:
        """How many steps the record has."""
        return len(self.playback)

    @property
    def _when(self) -> str | None:
        """When the game was played (UTC), the day written as the language writes it
        (as the list of one's games does)."""
        played = self._played
        if played is None:
            return None
        day = self.app.t("history.date", year=f"{played.year:04d}",
                         month=f"{played.month:02d}", day=f"{played.day:02d}")
        return f"{day} {played:%H:%M} UTC"

    def show_step(self, number: int) -> None:
        """Show step ``number`` (kept between the first and the last)."""
        number = max(1, min(number, self.steps))
        step = self.playback.at(number)
        view = self._shown(step.view)
        self.step = number
        with self.app.batch_update():
            self.query_one(ReplayHeader).state = HeaderState(
                number, self.steps, self._table, self._when)
            self.query_one(RoundBar).state = BarState.of(view)
            cave_path = self.query_one(CavePath)
            path = shown_path(view)
            if cave_path.path != path:
                cave_path.path = path
                # Forced: a scroll bar the path brings is not there yet (see TableScreen).
                self.query_one("#path-scroll", VerticalScroll).scroll_end(animate=False,
                                                                          force=True)
            self.query_one(PlayerList).state = PlayersState(view, frozenset(), self._people)
            self.query_one(DeckInfo).state = DeckState.of(view)
            self._show_lines(step)
            self._show_final(view)
            self._show_progress()
        self.refresh_bindings()

    def _shown(self, view: PlayerView) -> PlayerView:
        """``view`` with the names as they may be shown."""
        if self._names == tuple(p.name for p in view.players):
            return view
        players = tuple(replace(p, name=self._names[p.seat]) for p in view.players)
        return replace(view, players=players)

    def _show_lines(self, step: PlaybackStep) -> None:
        """This step's lines in the banner, the round's earlier ones in the feed, and
        the whole game so far in the log."""
        end = len(step.history)
        begin = end - len(step.events)
        latest = [line for line in self._lines[begin:end] if line]
        disaster = any(isinstance(event, Disaster) for event in step.events)
        shown = self.query_one(EventBanner).show(latest, disaster=disaster)
        start = max(i for i, event in enumerate(step.history) if isinstance(event, RoundStarted))
        round_lines = [line for line in self._lines[start:end] if line]
        kept = len(round_lines) - min(SHOWN, shown)
        self.query_one(CavePath).feed = tuple(round_lines[:kept])
        log = self._log
        if end < self._logged:
            log.clear()  # back: the log is written again up to this step
            self._logged = 0
        for line in self._lines[self._logged:end]:
            if line:
                log.write(line)
        self._logged = end

    def _show_final(self, view: PlayerView) -> None:
        """After the last round: the final scores in place of the cave."""
        over = view.phase is Phase.OVER
        self.set_class(over, "-over")
        if not over:
            return
        t = self.app.t
        names = [view.players[s].name for s in view.winners]
        key = "final.winner" if len(names) == 1 else "final.winners"
        self.query_one("#replay-winners", Label).update(
            literal(f"{t('final.title')} · ★ {t(key, names=', '.join(names))}"))
        self.query_one(ScoreTable).view = view

    def _show_progress(self) -> None:
        starts = tuple(self.playback.round_start(r) or 1 for r in range(1, self.playback.rounds + 1))
        self.query_one(ReplayProgress).state = ProgressState(
            step=self.step,
            steps=self.steps,
            round_starts=starts,
            playing=self.playing,
            speed=SPEED_LABELS[self.speed],
            finished=self.playback.finished,
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys that cannot move from here are shown dimmed.
        if action in ("previous", "first"):
            return self.step > 1 or None
        if action in ("next", "last"):
            return self.step < self.steps or None
        if action == "slower":
            return self.speed > 0 or None
        if action == "faster":
            return self.speed < len(SPEEDS) - 1 or None
        return True

    # -- moving ----------------------------------------------------------------------

    def action_next(self) -> None:
        self._go(self.step + 1)

    def action_previous(self) -> None:
        self._go(self.step - 1)

    def action_first(self) -> None:
        self._go(1)

    def action_last(self) -> None:
        self._go(self.steps)

    def action_round(self, round_: int) -> None:
        start = self.playback.round_start(round_)
        if start is None:
            self.notify(self.app.t("replay.no_round", round=round_, rounds=self.playback.rounds),
                        severity="warning")
            return
        self._go(start)

    def _go(self, number: int) -> None:
        """Show ``number``; while playing, the next step comes a whole step later."""
        self.show_step(number)
        if self.playing:
            if self.step >= self.steps:
                self._pause()
            else:
                self._schedule()

    # -- playing by itself -------------------------------------------------------------

    @property
    def step_delay(self) -> float:
        """Seconds between two steps at the speed chosen."""
        return self.step_seconds / SPEEDS[self.speed]

    def action_toggle_play(self) -> None:
        if self.playing:
            self._pause()
            return
        self.playing = True
        if self.step >= self.steps:
            self.show_step(1)  # from the end, playing starts again from the beginning
        else:
            self._show_progress()
        self._schedule()

    def action_faster(self) -> None:
        self._set_speed(self.speed + 1)

    def action_slower(self) -> None:
        self._set_speed(self.speed - 1)

    def _set_speed(self, speed: int) -> None:
        speed = max(0, min(speed, len(SPEEDS) - 1))
        if speed == self.speed:
            return
        self.speed = speed
        self._show_progress()
        self.refresh_bindings()
        if self.playing:
            self._schedule()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.step_delay, self._advance)

    def _advance(self) -> None:
        self._timer = None
        if self.playing and self.rebuilding:
            # Its widgets are being made again in a new language: the next step waits
            # for them, a step's time later.
            self._schedule()
            return
        if self.playing and self.too_small:
            # Behind the "enlarge" overlay nobody sees the cards turned: the replay
            # waits at its step, and goes on once the terminal is large enough again.
            self._held = True
            return
        if self.playing:
            self._go(self.step + 1)

    def on_resize(self, event: events.Resize) -> None:
        if self._held and not below_minimum(event.size):
            self._held = False
            if self.playing:
                self._schedule()  # the step held stays on show a whole step's time

    def _pause(self) -> None:
        self.playing = False
        self._held = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._show_progress()

    # -- the rest ----------------------------------------------------------------------

    def action_toggle_log(self) -> None:
        self.toggle_class("-log-open")

    def action_leave(self) -> None:
        self._pause()
        self.post_message(LeaveReplay())


def _unfocusable(widget: Widget) -> Widget:
    """``widget``, never given the keyboard: scrolling containers bind the arrows, Home
    and End for themselves, and here those keys move through the game."""
    widget.can_focus = False
    return widget


def _people(meta: dict, names: tuple[str, ...]) -> frozenset[int]:
    """The seats people played, as the record's ``meta.seats`` says (all, when it does not)."""
    seats = meta.get("seats")
    if not isinstance(seats, dict):
        return frozenset(range(len(names)))
    return frozenset(s for s, name in enumerate(names) if seats.get(name) == PERSON)


def _table_and_time(meta: dict) -> tuple[str | None, datetime | None]:
    """The table's name and when the game was played (UTC), as far as ``meta`` tells."""
    table = meta.get("table")
    table = table if isinstance(table, str) and table.strip() else None
    when = None
    for key in ("started", "ended"):
        text = meta.get(key)
        if isinstance(text, str):
            try:
                when = parse_time(text).astimezone(timezone.utc)
            except ValueError:
                continue
            break
    return table, when
