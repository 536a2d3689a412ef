"""The lobby: the open tables, and keys to join, watch or open one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Static

from diamant_tui.errors import DiamantError
from diamant_tui.i18n import LANGUAGE_NAMES, LANGUAGES
from diamant_tui.table import TableStatus
from diamant_tui.ui.screens.base import DiamantScreen

from .create_screen import CreateTableScreen, ResumeScreen
from .lobby import LobbyError, TableSummary

if TYPE_CHECKING:
    from .app import ServerApp

REFRESH = 2.0
"""Seconds between looks at the list of tables (redrawn only when it changed)."""


def _row(summary: TableSummary) -> tuple[str, ...]:
    status = {TableStatus.WAITING: "waiting", TableStatus.PLAYING: "playing",
              TableStatus.FINISHED: "finished"}[summary.status]
    timer = f"{summary.timer:g} s" if summary.timer else "off"
    return (summary.name, summary.rules, f"{summary.people}/{summary.seats}",
            str(summary.computers), str(summary.free), timer, status)


class LobbyScreen(DiamantScreen):
    """Lists the tables; Enter joins the one under the cursor.

    A :class:`DiamantScreen`, so it has the interface's "enlarge your terminal" overlay.
    """

    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    LobbyScreen #title { height: auto; padding: 0 1; text-style: bold; }
    LobbyScreen #who { height: auto; padding: 0 1; }
    LobbyScreen DataTable { height: 1fr; }
    LobbyScreen #empty { height: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS = [
        Binding("enter", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("n", "new", "New table"),
        Binding("r", "resume", "Resume code"),
        Binding("g", "language", "Language"),
        Binding("q", "quit_lobby", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[tuple[str, ...]] = []

    @property
    def server_app(self) -> "ServerApp":
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Static("Diamant over SSH: the lobby", id="title")
        yield Static(id="who")
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True)
        table.add_columns("Table", "Rules", "People", "Computers", "Free", "Timer", "Status")
        yield table
        yield Static("No tables yet: press n to open one.", id="empty")
        yield Footer()

    def on_mount(self) -> None:
        self._show_who()
        self.refresh_tables()
        self.set_interval(REFRESH, self.refresh_tables)

    def on_screen_resume(self) -> None:
        self.refresh_tables()

    def _show_who(self) -> None:
        app = self.server_app
        kind = "guest" if app.identity.guest else "known by your SSH key"
        self.query_one("#who", Static).update(
            f"You are {app.identity.name} ({kind}). Language: {LANGUAGE_NAMES[app.lang]}.")

    def refresh_tables(self) -> None:
        """Show the current tables; redraw only when something changed."""
        rows = [_row(s) for s in self.server_app.lobby.summaries()]
        if rows == self._rows:
            return
        self._rows = rows
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        for row in rows:
            table.add_row(*row, key=row[0])
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))
        self.query_one("#empty", Static).display = not rows

    def _selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not self._rows or table.cursor_row < 0:
            return None
        return self._rows[min(table.cursor_row, len(self._rows) - 1)][0]

    def _with_table(self, action: str) -> None:
        name = self._selected()
        table = self.server_app.lobby.get(name) if name else None
        if table is None:
            self.notify("Choose a table first (or press n to open one).", severity="warning")
            return
        try:
            if action == "join":
                self.server_app.join(table)
            else:
                self.server_app.watch(table)
        except (LobbyError, DiamantError) as exc:
            self.notify(str(exc), severity="warning")

    def action_join(self) -> None:
        self._with_table("join")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._with_table("join")

    def action_watch(self) -> None:
        self._with_table("watch")

    def action_new(self) -> None:
        def created(settings: object) -> None:
            if settings is None:
                return
            app = self.server_app
            try:
                table = app.lobby.create(settings, creator=app.identity.key)  # type: ignore[arg-type]
                app.join(table)
            except (LobbyError, DiamantError) as exc:
                self.notify(str(exc), severity="error")

        self.app.push_screen(CreateTableScreen(pace=self.server_app.lobby.pace), created)

    def action_resume(self) -> None:
        def entered(code: str | None) -> None:
            if code:
                self.server_app.resume(code)

        self.app.push_screen(ResumeScreen(), entered)

    async def action_language(self) -> None:
        app = self.server_app
        await app.set_language(LANGUAGES[(LANGUAGES.index(app.lang) + 1) % len(LANGUAGES)])
        self._show_who()

    def action_quit_lobby(self) -> None:
        self.app.exit()
