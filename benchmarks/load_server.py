"""The server side of the load generator: a real game server in a process of its own.

:func:`serve` is the process's entry point. It starts :class:`diamant_server.server.GameServer` on
127.0.0.1 (port 0) in the data folder it is given, and adds measuring only, never a change
of behaviour:

- the moment each card is revealed at each table (when the table publishes the new step
  to its seats, before any seat has drawn it), on the system-wide monotonic clock that the
  clients' process reads too;
- every write of a session to its client (one per frame the Textual driver flushes) and
  its bytes;
- the games that reach their final scores, and every error the server logs;
- every pass of Python's cycle collector (count, time in all and longest, by generation):
  a full collection looks at every app's objects at once, and stops every screen meanwhile;
  and the collector's checks of how much the memory has grown, which stop them too;
- how late its event loop ran, second by second (:class:`looplag.LagMeter`, a tick every
  :data:`LATENESS_TICK` seconds): a loop running late is a server with no CPU to spare,
  and everything that waits for a turn of it waits longer.

Once the games are over, asked for its ``report``, it also weighs the garbage the cycle
collector had frozen with the living (see :mod:`diamant_server.collector`): the
interpreter's memory in blocks before and after one sweep, and how long that sweep stopped
every screen. That sweep is the one change it makes, after the measured window; a
long-running server makes one whenever that garbage has grown enough.

It answers the load generator over a pipe (``snapshot``, ``report``), stops like
``diamant serve`` on SIGTERM (``GameServer.stop``) and reports how long that took.
The process's CPU time and memory are read from outside, in ``/proc`` (see
:mod:`procstat`), so that they are the server's alone.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import logging
import os
import signal
import sys
import tempfile
import threading
import time
import types
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

from looplag import LagMeter

FLOOR_APPS = ("floor", "floor-parts", "floor-direct")
"""The plain apps a session may run instead of the game's (:mod:`floor_app`)."""
LATENESS_TICK = 0.05
"""Seconds between two looks at how late the server's event loop runs: as often as the
server's own fair share looks (``fair_share.TICK``), twenty wake-ups a second, which cost
the server next to nothing."""
ERRORS_KEPT = 20
"""Error messages kept word for word; the rest are only counted."""


@dataclass
class Probe:
    """What the instrumented server has seen so far."""

    reveals: list[tuple[str, int, int, int, float]] = field(default_factory=list)
    """(table, game index, round, card, monotonic time) of every card revealed."""
    sends: int = 0
    sent_bytes: int = 0
    db_values: int = 0
    """Values the database's writer turned into JSON (snapshots, progress, records...)."""
    db_bytes: int = 0
    """The JSON text of those values, in characters."""
    finished: set[tuple[str, int]] = field(default_factory=set)
    """(table, game index) of the games that reached their final scores."""
    errors: int = 0
    error_messages: list[str] = field(default_factory=list)
    stopping: bool = False
    errors_at_stop: int = 0
    collections: list[list[float]] = field(default_factory=lambda: [[0, 0.0, 0.0, 0.0, 0, 0.0]
                                                                    for _ in range(3)])
    """Per generation: passes of the cycle collector, seconds in all, longest pause, CPU
    seconds of the collecting thread, and the passes and seconds made in threads other
    than the event loop's (the database's, a computer player's). Wall and CPU differ when
    a collection made in another thread waits, in its callbacks, for the loop's thread."""
    growth_checks: list[float] = field(default_factory=lambda: [0, 0.0, 0.0, 0])
    """The collector's checks of how much the memory has grown, frozen garbage in it
    (:meth:`~diamant_server.collector.Collector.check`): count, seconds in all, longest,
    and how many of them swept (their time, a full collection, is counted above too)."""
    lateness: dict[int, list[float]] = field(default_factory=dict)
    """How late the event loop ran, by second (see :class:`looplag.LagMeter`)."""
    _last_step: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    _collecting_since: float = 0.0
    _collecting_cpu: float = 0.0
    _main_thread: int = field(default_factory=threading.get_ident)

    def collector(self, phase: str, info: dict) -> None:
        """A ``gc.callbacks`` entry: times each pass of the cycle collector."""
        if phase == "start":
            self._collecting_since = time.perf_counter()
            self._collecting_cpu = time.thread_time()
            return
        took = time.perf_counter() - self._collecting_since
        counts = self.collections[info["generation"]]
        counts[0] += 1
        counts[1] += took
        counts[2] = max(counts[2], took)
        counts[3] += time.thread_time() - self._collecting_cpu
        if threading.get_ident() != self._main_thread:
            counts[4] += 1
            counts[5] += took

    def snapshot(self) -> dict:
        """The counters, for a measuring window (cheap: no lists)."""
        return {"time": time.monotonic(), "sends": self.sends, "sent_bytes": self.sent_bytes,
                "db_values": self.db_values, "db_bytes": self.db_bytes,
                "reveals": len(self.reveals), "games": len(self.finished), "errors": self.errors,
                "collector_cpu": sum(counts[3] for counts in self.collections)}

    def report(self) -> dict:
        """Everything, once the load is over."""
        return {**self.snapshot(), "reveal_log": self.reveals, "lateness": self.lateness,
                "error_messages": self.error_messages, "collections": self.collections,
                "growth_checks": self.growth_checks}


class _ErrorCounter(logging.Handler):
    """Counts the server's error log records and keeps the first few."""

    def __init__(self, probe: Probe) -> None:
        super().__init__(level=logging.ERROR)
        self.probe = probe

    def emit(self, record: logging.LogRecord) -> None:
        probe = self.probe
        probe.errors += 1
        if probe.stopping:
            probe.errors_at_stop += 1
        if len(probe.error_messages) < ERRORS_KEPT:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                exc = record.exc_info[1]
                text += f" [{type(exc).__name__}: {exc}]"
            probe.error_messages.append(("at stop: " if probe.stopping else "") + text[:300])


def _instrument(probe: Probe) -> None:
    """Wrap the places measured; each wrapper calls the original unchanged."""
    from diamant_tui.table import TableStatus
    from diamant_tui.table.updates import Updates
    from diamant_server import storage
    from diamant_server.collector import Collector
    from diamant_server.session import GameSession

    publish = Updates.publish
    send = GameSession.send
    check = Collector.check
    to_json = storage._json

    def timed_publish(updates: Updates, events, **how) -> None:
        state, name = updates._state, updates._table_name  # the table's, as it publishes
        game = state.game
        if game is not None:
            if game.step >= 1:
                step = (state.games_played, game.round, game.step)
                if probe._last_step.get(name) != step:
                    probe._last_step[name] = step
                    probe.reveals.append((name, *step, time.monotonic()))
            if state.status is TableStatus.FINISHED:
                probe.finished.add((name, state.games_played))
        publish(updates, events, **how)

    def counted_send(session: GameSession, data: bytes) -> bool:
        probe.sends += 1
        probe.sent_bytes += len(data)
        return send(session, data)

    def counted_json(value) -> str:
        # In the database's writer thread, the only one that counts these.
        text = to_json(value)
        probe.db_values += 1
        probe.db_bytes += len(text)
        return text

    def timed_check(collector: Collector) -> bool:
        started = time.perf_counter()
        swept = check(collector)
        took = time.perf_counter() - started
        checks = probe.growth_checks
        checks[0] += 1
        checks[1] += took
        checks[2] = max(checks[2], took)
        checks[3] += swept
        return swept

    Updates.publish = timed_publish  # type: ignore[method-assign]
    Collector.check = timed_check  # type: ignore[method-assign]
    GameSession.send = counted_send  # type: ignore[method-assign]
    storage._json = counted_json


def serve(conn: Connection, options: dict) -> None:
    """Run the server until SIGTERM (the process's entry point; see module docstring).

    ``options``: ``pace``, ``seats`` (to size the connection limits), ``data_dir`` and
    optionally ``profile`` (a path for cProfile's statistics of the whole run) and ``app``
    (``floor``: every session gets :class:`floor_app.FloorApp` instead of the game's;
    ``floor-parts``: the same, its lines in a widget for each part of the table;
    ``floor-direct``: those widgets handed to their screen as the game's are).
    """
    # Apps of Textual are not to write to this process's terminal.
    logging.basicConfig(level=logging.WARNING, format="server: %(levelname)s %(name)s: %(message)s")
    probe = Probe()
    logging.getLogger().addHandler(_ErrorCounter(probe))
    _instrument(probe)
    gc.callbacks.append(probe.collector)
    profiler = cProfile.Profile() if options.get("profile") else None
    if profiler is not None:
        profiler.enable()
    stopped: dict = {}
    try:
        stopped = asyncio.run(_serve(conn, options, probe))
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(options["profile"])
        # Sent once the event loop has closed, so that errors of apps still finishing
        # their shutdown after GameServer.stop() returned are counted too.
        stopped.update(errors_at_stop=probe.errors_at_stop, error_messages=probe.error_messages)
        conn.send(("stopped", stopped))
        conn.close()
    from diamant_server.servecli import exit_at_once

    exit_at_once(0)  # as ``diamant serve`` ends: no teardown of the interpreter


async def _serve(conn: Connection, options: dict, probe: Probe) -> dict:
    from diamant_server.config import ServerConfig
    from diamant_server.server import GameServer

    # Room for the abusive clients and the fresh-join probes of ``--attack`` too.
    seats = int(options["seats"]) + int(options.get("extra", 0))
    config = ServerConfig(
        host="127.0.0.1", port=0, data_dir=Path(options["data_dir"]), pace=float(options["pace"]),
        # Every client comes from 127.0.0.1: the per-address limits must let them all in.
        max_connections=seats + 10, max_per_address=seats + 10,
        connect_rate=max(100.0, seats * 10.0), connect_burst=seats + 10,
        log_level="warning",
    )
    app_factory = None
    if options.get("app") in FLOOR_APPS:
        from floor_app import floor_factory

        app_factory = floor_factory(options["app"])
    server = GameServer(config, app_factory=app_factory)
    await server.start()
    lateness = LagMeter(tick=LATENESS_TICK, by_second=True)
    lateness.start()
    probe.lateness = lateness.seconds
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)

    def answer() -> None:
        try:
            request = conn.recv()
        except EOFError:  # the load generator has gone: stop too
            loop.remove_reader(conn.fileno())
            stop.set()
            return
        if request == "snapshot":
            conn.send(("snapshot", probe.snapshot()))
        elif request == "report":
            report = probe.report()
            report["collections"] = [list(c) for c in report["collections"]]  # before the sweep
            conn.send(("report", {**report, "garbage": weigh_garbage(server.collector)}))
        elif request == "census":
            conn.send(("census", census(server)))
        elif request.startswith("holders:"):  # (debugging) holders:TYPE
            conn.send((request, holders(request.partition(":")[2], server.collector)))

    loop.add_reader(conn.fileno(), answer)
    conn.send(("ready", {"port": server.port, "pid": os.getpid()}))
    await stop.wait()
    loop.remove_reader(conn.fileno())
    probe.stopping = True
    began = time.monotonic()
    open_sessions = len(server.sessions)
    saved = await server.stop()
    return {"seconds": time.monotonic() - began, "sessions_open_at_stop": open_sessions,
            "records_saved_at_stop": len(saved), "sessions_left_after_stop": len(server.sessions)}


def weigh_garbage(collector) -> dict:
    """Sweep once (every object unfrozen and looked at): the interpreter's memory in blocks
    before and after, and the sweep's pause."""
    before = sys.getallocatedblocks()
    started = time.perf_counter()
    collector.sweep()
    took = time.perf_counter() - started
    return {"blocks_before": before, "blocks_after": sys.getallocatedblocks(), "sweep_s": took}


CENSUS_TYPES = 40
"""Types of objects a census names, most numerous first."""


def census(server) -> dict:
    """What a long-running server holds now, after one sweep of the cycle collector: its
    objects by type, its asyncio tasks, and the length of every container held by the
    server, its lobby, its admin desk and its limits (a per-person or per-table record kept
    for ever shows there as a length that grows with every round of people)."""
    server.collector.sweep()
    gc.unfreeze()  # frozen objects are out of gc.get_objects()'s sight: all of them, once
    everything = gc.get_objects()
    gc.freeze()
    counts: dict[str, int] = {}
    for obj in everything:
        name = type(obj).__qualname__
        module = type(obj).__module__
        if module not in ("builtins",):
            name = f"{module}.{name}"
        counts[name] = counts.get(name, 0) + 1
    top = dict(sorted(counts.items(), key=lambda item: -item[1])[:CENSUS_TYPES])
    ours = {name: n for name, n in counts.items() if name.startswith(("diamant", "textual.app",
                                                                     "textual.screen"))}
    holders = {"server": server, "lobby": server.lobby, "admin": server.admin,
               "limits": server.limits, "share": server.share, "metrics": server.metrics,
               "bans": server.bans, "mutes": server.mutes, "reports": server.reports}
    lengths: dict[str, int] = {}
    for label, holder in holders.items():
        for attr, value in vars(holder).items():
            if isinstance(value, (dict, set, list, tuple, frozenset)) or hasattr(value, "__len__"):
                try:
                    lengths[f"{label}.{attr}"] = len(value)
                except TypeError:
                    continue
    objects = len(everything)
    del everything
    return {"objects": objects, "blocks": sys.getallocatedblocks(),
            "tasks": len(asyncio.all_tasks()), "top": top, "ours": ours, "lengths": lengths}


CHAIN_DEPTH = 12
"""Steps of referrers :func:`holders` follows at most."""
CHAIN_WIDTH = 3000
"""Objects :func:`holders` follows at each step at most."""


def holders(type_name: str, collector) -> list[str]:
    """(Debugging) what keeps objects of ``type_name`` (a class's name) alive: how many
    live after one sweep and one more collection, then a path of referrers from one of
    them to a module (the shortest found, each step a type and, for a dict, the key)."""
    def count() -> int:
        return sum(1 for o in gc.get_objects() if type(o).__name__ == type_name)

    collector.sweep()
    gc.unfreeze()  # as in census: frozen objects are out of gc's sight
    found = [f"{count()} after a sweep"]
    gc.collect()
    gc.unfreeze()  # the collector froze the survivors again
    found.append(f"{count()} after one more collection")
    target = next((o for o in gc.get_objects() if type(o).__name__ == type_name), None)
    try:
        return found + (_path_to_a_module(target) if target is not None else [])
    finally:
        gc.freeze()


def _path_to_a_module(target: object) -> list[str]:
    seen = {id(target)}
    frontier: list[tuple[object, list[str]]] = [(target, [])]
    for _ in range(CHAIN_DEPTH):
        further: list[tuple[object, list[str]]] = []
        for obj, path in frontier:
            for ref in gc.get_referrers(obj):
                if id(ref) in seen or ref is frontier or ref is further \
                        or isinstance(ref, types.FrameType):
                    continue
                seen.add(id(ref))
                step = f"{type(ref).__module__}.{type(ref).__qualname__}"
                if isinstance(ref, dict):
                    step += f" {[k for k, v in ref.items() if v is obj][:2]!r}"[:120]
                if isinstance(ref, types.ModuleType) \
                        or (isinstance(ref, dict) and "__builtins__" in ref):
                    return path + [step, str(ref.get("__name__") if isinstance(ref, dict)
                                             else ref.__name__)]
                further.append((ref, path + [step]))
        frontier = further[:CHAIN_WIDTH]
    return ["no module within reach"]


def temporary_data_dir() -> tempfile.TemporaryDirectory:
    """A data folder for one run (host key, records), removed afterwards."""
    return tempfile.TemporaryDirectory(prefix="diamant-load-")
