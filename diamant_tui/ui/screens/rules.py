"""The rules of the three rule sets, in the app's language."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Markdown

from .base import DiamantModal


class RulesScreen(DiamantModal):
    """Scrollable rules; any of Escape, q, ? or F1 closes them."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "dismiss", "key.close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-body"):
            yield Markdown(self.app.t("rules.body"))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-body").focus()

    def action_dismiss(self) -> None:
        self.dismiss()
