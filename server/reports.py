"""Reports: a player tells the server's admins that someone at their table is abusive.

``/report NAME why`` in the chat box at a table (:mod:`diamant_tui.ui.ignored_chat`)
reaches the server's app, which asks the admin desk to file it
(:meth:`~diamant_server.admin.AdminDesk.report`). A report names both people as the
chat shows them and as a mute would be on them (:func:`~diamant_server.mutes.muted_as`:
a key's fingerprint, a guest's address), keeps the reason as typed (on one line, cut
to :data:`REASON_MAX`) and, as evidence, the reported person's last few lines at that
table. The reported person is never told. Someone who has left the table, or lost their
connection, can still be reported there for :data:`GONE_KEPT` (:class:`Departures`):
whoever insults a table and leaves at once is the case reports are most needed for.

Reports are kept until an admin dismisses one; a dismissed report stays in the
database. What a person may report is bounded (:class:`Reports.check`): one report a
person about the same other every :data:`WINDOW`, and :data:`MOST` in all in it, so
reports cannot be used to flood the admins. Those counts are read back from the
database at start-up (:meth:`Reports.load`), so a restart does not reset them.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections import deque
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Awaitable, Callable

from diamant_tui.ui.literal import printable

from .bans import _text, _utc
from .identity import Identity
from .mutes import GUEST, muted_as
from .storage import SavedReport, Storage

log = logging.getLogger(__name__)

REASON_MAX = 200
"""Longest reason kept for a report, in characters: shown on one line or two."""
EVIDENCE_LINES = 5
"""How many of the reported person's last chat lines at the table a report keeps."""
WINDOW = timedelta(hours=1)
"""The time in which a person's reports are counted."""
MOST = 5
"""Reports one person may make in :data:`WINDOW` (about different people)."""
GONE_KEPT = 30 * 60.0
"""Seconds for which someone who left a table may still be reported there."""
GONE_MOST = 2000
"""The most departures remembered at once (the oldest forgotten first): a bound on the
memory a crowd coming and going can take."""


class ReportRefused(Exception):
    """A report not taken: ``key`` is the text saying why (with ``fmt``)."""

    def __init__(self, key: str, **fmt: object) -> None:
        super().__init__(key)
        self.key = key
        self.fmt = fmt


@dataclass(frozen=True)
class Report:
    """One report (see the module docstring); ``who`` pairs are ``(kind, value)``, as a
    mute is on them."""

    id: int
    made: datetime
    table: str
    reporter: str
    reporter_as: tuple[str, str]
    reported: str
    reported_as: tuple[str, str]
    reason: str
    evidence: tuple[str, ...]

    def saved(self) -> SavedReport:
        """As the database keeps it (with no id: the database gives it)."""
        return SavedReport(None, _text(self.made), self.table, self.reporter,
                           *self.reporter_as, self.reported, *self.reported_as,
                           self.reason, self.evidence)

    @classmethod
    def from_saved(cls, saved: SavedReport) -> "Report":
        """What the database kept as ``saved``."""
        made = _utc(saved.made)
        assert made is not None and saved.id is not None
        return cls(saved.id, made, saved.table, saved.reporter_name,
                   (saved.reporter_kind, saved.reporter_value), saved.reported_name,
                   (saved.reported_kind, saved.reported_value), saved.reason,
                   saved.evidence)


def known_as(identity: Identity) -> tuple[str, str]:
    """What a report names a person by: as a mute would be on them; a guest on no IP
    address (a test transport) by the address as given."""
    try:
        return muted_as(identity)
    except ValueError:
        return GUEST, identity.address[:60]


def clean_reason(text: str) -> str:
    """A reason as typed, on one line, without control characters, cut to its length."""
    return " ".join(printable(text).split())[:REASON_MAX]


@dataclass(frozen=True)
class Departed:
    """Someone who left a table, as a report needs them: their session's ``id`` (for
    the log) and ``identity``."""

    id: str
    identity: Identity


class Departures:
    """Who left which table lately (under the name the table showed), so that they may
    still be reported there for :data:`GONE_KEPT`. A table is held weakly: a table closed
    and another opened under its name do not share their departures."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._gone: dict[tuple[str, str], tuple[float, weakref.ref, Departed]] = {}

    def note(self, table: object, table_name: str, name: str, departed: Departed) -> None:
        """``departed`` has left ``table`` (named ``table_name``), where they were ``name``."""
        now = self._clock()
        key = (table_name, name)
        self._gone.pop(key, None)  # the newest last: the dict is oldest first
        self._gone[key] = (now, weakref.ref(table), departed)
        # The oldest first, and only while they are too old or too many: a departure
        # costs no walk over all those remembered.
        # (The entry just noted is never too old: the loop ends before the dict does.)
        while (len(self._gone) > GONE_MOST
               or now - next(iter(self._gone.values()))[0] >= GONE_KEPT):
            del self._gone[next(iter(self._gone))]

    def find(self, table: object, table_name: str, name: str) -> Departed | None:
        """Whoever left ``table`` under ``name`` within :data:`GONE_KEPT`, if anyone."""
        entry = self._gone.get((table_name, name))
        if entry is None or entry[1]() is not table or self._clock() - entry[0] >= GONE_KEPT:
            return None
        return entry[2]


class Reports:
    """The open reports of one server and what each person reported lately (see the
    module docstring). Without a database (``storage`` None) they are kept in memory."""

    def __init__(self, storage: Storage | None = None, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)) -> None:
        self.storage = storage
        self._clock = clock
        self._open: dict[int, Report] = {}
        self._made: deque[tuple[datetime, tuple[str, str], tuple[str, str]]] = deque()
        """Every report made in the last :data:`WINDOW`: when, by whom, about whom."""
        self._next_id = 1

    async def load(self) -> int:
        """Read the open reports from the database (at start-up), and who reported whom
        within :data:`WINDOW` (dismissed or not) for :meth:`check`; returns how many are
        open."""
        if self.storage is None:
            return 0
        self._open = {report.id: report for report in
                      map(Report.from_saved, await self.storage.open_reports())}
        self._next_id = max(self._open, default=0) + 1
        since = self._clock() - WINDOW
        for made, *who in await self.storage.reports_made_since(_text(since)):
            when = _utc(made)
            assert when is not None
            self._made.append((when, (who[0], who[1]), (who[2], who[3])))
        return len(self._open)

    def open(self) -> list[Report]:
        """Every report not dismissed, the newest first."""
        return sorted(self._open.values(), key=lambda r: (r.made, r.id), reverse=True)

    def check(self, reporter: tuple[str, str], reported: tuple[str, str]) -> None:
        """Raise :class:`ReportRefused` if ``reporter`` may not report ``reported`` now:
        already reported within the hour, or too many reports within it."""
        now = self._clock()
        while self._made and now - self._made[0][0] >= WINDOW:
            self._made.popleft()
        mine = [made for made in self._made if made[1] == reporter]
        if any(made[2] == reported for made in mine):
            raise ReportRefused("report.already")
        if len(mine) >= MOST:
            wait = mine[0][0] + WINDOW - now
            raise ReportRefused("report.too_many", count=MOST,
                                minutes=max(1, -(-int(wait.total_seconds()) // 60)))

    async def file(self, table: str, reporter: str, reporter_as: tuple[str, str],
                   reported: str, reported_as: tuple[str, str], reason: str,
                   evidence: tuple[str, ...]) -> Report:
        """Keep a report made now (checked first: :meth:`check`), written to the
        database; returns it."""
        self.check(reporter_as, reported_as)
        now = self._clock().replace(microsecond=0)
        # Counted before the write is awaited: the same report sent twice at once is
        # refused the second time.
        made = (now, reporter_as, reported_as)
        self._made.append(made)
        report = Report(0, now, table, reporter, reporter_as, reported, reported_as,
                        clean_reason(reason), evidence[-EVIDENCE_LINES:])
        if self.storage is None:
            report_id = self._next_id
        else:
            try:
                report_id = await self.storage.save_report(report.saved())
            except BaseException:
                self._made.remove(made)  # not kept: it may be sent again
                raise
        self._next_id = max(self._next_id, report_id) + 1
        report = replace(report, id=report_id)
        self._open[report_id] = report
        return report

    def dismiss(self, report_id: int, by: str) -> tuple[Report | None, Awaitable[None] | None]:
        """Dismiss an open report: what was dismissed (None if it is not open) and its
        write to the database."""
        report = self._open.pop(report_id, None)
        if report is None or self.storage is None:
            return report, None
        return report, self.storage.dismiss_report(report_id, by)

