"""What a host can watch: a Prometheus text endpoint (``metrics_port``, off by default).

Built on ``prometheus-client``: its registry, metric types, process collector (CPU
seconds, memory, open files) and HTTP server. The counters are counted where things
happen (a refused connection, a refused chat line); what the server holds now (sessions,
tables by status, seats taken) is read when the endpoint is asked, on the event loop,
so the reading never races the loop that changes it.

Reveals are counted from the games themselves (their events), when the endpoint is asked
and whenever a game ends or a table goes: the table layer knows nothing of the server.
``rate(diamant_reveals_total[1m])`` is reveals per second, and
``rate(process_cpu_seconds_total[1m]) / rate(diamant_reveals_total[1m])`` the CPU time a
reveal costs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import weakref
from dataclasses import dataclass, field
from typing import Callable, Iterable

from prometheus_client import CollectorRegistry, Counter, ProcessCollector, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from diamant_tui.engine.events import CardRevealed
from diamant_tui.table import SeatKind, Table, TableStatus

log = logging.getLogger(__name__)

SCRAPE_WAIT = 5.0
"""Seconds a request to the endpoint waits for the event loop to read the server's state."""


@dataclass(frozen=True)
class ServerState:
    """What the server holds at one moment."""

    connections: int
    sessions: int
    tables: dict[str, int] = field(default_factory=dict)
    """Open tables by status (waiting, playing, finished)."""
    seats_taken: int = 0
    """Seats held by people (connected or played for them by a computer meanwhile)."""
    watchers: int = 0
    reveals: int = 0
    """Cards revealed at all tables since the server started."""


class _Reveals:
    """Counts the cards revealed at every table, from each game's events, once each."""

    def __init__(self) -> None:
        self.total = 0
        self._seen: weakref.WeakKeyDictionary[Table, tuple[object, int]] = (
            weakref.WeakKeyDictionary())

    def count(self, table: Table) -> None:
        """Add the reveals of ``table``'s game since it was last looked at."""
        game = table.game
        if game is None:
            return
        seen_game, seen = self._seen.get(table, (None, 0))
        if seen_game is not game:
            seen = 0  # a new game at this table (a rematch)
        events = game.events
        self.total += sum(1 for event in events[seen:] if isinstance(event, CardRevealed))
        self._seen[table] = (game, len(events))


class _StateCollector(Collector):
    """The gauges, read from the server on its event loop at every request."""

    def __init__(self, metrics: "ServerMetrics") -> None:
        self._metrics = metrics

    def collect(self) -> Iterable[GaugeMetricFamily | CounterMetricFamily]:
        state = self._metrics.read_state()
        if state is None:
            return
        # A counter read with the rest: its total is only known once the games are read.
        yield CounterMetricFamily("diamant_reveals", "cards revealed at all tables",
                                  value=state.reveals)
        yield GaugeMetricFamily("diamant_connections", "SSH connections open",
                                value=state.connections)
        yield GaugeMetricFamily("diamant_sessions", "sessions open (each one app)",
                                value=state.sessions)
        tables = GaugeMetricFamily("diamant_tables", "tables open, by status",
                                   labels=["status"])
        for status in TableStatus:
            tables.add_metric([status.value], state.tables.get(status.value, 0))
        yield tables
        yield GaugeMetricFamily("diamant_seats_taken", "seats held by people at open tables",
                                value=state.seats_taken)
        yield GaugeMetricFamily("diamant_watchers", "spectators at open tables",
                                value=state.watchers)


class ServerMetrics:
    """The server's metrics (always counted) and, once :meth:`start` ed, their endpoint.

    ``state`` reads what the server holds; it is called on the event loop only.
    """

    def __init__(self, state: Callable[[], ServerState],
                 tables: Callable[[], Iterable[Table]]) -> None:
        self.registry = CollectorRegistry()
        self._state = state
        self._tables = tables
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server = None
        self.refused = Counter("diamant_refused_connections",
                               "connections or sessions refused, by reason",
                               ["reason"], registry=self.registry)
        self.chat_refused = Counter("diamant_chat_lines_refused",
                                    "chat lines refused for their allowance, by allowance",
                                    ["allowance"], registry=self.registry)
        self._reveals = _Reveals()
        ProcessCollector(registry=self.registry)
        self.registry.register(_StateCollector(self))

    # --- counting ---------------------------------------------------------------------

    def refuse(self, reason: str) -> None:
        """A connection or a session was refused for ``reason`` (a short word)."""
        self.refused.labels(reason).inc()

    def refuse_chat(self, allowance: str) -> None:
        """A chat line was refused: the allowance (person, watchers, table) was used up."""
        self.chat_refused.labels(allowance).inc()

    def table_changed(self, event: str, table: Table) -> None:
        """A table was opened, its game started or ended, or it closed: count its reveals
        now, while its game is still there to count."""
        self._reveals.count(table)

    # --- reading, on the loop ---------------------------------------------------------

    def snapshot(self) -> ServerState:
        """Count the reveals and read the server's state (on the event loop)."""
        tables = list(self._tables())
        for table in tables:
            self._reveals.count(table)
        state = self._state()
        by_status: dict[str, int] = {}
        seats = watchers = 0
        for table in tables:
            by_status[table.status.value] = by_status.get(table.status.value, 0) + 1
            seats += sum(1 for seat in table.seats if seat.kind is SeatKind.PERSON)
            watchers += len(table.watchers)
        return ServerState(state.connections, state.sessions, by_status, seats, watchers,
                           self._reveals.total)

    def read_state(self) -> ServerState | None:
        """The server's state, read on its event loop (this is called from the endpoint's
        thread); None if the loop did not answer within :data:`SCRAPE_WAIT` seconds."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return None
        answer: concurrent.futures.Future[ServerState] = concurrent.futures.Future()

        def read() -> None:
            try:
                answer.set_result(self.snapshot())
            except Exception as exc:  # the endpoint says so; the server goes on
                answer.set_exception(exc)

        try:
            loop.call_soon_threadsafe(read)
            return answer.result(timeout=SCRAPE_WAIT)
        except (RuntimeError, concurrent.futures.TimeoutError):
            log.warning("metrics: the server did not answer within %g s", SCRAPE_WAIT)
            return None
        except Exception:
            log.exception("metrics: reading the server's state failed")
            return None

    # --- the endpoint -----------------------------------------------------------------

    def start(self, host: str, port: int) -> int:
        """Serve the metrics over HTTP on ``host``:``port`` (0: a free port); returns the
        port. Call it from the event loop the server runs on."""
        self._loop = asyncio.get_running_loop()
        self._server, _ = start_http_server(port, addr=host, registry=self.registry)
        return self.port

    @property
    def port(self) -> int:
        """The port the endpoint listens on (0 when it does not)."""
        return self._server.server_port if self._server is not None else 0

    async def stop(self) -> None:
        """Stop the endpoint (it waits for its thread's loop, half a second at most)."""
        server, self._server = self._server, None
        if server is not None:
            await asyncio.to_thread(server.shutdown)
            server.server_close()
