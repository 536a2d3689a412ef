"""My games: the games a person sat at, newest first, with their score and place.

Games are kept for people who connect with an SSH key; a guest is told how to get one
instead. Enter on a game posts :class:`HistoryScreen.WatchPastGame` (the app decides
what watching it again means). The database is read in a worker: the screen opens at
once and fills in when the answer comes.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from diamant_tui.ui.cells import shorten
from diamant_tui.ui.literal import literal, printable
from diamant_tui.ui.screens.base import DiamantScreen
from diamant_tui.ui.widgets.key_bar import KeyBar

from .identity import Identity, person_of
from .row_list import RowList
from .storage import PastGame, Storage, StorageError

SHOWN = 50
"""Games listed at most, the latest (the list scrolls)."""
COLUMNS = ("date", "rules", "players", "score", "place")
PLAYERS_WIDTH = 24
"""Cells the names of a game's players take at most at 80 columns (the list fits them);
a wider terminal gives them every column more (:func:`players_width`)."""


def format_date(stamp: str, t) -> str:
    """The day of a time kept in the database (``2024-01-02T03:04:05Z``, UTC) written
    the way ``t``'s language usually writes a date."""
    year, month, day = stamp[:10].split("-")
    return t("history.date", year=year, month=month, day=day)


def players_width(screen_width: int) -> int:
    """Cells the players' names may take on a screen ``screen_width`` columns wide: at
    160 columns they were cut at 24 cells as at 80, most of the line left empty."""
    return PLAYERS_WIDTH + max(0, screen_width - 80)


def format_players(names: tuple[str, ...], width: int = PLAYERS_WIDTH) -> str:
    """The players' names in seat order, shortened to fit a column ``width`` cells wide
    (a CJK character takes two: counting characters pushed the place off the screen)."""
    return shorten(printable(", ".join(names)), width, name=False)


def game_cells(past: PastGame, t, width: int = PLAYERS_WIDTH) -> tuple[str, ...]:
    """One game of the list: date, rule set, players, my score, my place."""
    game = past.game
    if past.place is None:
        score, place = "—", t("history.unfinished")
    else:
        score = "—" if past.score is None else str(past.score)
        place = t("history.place", place=past.place, count=len(game.players))
    return (format_date(game.started, t), t(f"rules.{game.rules}"),
            format_players(game.players, width), score, place)


class HistoryScreen(DiamantScreen):
    """The person's games; Enter watches one again, Escape or q goes back to the lobby."""

    class WatchPastGame(Message):
        """The person asks to watch game ``game_id`` again."""

        def __init__(self, game_id: int) -> None:
            super().__init__()
            self.game_id = game_id

    BINDINGS = [
        # A priority binding, so the key bar shows it over the list's own (hidden) Enter.
        Binding("enter", "watch", "history.key.watch", priority=True),
        Binding("escape,q", "back", "key.lobby"),
    ]

    def __init__(self, storage: Storage | None, identity: Identity, connect: str) -> None:
        """``storage`` is where the games are read (None: a server that keeps no games);
        ``connect`` the line that connects to this server (told to a guest)."""
        super().__init__()
        self.storage = storage
        self.identity = identity
        self.connect = connect
        self.games: list[PastGame] | None = None
        """The games read (None until the answer has come)."""
        self.total = 0
        """How many games the person sat at in all: more than those listed, the list
        says it is only the latest."""
        self._failed = False
        self._players_width = PLAYERS_WIDTH
        """The players' column's width the list was last filled for."""

    def compose(self) -> ComposeResult:
        t = self.app.t
        yield Static(literal(t("history.title")), id="history-title")
        table: DataTable[Text] = RowList(zebra_stripes=True, id="history-list")
        for column in COLUMNS:
            table.add_column(Text(t(f"history.col.{column}")), key=column)
        # The list grows with its rows, and scrolls once they fill the screen.
        with Vertical(id="history-area"):
            yield table
            yield Static(id="history-status")
        # Outside the list's area, which a long list fills: always in sight.
        yield Static(id="history-more")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show()
        if self.games is None:
            self.run_worker(self._load(), exclusive=True, group="history")

    async def retranslate(self) -> None:
        """Redraw in the app's new language, with the games already read."""
        await super().retranslate()
        self._show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # No game to watch: no Enter in the key bar.
        if action == "watch":
            return bool(self.games)
        return True

    async def _load(self) -> None:
        games: list[PastGame] = []
        person = person_of(self.identity.key)
        if self.storage is not None and person is not None:
            try:
                games = await self.storage.history(person, SHOWN)
                if len(games) >= SHOWN:
                    self.total = await self.storage.games_of(person)
            except StorageError:
                self._failed = True
        self.games = games
        if self.rebuilding or not self.query("#history-status"):
            # Its widgets are gone (made again in another language meanwhile, or the
            # screen is going): what makes them again shows the games.
            return
        self._show()
        self.refresh_bindings()

    def _show(self) -> None:
        """Fill the list, or say why it is empty."""
        t = self.app.t
        status = self.query_one("#history-status", Static)
        table = self.query_one(DataTable)
        if self.identity.guest:
            text = t("history.guest", command=self.connect)
        elif self.games is None:
            text = t("records.loading")
        elif self._failed:
            text = t("records.failed")
        else:
            text = "" if self.games else t("history.empty")
        status.update(literal(text))
        status.display = bool(text)
        more = self.query_one("#history-more", Static)
        shown = len(self.games or ())
        more.display = not self._failed and self.total > shown
        if more.display:
            more.update(literal(t("history.more", shown=shown, count=self.total)))
        row = table.cursor_row
        table.clear()
        width = self._players_width = players_width(self.app.size.width)
        for past in self.games or ():
            table.add_row(*(Text(cell, justify="right" if i == 3 else "left")
                            for i, cell in enumerate(game_cells(past, t, width))),
                          key=str(past.game.id))
        if 0 < row < table.row_count:
            table.move_cursor(row=row)  # filled again for another width: where it was
        table.display = bool(self.games)
        if self.games:
            table.focus()

    def on_resize(self, event: events.Resize) -> None:
        if self.games and players_width(event.size.width) != self._players_width:
            self._show()

    def _watch_selected(self) -> None:
        table = self.query_one(DataTable)
        if self.games and 0 <= table.cursor_row < len(self.games):
            self.post_message(self.WatchPastGame(self.games[table.cursor_row].game.id))

    def action_watch(self) -> None:
        self._watch_selected()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._watch_selected()

    def action_back(self) -> None:
        if self.app.screen is self:
            self.app.pop_screen()
