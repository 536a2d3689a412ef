"""A yes/no question, e.g. before leaving a game in progress."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label

from .base import DiamantModal


class ConfirmScreen(DiamantModal):
    """Dismisses with True for yes (y, Enter on Yes) and False for no (n, Escape)."""

    BINDINGS = [
        Binding("y", "answer(True)", "key.yes"),
        Binding("n,escape", "answer(False)", "key.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        t = self.app.t
        with Vertical(id="confirm-box", classes="dialog"):
            yield Label(Content(self.question))
            with Horizontal(classes="dialog-buttons"):
                # Plain content: "[y]" is a key hint, not markup.
                yield Button(Content(t("confirm.yes")), id="yes", compact=True)
                yield Button(Content(t("confirm.no")), id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.close(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.close(yes)
