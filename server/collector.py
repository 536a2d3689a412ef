"""Python's cycle collector, set for a server that holds many apps in one process.

Every session's Textual app is some ten thousand objects, and an app's work leaves cyclic
garbage behind (widgets, messages and their tasks refer to each other). With Python's
default settings (a young collection every 700 new objects) much of that garbage lives
through two young collections, reaches the oldest generation and makes it grow; each
quarter of growth costs a full collection, which looks at every object of every app at
once: with 60 sessions, 300 to 700 ms during which nobody's screen moves.

Collecting the young generation every :data:`YOUNG` new objects instead lets the garbage
of a frame die young (where a collection looks at few objects), and the objects of the
server's start (modules, stylesheet, tables rebuilt) are moved out of the collector's
sight for good (``gc.freeze``): they live as long as the server. Measured with
``benchmarks/chat_attack.py`` (60 clients): full collections went from 14 to none over the
run, the longest pause from 450-730 ms to about 60 ms, and the collector's time in all
from 3.4 s to 0.9 s.

Full collections still came with many sessions playing (what the apps cache lives longer
than two young collections), and each still looked at every app: 0.8 s at 60 seats, 1.3 s
at 100. So what survives a collection of the middle generation is frozen at once: the
younger generations are then empty and the oldest holds only what lived through that
collection, so nothing ever grows old in the collector's sight and no full collection has
anything to look at. (Until the 500-seat runs, only the survivors of full collections were
frozen, allowed after every other middle collection: at 500 seats, in a pair of
``benchmarks/load.py --seats 500 --pace 0.7 --screen light`` runs, the 39 full collections
took 3.9 s of the 12.3 s spent collecting, up to 0.46 s each; freezing after the middle
ones took that to 25 ms, the longest pause to 0.36 s, for 13,000 blocks more garbage frozen
by the games' end, of 6.5 million.)

The middle generation is collected after ten young collections, as Python does: after
three (two alternating pairs of ``load.py --seats 200 --pace 0.7 --screen light``), its
longest pause went from 103-113 to 81-83 ms, for the same time collecting in all and no
better reveal→screen p99 (502-547 against 494-546 ms).

Freezing what survives every young collection as well was tried, and left. Nearly all of
what a young collection looks at lives on (with 100 seats playing, the three collections
of 12 s of play freed about 30 objects of a young one's 5,000 and 150 in the middle one),
so each object was looked at once instead of twice: with 200 seats (two alternating pairs
of ``benchmarks/load.py --seats 200 --pace 0.7 --games 1 --screen light``) the collector's
CPU went from 1.9-2.1 to 1.1-1.2 s, and at 100 seats (``--games 2``) the CPU per seat per
reveal from 4.55-4.56 to 4.37-4.38 ms. But a session that lives only a few seconds (a
look at the lobby) then always ends frozen, where it mostly died young: with a fresh
lobby session every two seconds (``--attack 0``), the garbage frozen by the end of a 65 s
run went from 93,000 to 280,000 blocks at 200 seats (19,000 to 93,000 at 20), so a public
server with people coming and going would look at everything (a pause of seconds, below)
about three times as often.

Young collections made by a clock were tried too, and left. Python counts new objects
less the objects freed, old ones included: while a server plays, new views and lines
replace old ones about as fast, the count hardly grows, and the young generation grows
unseen (at 500 seats, young collections of up to 47,000 objects where :data:`YOUNG` is
5,000, and each object dearer to look at in a large collection). A young collection every
0.1 s cut the longest pauses at 500 seats from about 0.35 s to 0.1 s but cost the
collector more time, for no sooner reveals; with what survives every collection frozen as
well, the collector's time fell by nearly half and its pauses to 25 ms at most, but twice
the garbage was left frozen, so a sweep of seconds would come two or three times as
often. The server is at 91 % of a core at 500 seats, and the reveals are late from that
more than from the pauses. The figures are in ``benchmarks/README.md``, *Collections by
the clock: tried, and left*.

What the collector no longer sees is what dies later as a cycle: the app of a session that
ends, the final scores' screen of a game once the next begins. So every :data:`CHECK_EVERY`
seconds the memory the interpreter holds is measured (in blocks, one or more per object:
:func:`sys.getallocatedblocks`), and once it has grown by half since the last look at
everything (:data:`GROWTH`), besides what the sessions opened since then hold
(:data:`PER_SESSION` each), everything is unfrozen and collected once: a pause as long as
a full collection of everything (2.6-3.2 s with 500 seats playing, 6.5 million blocks),
but rare (with 20 seats playing a game every two minutes, frozen garbage grew by about
20,000 objects a minute, against 270,000 alive). The frozen objects were counted instead
until the count showed in the load generator: Python walks them all to count them, about
55 ms for 600,000 at 100 seats, a pause for every screen every 30 s; the blocks are counted
per pool of memory, in about a millisecond for two million.

While the server runs, ``gc.get_referrers`` and ``gc.get_objects`` do not see frozen
objects (most of them): unfreeze first when looking for what holds what.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from typing import Callable

log = logging.getLogger(__name__)

YOUNG = 5_000
"""New objects between two young collections (Python's default is 700). 10,000 until the
collector's pauses were what held 500 seats back: with 5,000, at 200 seats (two pairs of
``benchmarks/load.py --seats 200 --pace 0.7 --screen light``) the longest young, middle
and full collections went from 56-65, 115-125 and 181-189 ms to 39, 92-97 and 110-140 ms,
for the same CPU and the same time collecting in all; 30,000 and 40,000 made them
longer. At 500 seats (two alternating pairs of ``--seats 500 --pace 0.7 --screen light``),
10,000 took about 4 % less CPU and 13-15 % less time collecting, for longer pauses (the
longest young, middle and full 177-208, 335-376 and 542-551 ms against 102-128, 274-358
and 393-432) and no better reveal→screen p99: kept at 5,000."""

GROWTH = 1.5
"""How much the interpreter's memory may grow (frozen garbage in it) before every object
is looked at again."""

PER_SESSION = 50_000
"""Blocks of memory a session's app may add without being counted as growth: about five
times what a seat playing at 80x24 holds (about 11,000, measured with 20 seats), for
larger terminals and what is kept for everyone (the allowance in objects it replaces was
about six times what a seat's app left frozen)."""

CHECK_EVERY = 30.0
"""Seconds between two measures of the interpreter's memory."""


class Collector:
    """Sets the collector for the server while it runs, and puts it back as it was.

    ``sessions`` tells how many sessions are open.
    """

    def __init__(self, sessions: Callable[[], int] = lambda: 0) -> None:
        self._before: tuple[int, int, int] | None = None
        self._sessions = sessions
        self._after_sweep = 0
        self._sessions_at_sweep = 0
        self._watch: asyncio.Task[None] | None = None
        self.freezes = 0
        """Collections of the middle generation or a full one whose survivors were frozen
        so far."""
        self.sweeps = 0
        """Times everything was unfrozen and collected."""

    def tune(self) -> None:
        """After the server's start (in its event loop): freeze what it has built, collect
        young less often, freeze what survives every older collection from now on, and
        look at everything again when the frozen objects have grown enough."""
        if self._before is not None:
            return
        self._before = gc.get_threshold()
        self._collect_and_freeze()
        gc.set_threshold(YOUNG, *self._before[1:])
        gc.callbacks.append(self._after_collection)
        self._watch = asyncio.get_running_loop().create_task(self._watch_growth(),
                                                              name="cycle collector")

    def _after_collection(self, phase: str, info: dict) -> None:
        # Called in whatever thread collected (a computer player's thread too). Right after
        # a collection of the middle generation (or a full one) the younger generations
        # are empty and the oldest holds only what lived through it: freezing it freezes
        # no garbage.
        if phase == "stop" and info["generation"] >= 1:
            gc.freeze()
            self.freezes += 1

    async def _watch_growth(self) -> None:
        while True:
            await asyncio.sleep(CHECK_EVERY)
            self.check()

    def check(self) -> bool:
        """Sweep if the interpreter's memory has grown by :data:`GROWTH` since the last
        sweep, besides the new sessions' apps; whether it did."""
        opened = max(0, self._sessions() - self._sessions_at_sweep)
        if sys.getallocatedblocks() <= GROWTH * self._after_sweep + PER_SESSION * opened:
            return False
        self.sweep()
        return True

    def sweep(self) -> None:
        """Look at every object once: what died frozen (ended sessions' apps) is freed.

        Logged: every screen stops meanwhile (about 3 s with 500 seats playing), and a
        host who sees players' screens stand still now and then finds why in the log."""
        before, started = sys.getallocatedblocks(), time.perf_counter()
        gc.unfreeze()
        self._collect_and_freeze()
        self.sweeps += 1
        log.info("cycle collector: looked at everything once, %.2f s; memory %d -> %d blocks",
                 time.perf_counter() - started, before, self._after_sweep)

    def _collect_and_freeze(self) -> None:
        """Collect what is not frozen (garbage must not be frozen with the rest), freeze
        what survives, and measure the growth from there on."""
        gc.collect()
        gc.freeze()  # once the callback is set, it has frozen them already
        self._after_sweep, self._sessions_at_sweep = sys.getallocatedblocks(), self._sessions()

    def restore(self) -> None:
        """At the server's stop: the settings it found, nothing frozen."""
        if self._before is None:
            return
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        gc.set_threshold(*self._before)
        gc.unfreeze()
        self._before = None
