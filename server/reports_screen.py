"""The admins' list of players' reports: who reported whom, where, when and why, with
the reported person's last lines as evidence; a key dismisses one (asked first), others
go on to mute or ban the reported person with the admin screen's own dialogs.

Opened from the admin screen (``r``), and checked again by the admin desk, which refuses
anyone else. Everything people typed (names, reasons, chat lines) is shown as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from diamant_tui.ui.literal import printable
from diamant_tui.ui.screens.base import DiamantScreen
from diamant_tui.ui.screens.confirm import ConfirmScreen

from .admin import AdminDesk, AdminError
from .admin_dates import short_when
from .bans import KEY
from .reports import Report

if TYPE_CHECKING:
    from .session import GameSession

REFRESH = 2.0
"""Seconds between looks at the reports (redrawn only when something changed)."""
COLUMNS = ("made", "table", "who", "reason")
ACTIONS = {"s": "mute", "b": "ban_key", "a": "ban_address"}
"""The admin screen's actions a report goes on to, by key, on the reported person."""


class ReportsScreen(DiamantScreen):
    """The open reports, newest first, and the chosen one's reason and evidence in full.
    Dismissed with ``(action, session id)`` to go on to an admin screen action on the
    reported person's session, ``(action, report)`` for one on what the report knows
    them by when they are not on the server, or None."""

    BINDINGS = [
        Binding("d", "dismiss_report", show=False),
        Binding("s", "go_on('s')", show=False),
        Binding("b", "go_on('b')", show=False),
        Binding("a", "go_on('a')", show=False),
        Binding("escape,q", "back", show=False),
    ]

    def __init__(self, desk: AdminDesk, actor: "GameSession") -> None:
        super().__init__()
        self._desk = desk
        self._actor = actor
        self._reports: list[Report] = []
        self._shown: tuple = ()

    def compose(self) -> ComposeResult:
        t = self.app.t
        yield Static(id="reports-title", classes="heading")
        reports: DataTable[Text] = DataTable(id="reports", cursor_type="row",
                                             zebra_stripes=True)
        reports.add_columns(*(t(f"reports.col.{column}") for column in COLUMNS))
        yield reports
        yield Static(t("reports.none"), id="no-reports")
        yield Static(id="report-detail")
        yield Static(t("reports.keys"), id="keys")

    def on_mount(self) -> None:
        self.refresh_list()
        self.set_interval(REFRESH, self.refresh_list)
        self.query_one("#reports", DataTable).focus()

    async def retranslate(self) -> None:
        """Redraw in the app's new language."""
        await super().retranslate()
        self._shown = ()
        self.refresh_list()

    def refresh_list(self) -> None:
        """Show the open reports as they are now; redraw only when they changed."""
        if self.rebuilding:
            return
        try:
            reports = self._desk.reports_open(self._actor)
        except AdminError as exc:  # no longer an admin
            self.notify(exc.text(self.app.t), severity="error")
            self.action_back()
            return
        rows = tuple(self._row(report) for report in reports)
        if rows == self._shown:
            return
        self._shown, self._reports = rows, reports
        self.query_one("#reports-title", Static).update(
            self.app.t("reports.title", count=len(reports)))
        table = self.query_one("#reports", DataTable)
        cursor = table.cursor_row
        table.clear()
        for row in rows:
            table.add_row(*(Text(printable(cell)) for cell in row))  # never markup
        if rows:
            table.move_cursor(row=min(max(cursor, 0), len(rows) - 1))
        table.display = bool(rows)
        self.query_one("#no-reports", Static).display = not rows
        self._show_detail()

    def _row(self, report: Report) -> tuple[str, ...]:
        return (short_when(report.made, self.app.t), report.table,
                self.app.t("reports.who", reporter=report.reporter, reported=report.reported),
                report.reason or self.app.t("admin.no_reason"))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _selected(self) -> Report | None:
        table = self.query_one("#reports", DataTable)
        if not self._reports or table.cursor_row < 0:
            return None
        return self._reports[min(table.cursor_row, len(self._reports) - 1)]

    def _show_detail(self) -> None:
        """The chosen report whole: its reason, then the reported person's last lines."""
        detail = self.query_one("#report-detail", Static)
        report = self._selected()
        detail.display = report is not None
        if report is None:
            return
        t = self.app.t
        lines = [t("reports.reason", reason=report.reason or t("admin.no_reason"))]
        if report.evidence:
            lines.append(t("reports.evidence", name=report.reported))
            lines += [f"  » {line}" for line in report.evidence]
        else:
            lines.append(t("reports.no_evidence", name=report.reported))
        detail.update(Text(printable("\n".join(lines))))

    def action_dismiss_report(self) -> None:
        report = self._selected()
        if report is None:
            self.notify(self.app.t("reports.choose"), severity="warning")
            return
        t = self.app.t

        async def dismiss() -> None:
            try:
                await self._desk.dismiss_report(self._actor, report.id)
            except AdminError as exc:
                self.notify(exc.text(t), severity="warning", timeout=8)
            else:
                self.notify(t("reports.dismissed", reporter=report.reporter,
                              reported=report.reported), timeout=8, markup=False)
            if self.is_attached:
                self.refresh_list()

        question = t("reports.dismiss_confirm", reporter=report.reporter,
                     reported=report.reported, table=report.table,
                     reason=report.reason or t("admin.no_reason"))
        self.app.push_screen(ConfirmScreen(question),
                             lambda yes: self.run_worker(dismiss(), group="admin")
                             if yes else None)

    def action_go_on(self, key: str) -> None:
        """Back to the admin screen, on the reported person's session, to mute or ban
        them there (the report stays open until dismissed)."""
        report = self._selected()
        if report is None:
            self.notify(self.app.t("reports.choose"), severity="warning")
            return
        info = self._desk.online(report.reported_as)
        if info is not None:
            self.dismiss((ACTIONS[key], info.id))
            return
        # Not on the server (they may well have left at once): what the report knows
        # them by is a key, or a guest's address, so only that can be banned.
        kind = report.reported_as[0]
        if key == "b" and kind != KEY:
            self.notify(self.app.t("admin.guest_no_key"), severity="warning", timeout=8)
        elif key == "a" and kind == KEY:
            self.notify(self.app.t("reports.offline_address", name=report.reported),
                        severity="warning", timeout=8, markup=False)
        else:
            self.dismiss((ACTIONS[key], report))

    def action_back(self) -> None:
        if self.app.screen is self:
            self.dismiss(None)
