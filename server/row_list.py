"""A list whose cursor is a whole row, chosen by a click anywhere on it."""

from __future__ import annotations

from textual import events
from textual.widgets import DataTable


class RowList(DataTable):
    """Textual's :class:`DataTable` with a row cursor, where a click on the row under
    the cursor chooses it (``RowSelected``) whatever its column: a click on a table's
    rules or status, not only on the column clicked before, as Enter does. (Textual's
    compares the cell's column too, so a first click on another column of the highlighted
    row chose nothing, and a second nothing either when the two fell in other columns.)
    A click on another row moves the cursor to it, as before: a second click chooses it.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", **kwargs)

    async def _on_click(self, event: events.Click) -> None:
        row = event.style.meta.get("row")
        if (row is not None and row >= 0 and row == self.cursor_row
                and "column" in event.style.meta and self.show_cursor):
            event.stop()
            self._set_hover_cursor(True)
            self.action_select_cursor()
            return
        await super()._on_click(event)
