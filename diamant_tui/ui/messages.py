"""Messages between the table's callback, the screens and the app."""

from __future__ import annotations

from textual.message import Message

from ..table import TableUpdate


class TableUpdated(Message):
    """The table sent a new update (posted by the table's callback on the event loop)."""

    def __init__(self, update: TableUpdate) -> None:
        super().__init__()
        self.update = update
