"""Messages between the table's callback, the screens and the app."""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message

from ..table import TableUpdate


class TableUpdated(Message, bubble=False):
    """The table sent a new update (posted by the table's callback on the event loop).

    It stays with the table's screen, which tells its app once it has shown the update
    (:meth:`~diamant_tui.ui.app.DiamantApp.table_update_shown`): bubbled up, it was one
    more message handled by every seat's app for every update."""

    def __init__(self, update: TableUpdate) -> None:
        super().__init__()
        self.update = update


class LeaveTable(Message):
    """The person leaves the table they are looking at; the app decides what that means
    (locally: quit; on a server: back to the lobby)."""


class TakeSeat(Message):
    """A spectator at a table waiting for its players takes one of its free seats; the
    app decides what that means (on a server: a seat, as taken from the lobby; a local
    game has no spectators)."""


class LeaveReplay(Message):
    """The person stops watching a recorded game; the app decides what that means
    (locally: quit; on a server: back to where the replay was chosen)."""


class ReportAsked(Message):
    """The person asked (``/report NAME why`` in the chat box) to tell the hosts that
    ``name``, as the table shows it, is abusive, for ``reason`` as typed. The app decides
    what that means (locally: there are no hosts; on a server: a report to its admins)
    and tells the person what became of it through ``answer``, where chat notes are told."""

    def __init__(self, name: str, reason: str, answer: Callable[[str], None]) -> None:
        super().__init__()
        self.name = name
        self.reason = reason
        self.answer = answer
