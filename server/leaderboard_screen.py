"""The leaderboard: the best ratings on the server, people and computer levels together.

A rating is shown as its conservative estimate (``mu - 3 * sigma``, see :mod:`.ratings`),
which starts at 0 and climbs as games make the server surer of a player; a footnote says
so in plain words. Guests are never rated, so never listed. The person's own row is
marked, and the cursor starts on it. The database is read in a worker: the screen opens
at once and fills in when the answer comes.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from diamant_tui.names import distinct_name
from diamant_tui.ui.literal import literal, printable
from diamant_tui.ui.screens.base import DiamantScreen
from diamant_tui.ui.widgets.key_bar import KeyBar

from .identity import Identity, person_of
from .storage import Standing, Storage, StorageError

SHOWN = 100
"""Ratings listed at most (the list scrolls)."""
COLUMNS = ("rank", "name", "rating", "games", "wins")
YOU = "▶"
"""The mark on the person's own row."""


def format_rating(value: float, t) -> str:
    """A rating with one decimal, written with the decimal mark of ``t``'s language."""
    text = f"{value:.1f}"
    if text == "-0.0":
        text = "0.0"
    return text.replace(".", t("number.decimal_mark")).replace("-", "−")


def shown_name(standing: Standing, t, names: dict[str, str] | None = None) -> str:
    """A person's name as they chose it (as ``names`` marks it, see :func:`told_apart`);
    a computer level as it is named, said to be one."""
    if standing.computer:
        return t("board.computer", name=standing.name)
    return (names or {}).get(standing.who, standing.name)


def told_apart(standings: list[Standing]) -> dict[str, str]:
    """Each person's name on the list, marked as a table marks it (``ann²``) when
    someone first seen earlier shows under it, or under a name that looks like it: any
    key may log in under any name, and the regular who had it first keeps it plain."""
    names: dict[str, str] = {}
    for standing in sorted((s for s in standings if not s.computer),
                           key=lambda s: (s.arrival, s.who)):
        names[standing.who] = distinct_name(standing.name, names.values())
    return names


class LeaderboardScreen(DiamantScreen):
    """The best ratings; Escape or q goes back to the lobby."""

    BINDINGS = [Binding("escape,q", "back", "key.lobby")]

    def __init__(self, storage: Storage | None, identity: Identity) -> None:
        """``storage`` is where the ratings are read (None: a server that keeps no games);
        ``identity`` whose row is marked."""
        super().__init__()
        self.storage = storage
        self.identity = identity
        self.standings: list[Standing] | None = None
        """The ratings read (None until the answer has come)."""
        self.mine: Standing | None = None
        """The person's own line when it is not among those listed."""
        self._failed = False

    def compose(self) -> ComposeResult:
        t = self.app.t
        yield Static(literal(t("board.title")), id="board-title")
        table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True,
                                           id="board-list")
        table.add_column(Text(""), key="you")
        for column in COLUMNS:
            table.add_column(Text(t(f"board.col.{column}")), key=column)
        # The list grows with its rows, and scrolls once they fill the screen; the note
        # that it is empty sits right under it. Where the person stands is outside its
        # area: a full list (a busy server, where it matters most) would push it out of
        # sight.
        with Vertical(id="board-area"):
            yield table
            yield Static(id="board-status", classes="records-note")
        yield Static(id="board-mine", classes="records-note")
        yield Static(literal(t("board.footnote")), id="board-footnote", classes="records-note")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show()
        if self.standings is None:
            self.run_worker(self._load(), exclusive=True, group="leaderboard")

    async def retranslate(self) -> None:
        """Redraw in the app's new language, with the ratings already read."""
        await super().retranslate()
        self._show()

    async def _load(self) -> None:
        standings: list[Standing] = []
        if self.storage is not None:
            try:
                standings = await self.storage.leaderboard(SHOWN)
                me = person_of(self.identity.key)
                if me is not None and all(s.who != me for s in standings):
                    self.mine = await self.storage.standing_of(me)
            except StorageError:
                self._failed = True
        self.standings = standings
        if self.rebuilding or not self.query("#board-status"):
            # Its widgets are gone (made again in another language meanwhile, or the
            # screen is going): what makes them again shows the ratings read.
            return
        self._show()

    def _show(self) -> None:
        """Fill the list and the notes with what has been read so far."""
        t = self.app.t
        status = self.query_one("#board-status", Static)
        mine = self.query_one("#board-mine", Static)
        table = self.query_one(DataTable)
        standings = self.standings
        if standings is None:
            status.update(literal(t("records.loading")))
            mine.display = False
            table.display = False
            return
        me = person_of(self.identity.key)
        table.clear()
        own_row = None
        names = told_apart(standings)
        for index, standing in enumerate(standings):
            mark = standing.who == me
            if mark:
                own_row = index
            style = "bold" if mark else ""
            cells = (YOU if mark else "", str(standing.rank),
                     printable(shown_name(standing, t, names)),
                     format_rating(standing.rating.shown, t), str(standing.rating.games),
                     str(standing.rating.wins))
            table.add_row(*(Text(cell, style=style, justify="left" if i in (0, 2) else "right")
                            for i, cell in enumerate(cells)), key=standing.who)
        table.display = bool(standings)
        if own_row is not None:
            table.move_cursor(row=own_row)
        status.display = self._failed or not standings
        status.update(literal(t("records.failed" if self._failed else "board.empty")))
        why = None
        if self.identity.guest:
            why = t("board.guest")
        elif own_row is None and self.mine is not None:
            # Rated, below the places listed: where they stand all the same.
            own = self.mine
            why = t("board.yours", rank=own.rank, rating=format_rating(own.rating.shown, t),
                    games=own.rating.games, wins=own.rating.wins)
        elif own_row is None and standings:
            why = t("board.unrated")
        mine.display = why is not None
        if why is not None:
            mine.update(literal(why))
        if standings:
            table.focus()

    def action_back(self) -> None:
        if self.app.screen is self:
            self.app.pop_screen()
