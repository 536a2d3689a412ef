"""The interface's table screen as the server shows it: a spectator chats as themselves."""

from __future__ import annotations

from diamant_tui.table import Table
from diamant_tui.ui import TableScreen


class ServerTableScreen(TableScreen):
    """A :class:`TableScreen` whose spectator chats under the name the lobby gave them
    (their own name with a marker, such as "ann (watching)"), not a shared "spectator":
    people can tell watchers apart, and the table's chat limit, which counts lines per
    name, applies to each watcher on their own."""

    def __init__(self, table: Table, seat: int | None, *, watcher_name: str | None = None) -> None:
        super().__init__(table, seat)
        self.watcher_name = watcher_name

    def _my_name(self) -> str:
        if self.seat is None and self.watcher_name:
            return self.watcher_name
        return super()._my_name()
