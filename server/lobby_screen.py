"""The lobby: the open tables, and keys to join, watch or open one."""

from __future__ import annotations

from typing import Callable

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable, Static

from diamant_tui.i18n import LANGUAGE_NAMES
from diamant_tui.table import Table, TableSettings
from diamant_tui.ui.literal import literal, printable
from diamant_tui.ui.screens.base import DiamantScreen
from diamant_tui.ui.widgets.key_bar import KeyBar

from .create_screen import CreateTableScreen, NewTable, ResumeScreen
from .history_screen import HistoryScreen
from .identity import Identity
from .key_line import KeyLine
from .leaderboard_screen import LeaderboardScreen
from .lobby import Lobby, LobbyError, TableSummary
from .presence import Here
from .row_list import RowList

REFRESH = 2.0
"""Seconds between looks at the list of tables (redrawn only when it changed)."""
NOTE_SHOWN = 8.0
"""Seconds the lobby's note line says why something asked for cannot be done."""
MUTE_NOTE_SHOWN = 20.0
"""Seconds a mute made or lifted is told (with its reason: there is more to read)."""
NOTE_ROWS = 2
"""Rows of the note line (``#note`` in the stylesheet)."""
COLUMNS = ("table", "rules", "people", "computers", "free", "timer", "status")
NAME_CELLS = 20
"""Columns the table name gets at most: a name of 20 letters, the longest there is, fits
whole unless its letters are wide (CJK: two columns each), which end with an ellipsis.
With it, the list's seven columns fit 80 columns in every language (the rule sets,
headers and states have short forms for the list: ``lobby.rules.*``, ``lobby.col.*``)."""


def fit_name(name: str, cells: int = NAME_CELLS) -> str:
    """``name`` whole if it fits ``cells`` columns, else cut to fit, with an ellipsis
    (right after the last letter kept: Rich's own cut may leave a gap before it when the
    letters are wide)."""
    if cell_len(name) <= cells:
        return name
    kept = ""
    for char in name:
        if cell_len(kept + char) > cells - 1:
            break
        kept += char
    return kept + "…"


PRIVATE_ROOM = 10
"""Columns a private table's word may take after its name (``(priv.)`` and its space)."""


def name_cells(screen_width: int) -> int:
    """Columns the table name gets on a screen ``screen_width`` columns wide: every
    column past 80 more, up to what the widest name takes with a private table's word
    (at 130 columns a name of wide letters was still cut at 20, and two tables whose
    names differ at their end read the same)."""
    return NAME_CELLS + min(max(0, screen_width - 80), NAME_CELLS + PRIVATE_ROOM)


def marked_name(name: str, private: bool, t: Callable[..., str],
                cells: int = NAME_CELLS) -> str:
    """A table's name as the list shows it: fitted to ``cells`` columns, with a short
    word after it when the table is private, within those columns (the status column
    has no room for it at 80 columns). A word, not a sign such as a padlock's emoji: a
    Linux console has no glyph for one, and terminals disagree on its width."""
    if not private:
        return fit_name(name, cells)
    mark = " " + t("lobby.private_mark")
    return fit_name(name, cells - cell_len(mark)) + mark


def _row(summary: TableSummary, t: Callable[..., str]) -> tuple[str, ...]:
    """The table's name, the cells of its line after its name, and last whether it is
    private ("private" or "")."""
    timer = t("setup.timer_seconds", seconds=f"{summary.timer:g}") if summary.timer \
        else t("lobby.timer_off")
    return (summary.name, t(f"lobby.rules.{summary.rules}"), f"{summary.people}/{summary.seats}",
            str(summary.computers), str(summary.free), timer,
            t(f"lobby.status.{summary.status.value}"), "private" if summary.private else "")


def here_line(here: Here, t: Callable[..., str]) -> str:
    """The header's line saying how many people are on the server and where (the
    person reading it among them), in the language of ``t``."""
    if here.people <= 1:
        return t("lobby.here_alone")
    where = ", ".join(t(f"lobby.here.{place}", count=count) for place, count in
                      (("playing", here.playing), ("watching", here.watching),
                       ("lobby", here.lobby)) if count)
    return t("lobby.here", count=here.people, where=where)


class LobbyScreen(DiamantScreen):
    """Lists the tables; Enter joins the one under the cursor.

    It is given what it shows (the lobby, who is looking, how to reach the server) and
    asks for what the person chose by posting a message (:class:`JoinTable`, ...) that the
    app acts on. A :class:`DiamantScreen`, so it has the interface's "enlarge your
    terminal" overlay and is redrawn in the new language when the person switches (``g``).
    """

    class JoinTable(Message):
        """The person asks for a seat at ``table``."""

        def __init__(self, table: Table) -> None:
            super().__init__()
            self.table = table

    class WatchTable(Message):
        """The person asks to watch ``table``."""

        def __init__(self, table: Table) -> None:
            super().__init__()
            self.table = table

    class PlayNow(Message):
        """The person asks for a seat at the next game, wherever it is (see
        :meth:`~diamant_server.app.ServerApp.play_now`)."""

    class OpenTable(Message):
        """The person chose the settings of a new table, to open and sit at (``private``:
        reached by its name only, see :meth:`~diamant_server.lobby.Lobby.is_private`)."""

        def __init__(self, settings: TableSettings, private: bool = False) -> None:
            super().__init__()
            self.settings = settings
            self.private = private

    class Resume(Message):
        """A guest typed a resume code."""

        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

    class NextLanguage(Message):
        """The person asks for the next language."""

    class OpenAdmin(Message):
        """An admin asks for the admin screen."""

    BINDINGS = [
        # A priority binding, so the footer shows it over the list's own (hidden) Enter.
        Binding("enter", "join", "lobby.key.join", priority=True),
        Binding("w", "watch", "lobby.key.watch"),
        Binding("n", "new", "lobby.key.new"),
        Binding("r", "resume", "lobby.key.resume"),
        Binding("g", "language", "lobby.key.language"),
        Binding("a", "admin", "lobby.key.admin", show=False),  # admins only: check_action
        Binding("q", "quit_lobby", "key.quit"),
        # On a line of their own: the key bar has no room left for them at 80 columns.
        Binding("p", "play_now", "lobby.key.play_now", show=False),
        Binding("l", "leaderboard", "lobby.key.leaderboard", show=False),
        Binding("h", "my_games", "lobby.key.my_games", show=False),
    ]

    def __init__(self, lobby: Lobby, identity: Identity,
                 ssh_command: Callable[[str], str], session: str | None = None,
                 admin: Callable[[], bool] | None = None) -> None:
        """``ssh_command(words)`` is the line that runs ``words`` on this server;
        ``session`` is the session's id (in the log lines about what it asks for);
        ``admin()`` says whether this person is an admin (the admin key is theirs)."""
        super().__init__()
        self.lobby = lobby
        self._session = session
        self.identity = identity
        self._ssh_command = ssh_command
        self._admin = admin
        self._rows: list[tuple[str, ...]] = []
        self._name_cells = NAME_CELLS
        """Columns the table names were cut to when the list was last filled."""
        self._here: str | None = None
        """What the line saying who is on the server says now (None: not drawn yet)."""
        self._resume: str | None = None
        """The resume code the header shows now (None: none shown)."""
        self._note: tuple[str, str] = ("", "")
        """What the note line says now (text, severity)."""
        self._told: tuple[str, str] | None = None
        """A note told while the note line could not show it (before the screen was up,
        or while it is made again in a new language): shown as soon as it can be."""
        self._note_timer: Timer | None = None
        self._note_ready = False

    def compose(self) -> ComposeResult:
        t = self.app.t
        yield Static(self._title(), id="title")
        yield Static(id="who")
        here = Static(id="here")
        here.display = self.lobby.here is not None  # a server that counts nobody: no line
        yield here
        yield Static(id="resume")
        # The list grows with the tables; "no tables yet" sits right under its header.
        with Vertical(id="tables"):
            table: DataTable[str] = RowList(zebra_stripes=True)
            table.add_columns(*(t(f"lobby.col.{column}") for column in COLUMNS))
            yield table
            yield Static(t("lobby.empty"), id="empty")
        yield Static("", id="note")
        yield KeyLine("play_now", "leaderboard", "my_games", "admin", id="more-keys")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_header()
        self.refresh_tables()
        self.set_interval(REFRESH, self.refresh_tables)
        self._note_ready = True
        self._tell_told()  # told before the screen was up (on arrival)

    def note_fits(self, text: str) -> bool:
        """Whether ``text`` fits whole on the note line (a longer one is cut there)."""
        note = self.query_one("#note", Static)
        width = note.content_size.width or self.size.width - 2  # (not laid out yet)
        return width > 0 and len(Text(printable(text)).wrap(self.app.console, width)) <= NOTE_ROWS

    def tell(self, text: str, *, severity: str = "warning", shown: float = NOTE_SHOWN) -> None:
        """Say on the lobby's note line why something the person asked for cannot be
        done (or what an admin did to them), for ``shown`` seconds; the same words again
        ring the bell instead.

        A line of the screen, not a toast: a toast is a widget mounted and removed, two
        layouts of the whole screen, and a crowd of people asking for a full table at
        once would cost the server that many; the line only redraws its own cells.
        """
        text = printable(text)
        if not self._note_ready or self.rebuilding:
            self._told = (text, severity)
            return
        if self._note_timer is not None:
            self._note_timer.stop()
        self._note_timer = self.set_timer(shown, self._clear_note)
        if self._note == (text, severity):
            self.app.bell()
            return
        self._note = (text, severity)
        note = self.query_one("#note", Static)
        note.set_class(severity == "error", "-error")
        note.update(Content(text), layout=False)  # a fixed height: no new layout

    def _tell_told(self) -> None:
        """Show the note kept while the note line could not show it, if any."""
        if self._told is not None:
            (text, severity), self._told = self._told, None
            self.tell(text, severity=severity)

    def _clear_note(self) -> None:
        self._note = ("", "")
        if self.rebuilding:
            return  # the note line is being made again, empty
        self.query_one("#note", Static).update("", layout=False)

    async def retranslate(self) -> None:
        """Redraw in the app's new language: headers, rows and key hints (the cursor on
        the table it was on)."""
        chosen = self._selected()
        await super().retranslate()
        self._rows = []  # the table was made anew: fill it again
        self._here = None  # and the line saying who is here
        self._note = ("", "")  # and the note line, empty (or what was told meanwhile)
        self._show_header()
        self.refresh_tables(chosen)
        self.query_one(DataTable).focus()
        self._tell_told()

    def on_screen_suspend(self) -> None:
        for line in self.query(KeyLine):  # (none while the screen is made again)
            line.refresh()  # a dialog over the lobby: its keys go

    def on_screen_resume(self) -> None:
        for line in self.query(KeyLine):
            line.refresh()
        if self.rebuilding:
            return  # the rebuild shows the header and the tables afresh
        self._show_header()  # a resume code may have been given at a table meanwhile
        self.refresh_tables()

    def _title(self) -> Content:
        """The lobby's title, with the server's name and its message of the day (the
        host's own words: shown as written, never as markup)."""
        t, name, motd = self.app.t, self.lobby.server_name, self.lobby.motd
        title = literal(t("lobby.title_named", server=name) if name else t("lobby.title"))
        if motd:
            title += Content("\n") + literal(motd).stylize("not bold")
        return title

    def _show_header(self) -> None:
        t, me = self.app.t, self.identity
        self.query_one("#title", Static).update(self._title())
        who = t("lobby.who_guest" if me.guest else "lobby.who_key", name=me.name)
        language = LANGUAGE_NAMES[self.app.translator.lang]
        # The name is the person's SSH user name: shown as typed, never as markup.
        self.query_one("#who", Static).update(
            literal(f"{who} {t('lobby.language', language=language)}"))
        self._show_resume(again=True)  # in the language of the moment

    def _show_resume(self, *, again: bool = False) -> None:
        """Show a guest's resume code while it gives back a seat they hold, and only then,
        if the line would change: the seat is given up (or the game ends) while the
        lobby is shown, and a code kept in sight would only be refused."""
        me = self.identity
        holds = me.guest and self.lobby.seat_of(me.key) is not None
        code = self.lobby.code_of(me.key) if holds else None
        if code == self._resume and not again:
            return
        self._resume = code
        resume = self.query_one("#resume", Static)
        resume.display = code is not None
        if code is not None:
            resume.update(literal(self._resume_text(code)))

    def _resume_text(self, code: str) -> str:
        """The code and the command that gives the seat back: on one line when it fits
        the screen's width, else the command on a line of its own, whole, so that it is
        copied in one piece (wrapped, it was broken before its code)."""
        t, command = self.app.t, self._ssh_command(f"resume {code}")
        line = t("lobby.resume", code=code, command=command)
        width = self.app.size.width - 2  # the header's padding
        if cell_len(printable(line)) <= width:
            return line
        return f"{t('lobby.resume_code', code=code)}\n{command}"

    def on_resize(self) -> None:
        if not self.rebuilding:
            self._show_resume(again=True)  # one line or two, as the new width allows
            if name_cells(self.app.size.width) != self._name_cells:
                chosen = self._selected()
                self._rows = []  # the names cut for another width: drawn again
                self.refresh_tables(chosen)

    def refresh_tables(self, chosen: str | None = None) -> None:
        """Show the current tables, who is on the server and a guest's resume code; redraw
        only what changed. The cursor stays on the table it is on (or ``chosen``'s).

        Called every few seconds by a timer, from a task of its own: while the screen
        is made again in a new language it does nothing, and the rebuild calls it."""
        if self.rebuilding:
            return
        self._show_here()
        self._show_resume()
        # Private tables: only those the person is at, unless they are an admin.
        everything = self._admin is not None and self._admin()
        rows = [_row(s, self.app.t)
                for s in self.lobby.summaries(self.identity.key, everything=everything)]
        if rows == self._rows:
            return
        # The cursor stays on the table the person chose, wherever the list now has it
        # (one above it gone, its game begun): left on its row, it would stand on
        # whichever table slid there, and Enter seat them at a table they never chose.
        chosen = chosen or self._selected()
        self._rows = rows
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        cells = name_cells(self.app.size.width)
        if cells < self._name_cells:
            # A column only ever widens to its cells: narrower names, a narrower column.
            for column in table.columns.values():
                column.content_width = column.label.cell_len
        self._name_cells = cells
        for row in rows:
            # Text cells: a plain string in a DataTable is read as markup.
            name, *rest, private = (printable(cell) for cell in row)
            table.add_row(Text(marked_name(name, bool(private), self.app.t, cells)),
                          *map(Text, rest), key=row[0])
        names = [row[0] for row in rows]
        if chosen in names:
            table.move_cursor(row=names.index(chosen))
        elif rows:  # (gone: the row it stood on, the nearest table)
            table.move_cursor(row=min(max(cursor, 0), len(rows) - 1))
        if chosen is not None and chosen not in names and self.lobby.get(chosen) is None:
            # Said, or the cursor would move to another table unnoticed. (A private table
            # left is only no longer listed: it has not closed.)
            self.tell(self.app.t("lobby.gone", name=chosen))
        self.query_one("#empty", Static).display = not rows

    def _show_here(self) -> None:
        """Say who is on the server now, if the line would change (a crowd of lobbies
        left alone costs no frames)."""
        if self.lobby.here is None:
            return
        text = here_line(self.lobby.here(), self.app.t)
        if text == self._here:
            return
        self._here = text
        self.query_one("#here", Static).update(Content(text), layout=False)  # one line

    def _selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not self._rows or table.cursor_row < 0:
            return None
        return self._rows[min(table.cursor_row, len(self._rows) - 1)][0]

    def _with_table(self, message: type[JoinTable] | type[WatchTable]) -> None:
        name = self._selected()
        table = self.lobby.get(name) if name else None
        if table is None and name is not None:
            # Closed since the list's last look: the list as it is now says so.
            self.refresh_tables()
            return
        if table is None:
            self.tell(self.app.t("lobby.choose_first"))
            return
        self.post_message(message(table))

    def action_join(self) -> None:
        self._with_table(self.JoinTable)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._with_table(self.JoinTable)

    def action_watch(self) -> None:
        self._with_table(self.WatchTable)

    def action_play_now(self) -> None:
        self.post_message(self.PlayNow())

    def action_new(self) -> None:
        try:
            self.lobby.check_room(self.identity.person, self._session)  # before the choices
        except LobbyError as exc:
            self.tell(exc.text(self.app.t))
            return

        def chosen(new: NewTable | None) -> None:
            if new is not None:
                self.post_message(self.OpenTable(new.settings, new.private))

        self.app.push_screen(CreateTableScreen(pace=self.lobby.pace,
                                               free_name=self.lobby.free_name(),
                                               in_use=self.lobby.name_in_use), chosen)

    def action_resume(self) -> None:
        def entered(code: str | None) -> None:
            if code:
                self.post_message(self.Resume(code))

        self.app.push_screen(ResumeScreen(guest=self.identity.guest), entered)

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen(self.lobby.storage, self.identity))

    def action_my_games(self) -> None:
        self.app.push_screen(HistoryScreen(self.lobby.storage, self.identity,
                                           self._ssh_command("")))

    def action_language(self) -> None:
        self.post_message(self.NextLanguage())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Not an admin: no admin key, neither shown nor working.
        if action == "admin":
            return self._admin is not None and self._admin()
        return True

    def action_admin(self) -> None:
        if self._admin is not None and self._admin():
            self.post_message(self.OpenAdmin())

    def action_quit_lobby(self) -> None:
        self.app.exit()
