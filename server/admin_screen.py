"""The admin screen: every session, every ban and mute, and keys to act on them; the
players' reports on a screen of their own (:mod:`.reports_screen`, ``r``).

Shown only to admins (the lobby's admin key), and every action it asks for is checked
again by the admin desk (:class:`~diamant_server.admin.AdminDesk`), which refuses anyone
else. What people typed (names, reasons, messages) is shown as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from diamant_tui.names import NAME_MAX_CHARS
from diamant_tui.ui.literal import printable
from diamant_tui.ui.screens.base import DiamantScreen
from diamant_tui.ui.screens.confirm import ConfirmScreen

from .admin import NOTICE_MAX, AdminDesk, AdminError, SessionInfo
from .admin_dates import short_when
from .admin_dialog import AdminDialog
from .bans import ADDRESS, KEY, Ban, Sanction, normal_address
from .lobby_screen import fit_name, marked_name
from .mutes import Mute
from .reports import Report
from .reports_screen import ReportsScreen

if TYPE_CHECKING:
    from .session import GameSession

REFRESH = 2.0
"""Seconds between looks at the sessions (redrawn only when something changed)."""
SESSION_COLUMNS = ("session", "name", "key", "address", "table", "since", "idle")
BAN_COLUMNS = ("banned", "until", "reason")


def short_key(fingerprint: str) -> str:
    """The start of a key's fingerprint, enough to tell keys apart on screen."""
    return fingerprint[:15] + "…" if len(fingerprint) > 16 else fingerprint


def _what(held: Sanction, t: Callable[..., str]) -> str:
    """What a ban or a mute is on, as shown: ``key SHA256:abcd…``, ``address 192.0.2.7``
    or ``guests from 192.0.2.7``."""
    value = short_key(held.value) if held.kind == KEY else held.value
    return t(f"admin.kind.{held.kind}", value=value)


def _sort(held: Sanction) -> str:
    """Which it is: ``ban`` or ``mute`` (the key of its texts)."""
    return "mute" if isinstance(held, Mute) else "ban"


class AdminScreen(DiamantScreen):
    """Every session (name, key, address, table, since when, idle) and every ban and
    mute (in one list), with keys to kick, ban, mute, lift a ban or a mute, close a
    table and send everyone a message."""

    # The keys are told by a line of their own that wraps (#keys), not a footer: eight
    # keys do not fit in one line of 80 columns in every language.
    BINDINGS = [
        Binding("k", "kick", show=False),
        Binding("b", "ban_key", show=False),
        Binding("a", "ban_address", show=False),
        Binding("s", "mute", show=False),  # s: silence (m is the message to everyone)
        Binding("u", "unban", show=False),
        Binding("c", "close_table", show=False),
        Binding("m", "broadcast", show=False),
        Binding("r", "reports", show=False),
        Binding("escape,q", "back", show=False),
    ]

    def __init__(self, desk: AdminDesk, actor: "GameSession") -> None:
        """``actor`` is the admin's own session: every action is asked in its name."""
        super().__init__()
        self._desk = desk
        self._actor = actor
        self._sessions: list[SessionInfo] = []
        self._bans: list[Ban | Mute] = []
        """The list of bans and mutes as shown: the bans, then the mutes."""
        self._shown: tuple = ()

    def compose(self) -> ComposeResult:
        t = self.app.t
        yield Static(id="sessions-title", classes="heading")
        sessions: DataTable[Text] = DataTable(id="sessions", cursor_type="row",
                                              zebra_stripes=True)
        sessions.add_columns(*(t(f"admin.col.{column}") for column in SESSION_COLUMNS))
        yield sessions
        yield Static(id="bans-title", classes="heading")
        bans: DataTable[Text] = DataTable(id="bans", cursor_type="row", zebra_stripes=True)
        bans.add_columns(*(t(f"admin.col.{column}") for column in BAN_COLUMNS))
        yield bans
        yield Static(t("admin.no_bans"), id="no-bans")
        yield Static(t("admin.keys"), id="keys")

    def on_mount(self) -> None:
        self.refresh_lists()
        self.set_interval(REFRESH, self.refresh_lists)
        self.query_one("#sessions", DataTable).focus()

    async def retranslate(self) -> None:
        """Redraw in the app's new language."""
        await super().retranslate()
        self._shown = ()
        self.refresh_lists()

    # --- the lists ----------------------------------------------------------------------

    def refresh_lists(self) -> None:
        """Show the sessions and bans as they are now; redraw only what changed (not
        while the screen is made again in a new language: the rebuild calls it)."""
        if self.rebuilding:
            return
        t = self.app.t
        try:
            sessions = self._desk.sessions(self._actor)
            bans = self._desk.bans_in_force(self._actor)
            mutes = self._desk.mutes_in_force(self._actor)
            reports = len(self._desk.reports_open(self._actor))
        except AdminError as exc:  # no longer an admin (a resume code made them a guest)
            self.notify(exc.text(t), severity="error")
            self.action_back()
            return
        held = [*bans, *mutes]
        rows = tuple(self._session_row(s) for s in sessions)
        ban_rows = tuple(self._ban_row(b) for b in held)
        if (rows, ban_rows, reports) == self._shown:
            return
        self._shown = (rows, ban_rows, reports)
        self._sessions, self._bans = sessions, held
        title = t("admin.sessions_title", count=len(sessions))
        if reports:
            title += t("admin.reports_open", count=reports)
        self.query_one("#sessions-title", Static).update(title)
        self.query_one("#bans-title", Static).update(
            t("admin.bans_title", count=len(bans), mutes=len(mutes)))
        self._fill(self.query_one("#sessions", DataTable), rows)
        self._fill(self.query_one("#bans", DataTable), ban_rows)
        self.query_one("#bans", DataTable).display = bool(held)
        self.query_one("#no-bans", Static).display = not held

    @staticmethod
    def _fill(table: DataTable, rows: tuple[tuple[str, ...], ...]) -> None:
        cursor = table.cursor_row
        table.clear()
        for row in rows:
            # Text cells: a plain string in a DataTable is read as markup.
            table.add_row(*(Text(printable(cell)) for cell in row))
        if rows:
            table.move_cursor(row=min(max(cursor, 0), len(rows) - 1))

    def _session_row(self, info: SessionInfo) -> tuple[str, ...]:
        t = self.app.t
        # Cut to the columns of the longest Latin name: one of wide letters (CJK) took
        # twice that and pushed since when and idle off the screen. The key tells
        # people apart; the dialogs name them whole.
        return (info.id, fit_name(info.name, NAME_MAX_CHARS),
                short_key(info.key) if info.key else t("admin.guest"),
                info.address, marked_name(info.table, info.private, self.app.t) if info.table else "",
                short_when(info.since, t),
                t("admin.idle_seconds", seconds=int(info.idle)))

    def _ban_row(self, held: Ban | Mute) -> tuple[str, ...]:
        t = self.app.t
        until = held.until_text() or t("admin.duration.forever")
        return (t(f"admin.row.{_sort(held)}", what=_what(held, t)), until, held.reason)

    def _selected(self, table_id: str, items: list) -> object | None:
        table = self.query_one(table_id, DataTable)
        if not items or table.cursor_row < 0:
            return None
        return items[min(table.cursor_row, len(items) - 1)]

    def _selected_session(self) -> SessionInfo | None:
        info = self._selected("#sessions", self._sessions)
        if info is None:
            self.notify(self.app.t("admin.choose_session"), severity="warning")
        return info  # type: ignore[return-value]

    # --- the actions --------------------------------------------------------------------

    def _run(self, action: Callable[[], Awaitable[str] | str]) -> None:
        """Carry out an action; say what it did, or why it could not."""
        async def run() -> None:
            try:
                result = action()
                done = await result if not isinstance(result, str) else result
            except AdminError as exc:
                self.notify(exc.text(self.app.t), severity="warning", timeout=8)
            else:
                self.notify(done, timeout=8)
            if self.is_attached:
                self.refresh_lists()

        self.run_worker(run(), group="admin")

    def _ask(self, dialog: AdminDialog, then: Callable[[str, str], Awaitable[str] | str]) -> None:
        def answered(answer: tuple[str, str] | None) -> None:
            if answer is not None:
                self._run(lambda: then(*answer))

        self.app.push_screen(dialog, answered)

    def action_kick(self) -> None:
        info = self._selected_session()
        if info is None:
            return
        t = self.app.t
        if info.id == self._actor.id:
            self.notify(t("admin.error.own_session"), severity="warning")
            return  # (the desk refuses it too: said before a reason is asked for)

        def kick(_: str, reason: str) -> str:
            self._desk.kick(self._actor, info.id, reason)
            return t("admin.done.kick", name=info.name, session=info.id)

        self._ask(AdminDialog(t("admin.kick_title", name=info.name, session=info.id),
                              t("admin.reason_prompt")), kick)

    def action_ban_key(self) -> None:
        info = self._selected_session()
        if info is None:
            return
        if info.key is None:
            self.notify(self.app.t("admin.guest_no_key"), severity="warning")
            return
        if self._desk.is_admin_key(info.key):
            self.notify(self.app.t("admin.error.admin_key"), severity="warning", timeout=8)
            return  # (the desk refuses it too: said before a reason is asked for)
        self._ban(KEY, info.key, self.app.t("admin.ban_key_title", name=info.name,
                                            fingerprint=info.key))

    def action_ban_address(self) -> None:
        info = self._selected_session()
        if info is None:
            return
        self._ban_address(info.name, info.address)

    def _ban_address(self, name: str, address: str) -> None:
        warning = None
        try:
            if normal_address(address) == normal_address(self._actor.identity.address):
                warning = self.app.t("admin.own_address")
        except ValueError:
            pass
        self._ban(ADDRESS, address, self.app.t("admin.ban_address_title",
                                               name=name, address=address), warning)

    def _ban(self, kind: str, value: str, title: str, warning: str | None = None) -> None:
        t = self.app.t

        async def ban(duration: str, reason: str) -> str:
            made, closed = await self._desk.ban(self._actor, kind, value, duration, reason)
            until = made.until_text()
            return t("admin.done.ban", what=_what(made, t),
                     until=t("admin.until", until=until) if until
                     else t("admin.duration.forever"), count=closed)

        self._ask(AdminDialog(title, t("admin.reason_prompt"), durations=True,
                              warning=warning), ban)

    def action_mute(self) -> None:
        info = self._selected_session()
        if info is None:
            return
        t = self.app.t
        # (The desk refuses both too: said here before a reason is asked for.)
        if info.id == self._actor.id or info.key == self._own_key:
            self.notify(t("admin.error.mute_self"), severity="warning")
            return
        self._mute(info.name, info.key, info.address,
                   lambda duration, reason: self._desk.mute(self._actor, info.id,
                                                            duration, reason))

    def _mute(self, name: str, key: str | None, address: str,
              make: Callable[[str, str], Awaitable[tuple[Mute, int]]]) -> None:
        """Ask how long and why, then mute ``name`` (by ``key``, or for a guest the
        ``address``) with ``make``."""
        t = self.app.t
        if key is not None and self._desk.is_admin_key(key):
            self.notify(t("admin.error.mute_admin"), severity="warning", timeout=8)
            return
        if key is None:
            title = t("admin.mute_guest_title", name=name, address=address)
            warning = t("admin.mute_guest_warning")
        else:
            title, warning = t("admin.mute_key_title", name=name, fingerprint=key), None

        async def mute(duration: str, reason: str) -> str:
            made, count = await make(duration, reason)
            until = made.until_text()
            return t("admin.done.mute", what=_what(made, t),
                     until=t("admin.until", until=until) if until
                     else t("admin.duration.forever"), count=count)

        self._ask(AdminDialog(title, t("admin.mute_prompt"), durations=True,
                              warning=warning), mute)

    @property
    def _own_key(self) -> str | None:
        identity = self._actor.identity
        return None if identity.guest else identity.key.removeprefix("key:")

    def action_unban(self) -> None:
        held = self._selected("#bans", self._bans)
        if not isinstance(held, (Ban, Mute)):
            self.notify(self.app.t("admin.choose_ban"), severity="warning")
            return
        t = self.app.t
        sort = _sort(held)

        async def lift() -> str:
            if isinstance(held, Mute):
                lifted: Sanction = await self._desk.unmute(self._actor, held.kind, held.value)
            else:
                lifted = await self._desk.unban(self._actor, held.kind, held.value)
            return t(f"admin.done.un{sort}", what=_what(lifted, t))

        # Asked first, as a ban is: one key pressed on the wrong row let someone back in
        # at once. The question names the ban or mute whole (its key or address, until
        # when, why), as its dialog named what it was on; Escape keeps it.
        self.app.push_screen(ConfirmScreen(self._unban_question(held)),
                             lambda yes: self._run(lift) if yes else None)

    def _unban_question(self, held: Ban | Mute) -> str:
        """Whether to lift ``held`` (a ban or a mute), named whole: its full key or
        address, until when and its reason (as written, never markup)."""
        t = self.app.t
        until = held.until_text()
        return t(f"admin.un{_sort(held)}_confirm",
                 what=t(f"admin.kind.{held.kind}", value=held.value),
                 until=t("admin.until", until=until) if until else t("admin.duration.forever"),
                 reason=printable(held.reason) or t("admin.no_reason"))

    def action_close_table(self) -> None:
        info = self._selected_session()
        if info is None:
            return
        t = self.app.t
        if info.table is None:
            self.notify(t("admin.at_no_table", name=info.name), severity="warning")
            return
        name = info.table

        async def close(_: str, reason: str) -> str:
            count = await self._desk.close_table(self._actor, name, reason)
            return t("admin.done.close", name=name, count=count)

        self._ask(AdminDialog(t("admin.close_title", name=name), t("admin.close_prompt")),
                  close)

    def action_broadcast(self) -> None:
        t = self.app.t

        def broadcast(_: str, text: str) -> str:
            count = self._desk.broadcast(self._actor, text)
            return t("admin.done.broadcast", count=count)

        self._ask(AdminDialog(t("admin.broadcast_title"), t("admin.broadcast_prompt"),
                              required=True, most=NOTICE_MAX), broadcast)

    def action_reports(self) -> None:
        self.app.push_screen(ReportsScreen(self._desk, self._actor), self._from_report)

    def _from_report(self, chosen: tuple[str, str | Report] | None) -> None:
        """Go on from a report to mute or ban its reported person: their session chosen
        in the list, then the action's own checks and dialog, as if pressed here; or,
        when they are not on the server, the dialog on what the report knows them by."""
        if chosen is None:
            return
        action, session_id = chosen
        if isinstance(session_id, Report):
            self._on_reported(action, session_id)
            return
        self._shown = ()
        self.refresh_lists()
        index = next((i for i, info in enumerate(self._sessions) if info.id == session_id),
                     None)
        if index is None:
            self.notify(self.app.t("admin.error.gone", session=session_id),
                        severity="warning")
            return
        sessions = self.query_one("#sessions", DataTable)
        sessions.move_cursor(row=index)
        sessions.focus()
        getattr(self, f"action_{action}")()

    def _on_reported(self, action: str, report: Report) -> None:
        """Mute or ban the person ``report`` is about, who is not on the server: by
        their key, or a guest by their address (the reports screen offers only what
        the report knows)."""
        kind, value = report.reported_as
        name = report.reported
        if action == "mute":
            key = value if kind == KEY else None
            self._mute(name, key, value,
                       lambda duration, reason: self._desk.mute_reported(
                           self._actor, report, duration, reason))
        elif action == "ban_key":
            if self._desk.is_admin_key(value):
                self.notify(self.app.t("admin.error.admin_key"), severity="warning",
                            timeout=8)
                return
            self._ban(KEY, value, self.app.t("admin.ban_key_title", name=name,
                                             fingerprint=value))
        else:
            self._ban_address(name, value)

    def action_back(self) -> None:
        if self.app.screen is self:
            self.dismiss()
