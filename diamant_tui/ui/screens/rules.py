"""The rules of the three rule sets, in the app's language."""

from __future__ import annotations

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.content import Content
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..widgets.key_bar import KeyBar
from .base import DiamantModal


class RulesScreen(DiamantModal):
    """Scrollable rules; any of Escape, q, ? or F1 closes them."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "key.close"),
    ]
    # Focus by selector once composed: a screen closed before it has finished mounting
    # then simply has nothing to focus (a query in on_mount would fail).
    AUTO_FOCUS = "#rules-body"

    def compose(self) -> ComposeResult:
        # One Static holding Rich's Markdown: several times cheaper to open than the
        # Markdown widget (one widget per block), which matters with many sessions.
        with VerticalScroll(id="rules-body"):
            note = self.app.help_note
            if note:
                # Literal text: it may hold a name or a command with brackets.
                yield Static(Content(note), id="rules-note")
            yield Static(Markdown(self.app.t("rules.body")), id="rules-text")
        yield KeyBar()

    def action_close(self) -> None:
        self.close()
