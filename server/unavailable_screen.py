"""Said when someone asks for a seat at a table that is full or already playing.

A screen of its own, not a passing note: it stays until the person chooses to watch the
table, to play at the next game elsewhere (play now, as the lobby's ``p``), or to go back
to the lobby (a ``play NAME`` command lands here directly).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label

from diamant_tui.table import TableStatus
from diamant_tui.ui.screens.base import DiamantModal
from diamant_tui.ui.widgets.key_bar import KeyBar


WATCH, PLAY = "watch", "play"
"""What the person chose (the screen's result; None: back to the lobby)."""


class TableUnavailableScreen(DiamantModal):
    """"Table X is full / has begun": ``w`` watches it (result :data:`WATCH`), ``p``
    plays at the next game there is (:data:`PLAY`), Escape goes back (None). F1 or ?
    shows the rules over it (a modal screen hides the app's own keys)."""

    BINDINGS = [
        Binding("w", "watch", "key.watch"),
        Binding("p", "play_now", "lobby.key.play_now"),
        Binding("escape,q", "back", "key.lobby"),
        Binding("f1,question_mark", "app.rules", "key.rules"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]
    AUTO_FOCUS = "#watch"

    def __init__(self, name: str, status: TableStatus) -> None:
        super().__init__()
        self.table_name = name
        self.status = status

    def compose(self) -> ComposeResult:
        t = self.app.t
        why = {TableStatus.WAITING: "unavailable.full", TableStatus.PLAYING: "unavailable.begun",
               TableStatus.FINISHED: "unavailable.finished"}[self.status]
        with Vertical(id="unavailable-box"):
            yield Label(Content(t(why, name=self.table_name)), id="unavailable-why")
            yield Label(Content(t("unavailable.hint")), id="unavailable-hint")
            with Horizontal(id="unavailable-buttons"):
                yield Button(Content(t("unavailable.watch")), id="watch", compact=True)
                yield Button(Content(t("unavailable.play")), id="play", compact=True)
                yield Button(Content(t("unavailable.back")), id="back", compact=True)
        yield KeyBar()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.close({"watch": WATCH, "play": PLAY}.get(event.button.id or ""))

    def action_watch(self) -> None:
        self.close(WATCH)

    def action_play_now(self) -> None:
        self.close(PLAY)

    def action_back(self) -> None:
        self.close(None)
