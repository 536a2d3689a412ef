"""A fair share of the server's one event loop for every session.

Every session's app runs in the same event loop: while one app handles a key, lays out or
draws a frame, all the others wait. A crowd at a table (each of them typing, every key a
redraw of their own screen) can keep the loop so busy that a player's next card waits for
seconds. :class:`LoopShare` keeps each session to its share of the loop:

- it measures how much of the loop each session uses, while the loop runs late and for
  :data:`METER_FOR` seconds after (timing costs every seat CPU, and shares only matter
  then). The tasks of a session's app inherit a context variable
  (:data:`CURRENT_SESSION`) set when the app starts, and every callback the loop runs in
  such a context is timed and charged to that session: its app's key handling, layout and
  frames. (A table's game loop is started by whichever person's
  key starts the game, but it runs for everyone at the table: it is charged to nobody.)
- it measures how late the loop runs: a tick every :data:`TICK` seconds notes how late it
  came;
- while the loop runs more than ``lag`` seconds late, the input of the sessions that use
  more than their share is held back. The share splits what the loop gives the sessions
  among those that were busy or typed lately, a seat in a game in progress counting for
  ``seat_weight`` (its person has turns to take) and any other session (a spectator, the
  lobby) for one:
  the session keeps the bytes, in order, and gets them once the loop keeps time again,
  one session per tick, the longest waiting first (and at the latest after ``hold``
  seconds, however late the loop). Sessions within their share are not held: their keys
  go first. Nor is a seat in a game whose person types no more than someone deciding
  (:data:`DECIDING_KEYS`): what a player's app costs comes from the table's cards, not
  from their keys, and holding their one key a turn would only make them late for the
  game. Nothing held is lost: the input was counted against the session's allowances
  when it arrived.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import time
import weakref
from typing import Any, Callable, Protocol

from .logtext import WarningLimiter

log = logging.getLogger(__name__)

TICK = 0.05
"""Seconds between two looks at the loop's lateness and the sessions' use of it."""
BUSY = 0.005
"""A session using less of the loop than this (seconds per second), and that has not typed
lately, is idle: it does not count in the mean that sets the share."""
LATE_FOR = 0.25
"""Seconds the loop counts as late after a tick that came late: a loop kept busy by long
frames is on time now and then, between two of them."""
IDLE_MEASURE = 5
"""While no session is timed and none holds input, the sessions' use is looked at every
this many ticks only: nothing is charged to them then, and looking at every session 20
times a second was about 2 % of the server's CPU with a hundred of them."""
METERED_MEASURE = 2
"""While the sessions are timed (or one holds input), their use is looked at every this
many ticks (10 times a second): a share averaged over a window of seconds needs no more,
and the lateness is still looked at every tick. Looked at every tick, it was about 2.3 %
of the server's CPU at 100 seats."""
METER_FOR = 10.0
"""Seconds the sessions' use of the loop is still timed after the loop last ran late.
Timing every callback cost about a fifth of the CPU of a seat when this was written, so it
runs only while the loop is, or was lately, behind: that is when shares matter. (Since the
seats have become cheaper it costs no more than the noise: timed all the time, 5.61 ms per
seat per reveal against 5.67, ``benchmarks/load.py --seats 100 --pace 0.7``.)"""
DECIDING_KEYS = 4.0
"""Keys passed on lately (a count that wears off over the share's window) up to which a
seated person counts as deciding, and their input is never held: a choice takes a key or
three."""
TABLE_PACKAGE = "diamant_tui.table"
"""Tasks whose code lives here run for a whole table, not for the person who started them."""


class Metered(Protocol):
    """What the share needs of a session."""

    loop_seconds: float
    """Seconds of the loop this session has used so far (added to by the meter)."""
    last_input: float
    """When the client last sent something (``time.monotonic``)."""

    @property
    def seated(self) -> bool:
        """Whether the person holds a seat in a game being played."""

    @property
    def keys_passed(self) -> int:
        """Key presses, mouse reports and pastes passed on to the app so far."""

    def release_input(self) -> None:
        """Pass on the input held back so far."""


CURRENT_SESSION: contextvars.ContextVar[Metered | None] = contextvars.ContextVar(
    "diamant_current_session", default=None)
"""The session whose app the running code belongs to (set in the session's own task; the
app's tasks inherit it)."""


class _Use:
    """One session's use of the loop, as the ticks see it."""

    __slots__ = ("seen", "rate", "held_since", "weight", "keys", "keys_seen", "keys_at")

    def __init__(self, seen: float) -> None:
        self.seen = seen
        """The session's ``loop_seconds`` at the last tick."""
        self.rate = 0.0
        """Seconds of loop per second, averaged over the window."""
        self.held_since: float | None = None
        self.weight = 1.0
        """How many shares the session gets (a seat in a game more than others)."""
        self.keys = 0.0
        """Keys passed on lately: a count that wears off over the share's window."""
        self.keys_seen = 0
        """The session's ``keys_passed`` when ``keys`` was last brought up to date."""
        self.keys_at = 0.0
        """When that was."""


class LoopShare:
    """Measures each session's use of the loop and holds back the input of those over
    their share while the loop is late (see module docstring)."""

    def __init__(self, *, lag: float, window: float, hold: float,
                 seat_weight: float = 1.0) -> None:
        self.lag = lag
        self.window = window
        self.hold = hold
        self.seat_weight = seat_weight
        self._clock: Callable[[], float] = time.monotonic
        self._uses: dict[Metered, _Use] = {}
        self._held: dict[Metered, None] = {}
        """Sessions holding input back, the longest waiting first."""
        self._share = float("inf")
        self.late = 0.0
        """How late the last tick came, in seconds."""
        self._late_at = float("-inf")
        """When a tick last came later than ``lag``."""
        self.held_total = 0
        """Times a session's input was held back."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._measured_at = 0.0
        self._ticks = 0
        self._warnings = WarningLimiter(log, interval=30.0)
        self.metering = False
        """Whether the sessions' callbacks are timed now (see :data:`METER_FOR`)."""

    # --- sessions ---------------------------------------------------------------------

    def add(self, session: Metered) -> None:
        """Measure ``session`` from now on."""
        if session not in self._uses:
            use = self._uses[session] = _Use(session.loop_seconds)
            use.keys_seen = session.keys_passed

    def remove(self, session: Metered) -> None:
        """Forget ``session`` (it has ended); anything it held is dropped with it."""
        self._uses.pop(session, None)
        self._held.pop(session, None)

    @property
    def behind(self) -> bool:
        """True while the loop runs later than the ``lag`` allowed: the next tick is that
        late already, or one came that late within the last :data:`LATE_FOR` seconds."""
        now = self._clock()
        return now - self._late_at < LATE_FOR or (
            self._loop is not None and now - self._due > self.lag)

    @property
    def share(self) -> float:
        """One share of the loop, in seconds per second: what the sessions busy lately
        used, split among them by weight (infinite when none was busy)."""
        return self._share

    def rate(self, session: Metered) -> float:
        """How much of the loop ``session`` used lately, in seconds per second."""
        use = self._uses.get(session)
        return use.rate if use is not None else 0.0

    def weight(self, session: Metered) -> float:
        """How many shares of the loop ``session`` gets (a seat in a game more)."""
        use = self._uses.get(session)
        return use.weight if use is not None else 1.0

    def keys_lately(self, session: Metered) -> float:
        """Keys ``session`` passed on lately: each wears off over the share's window."""
        use = self._uses.get(session)
        return 0.0 if use is None else self._count_keys(session, use, self._clock())

    def _count_keys(self, session: Metered, use: _Use, now: float) -> float:
        # Also brought up to date at the first look after keys have passed, so that
        # they wear off from about when they came, not from when the count was next
        # asked for.
        passed = session.keys_passed
        use.keys = (use.keys * math.exp(-(now - use.keys_at) / self.window)
                    + passed - use.keys_seen)
        use.keys_seen, use.keys_at = passed, now
        return use.keys

    def should_hold(self, session: Metered) -> bool:
        """Whether input arriving now for ``session`` must wait: it uses more than its
        share while the loop is late, or while others over their share are waiting;
        never for a person deciding at their seat."""
        use = self._uses.get(session)
        if use is None or self._loop is None or not (self.behind or self._held):
            return False
        if use.rate <= self._share * use.weight:
            return False
        return not (session.seated and self.keys_lately(session) <= DECIDING_KEYS)

    def holding(self, session: Metered) -> None:
        """``session`` has started holding its input back (it asks to be released)."""
        use = self._uses.get(session)
        if use is None or use.held_since is not None:
            return
        use.held_since = self._clock()
        self._held[session] = None
        self.held_total += 1
        self._warnings.warning(
            "held", "the loop runs %.0f ms late; input of sessions using more than their "
            "share of it (%.0f ms a second a share) waits", 1000 * self.late, 1000 * self._share)

    # --- the loop -----------------------------------------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Meter ``loop`` (the running one by default) and start ticking."""
        loop = loop or asyncio.get_running_loop()
        self._loop = loop
        self._clock = loop.time  # one clock for the ticks and the waits
        _install(loop)
        self._due = self._measured_at = loop.time() + TICK
        self._tick_handle = loop.call_at(self._due, self._tick)

    def stop(self) -> None:
        """Stop ticking and metering; every session's held input is released."""
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        if self._loop is not None:
            if self.metering:
                _meter(self._loop, False)
                self.metering = False
            _uninstall(self._loop)
            self._loop = None
        held, self._held = list(self._held), {}
        for session in held:
            self._uses[session].held_since = None
            session.release_input()

    def _tick(self) -> None:
        loop = self._loop
        if loop is None:
            return
        now = loop.time()
        self.late = max(0.0, now - self._due)
        if self.late > self.lag:
            self._late_at = now
        self._switch_meter(now)
        self._ticks += 1
        every = METERED_MEASURE if self.metering or self._held else IDLE_MEASURE
        if self._ticks % every == 0:
            elapsed = max(now - self._measured_at, 1e-6)
            self._measured_at = now
            self._measure(elapsed)
        self._release()
        self._due = now + TICK
        self._tick_handle = loop.call_at(self._due, self._tick)

    def _switch_meter(self, now: float) -> None:
        """Time the sessions' callbacks while the loop is late, and a while after."""
        loop = self._loop
        assert loop is not None
        wanted = now - self._late_at < METER_FOR or bool(self._held)
        if wanted != self.metering:
            _meter(loop, wanted)
            self.metering = wanted

    def _measure(self, elapsed: float) -> None:
        """Each session's use since the last tick, averaged over the window."""
        now = self._clock()
        weight = min(1.0, elapsed / self.window)
        typed_since = time.monotonic() - self.window  # the clock of last_input
        # Whether a session holds a seat in a game changes at a game's start and end:
        # asked of every session at every tick while the loop is late, it was a third of
        # this look (1 % of the server's CPU at 100 seats), so it is asked less often.
        weigh = self._ticks % IDLE_MEASURE == 0
        used_in_all = 0.0
        shares = 0.0
        for session, use in self._uses.items():
            total = session.loop_seconds
            used, use.seen = total - use.seen, total
            # While held, a session's use stays as it was: it is low only because it
            # waits, and would otherwise let it jump the queue at once.
            if use.held_since is None:
                use.rate += (used / elapsed - use.rate) * weight
            if weigh:
                use.weight = self.seat_weight if session.seated else 1.0
            if session.keys_passed != use.keys_seen:  # (a count alone wears off the same
                self._count_keys(session, use, now)  # whenever it is brought up to date)
            used_in_all += use.rate
            if use.rate > BUSY or session.last_input > typed_since:
                shares += use.weight  # it wants the loop: it counts in the split
        self._share = used_in_all / shares if shares else float("inf")

    def _release(self) -> None:
        """Once the loop keeps time, the session waiting longest gets its input; however
        late the loop, it does once it has waited ``hold``."""
        if not self._held:
            return
        session = next(iter(self._held))  # the one waiting longest
        held_since = self._uses[session].held_since
        if self.behind and held_since is not None and self._clock() - held_since < self.hold:
            return
        # One session a tick: the loop gets to see what its input costs before the next.
        del self._held[session]
        self._uses[session].held_since = None
        session.release_input()


# --- metering the loop -------------------------------------------------------------------

_installed: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int]" = (
    weakref.WeakKeyDictionary())


def _install(loop: asyncio.AbstractEventLoop) -> None:
    """Start the tables' tasks charged to nobody (once per loop, however many shares use
    it); the timing itself is switched by :func:`_meter`."""
    count = _installed.get(loop, 0)
    _installed[loop] = count + 1
    if count:
        return
    create_task = loop.create_task
    current = CURRENT_SESSION.get

    def metered_create_task(coro: Any, **options: Any) -> asyncio.Task[Any]:
        if current() is not None and options.get("context") is None and _for_a_table(coro):
            context = contextvars.copy_context()
            context.run(CURRENT_SESSION.set, None)
            options["context"] = context
        return create_task(coro, **options)

    loop.create_task = metered_create_task  # type: ignore[method-assign]


def _uninstall(loop: asyncio.AbstractEventLoop) -> None:
    count = _installed.get(loop, 0) - 1
    if count > 0:
        _installed[loop] = count
        return
    _installed.pop(loop, None)
    for name in ("call_soon", "create_task"):
        loop.__dict__.pop(name, None)  # the loop's own methods again


def _meter(loop: asyncio.AbstractEventLoop, on: bool) -> None:
    """Time every callback the loop runs for a session (``on``), or stop timing them.
    Tasks and futures schedule their steps with ``call_soon``, through the loop's
    attribute, so that one wrapper sees all of an app's work."""
    if not on:
        loop.__dict__.pop("call_soon", None)
        return
    if "call_soon" in loop.__dict__:
        return
    call_soon = type(loop).call_soon.__get__(loop)
    clock = time.perf_counter
    current = CURRENT_SESSION.get

    def timed(callback: Callable[..., Any], *args: Any) -> Any:
        session = current()
        if session is None:
            return callback(*args)
        started = clock()
        try:
            return callback(*args)
        finally:
            session.loop_seconds += clock() - started

    def metered_call_soon(callback: Callable[..., Any], *args: Any,
                          context: contextvars.Context | None = None) -> asyncio.Handle:
        return call_soon(timed, callback, *args, context=context)

    loop.call_soon = metered_call_soon  # type: ignore[method-assign]


def _for_a_table(coro: Any) -> bool:
    """Whether a coroutine is a table's own (its game loop): it works for everyone at the
    table, so it is charged to nobody, not to whoever's key started it."""
    frame = getattr(coro, "cr_frame", None)
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    return module == TABLE_PACKAGE or module.startswith(TABLE_PACKAGE + ".")
