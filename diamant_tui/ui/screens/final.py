"""The end of the game: ranking with shared places, per-round results, a chart."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label

from ...errors import DiamantError
from ...view import PlayerView
from ..widgets.score_table import ScoreTable
from ..widgets.quiet_footer import QuietFooter
from .base import DiamantScreen


class FinalScreen(DiamantScreen):
    """Final scores; ``r`` asks the table for a rematch, ``q`` leaves the table."""

    BINDINGS = [
        Binding("r", "rematch", "key.rematch"),
        Binding("q", "leave", "key.quit"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, view: PlayerView, table=None) -> None:
        super().__init__()
        self.view = view
        self.table = table

    def compose(self) -> ComposeResult:
        t = self.app.t
        view = self.view
        names = [view.players[s].name for s in view.winners]
        key = "final.winner" if len(names) == 1 else "final.winners"
        with Vertical(id="final-box"):
            yield Label(t("final.title"), classes="dialog-title")
            # Plain content: people's names and "[r]" must not be read as markup.
            yield Label(Content("★ " + t(key, names=", ".join(names))), id="final-winners")
            yield ScoreTable(id="final-scores")
            with Horizontal(classes="dialog-buttons"):
                if self.table is not None:
                    yield Button(Content(t("final.rematch")), id="rematch", compact=True)
                yield Button(Content(t("final.quit")), id="quit", compact=True)
        yield QuietFooter()

    def on_mount(self) -> None:
        self.query_one(ScoreTable).view = self.view
        self.query_one("#rematch" if self.table is not None else "#quit").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch" and self.table is None:
            return False
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rematch":
            self.action_rematch()
        else:
            self.action_leave()

    def action_rematch(self) -> None:
        if self.table is None:
            return
        try:
            self.table.rematch()
        except DiamantError as error:
            self.notify(str(error), severity="warning", markup=False)

    def action_leave(self) -> None:
        self.app.leave_table()
