"""The admin screen's dialog: a reason or a message to type, and for a ban how long.

Everything typed is shown as written (never as markup) and sent as typed; the admin desk
cleans and bounds it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from diamant_tui.ui.literal import literal, printable
from diamant_tui.ui.screens.base import DiamantModal
from diamant_tui.ui.widgets.steady_input import SteadyInput

from .bans import DURATIONS, REASON_MAX

DEFAULT_DURATION = "day"
"""The length a ban dialog offers first."""


class AdminDialog(DiamantModal):
    """Asks an admin for a text (a reason, or a message) and, for a ban, how long.
    Enter gives ``(duration, text)``; Escape gives None."""

    BINDINGS = [
        Binding("escape", "cancel", show=False),
        Binding("up", "duration(-1)", show=False),
        Binding("down", "duration(1)", show=False),
    ]

    def __init__(self, title: str, prompt: str, *, durations: bool = False,
                 warning: str | None = None, required: bool = False,
                 most: int = REASON_MAX) -> None:
        super().__init__()
        self._title, self._prompt, self._warning = title, prompt, warning
        self._durations = list(DURATIONS) if durations else []
        self._chosen = self._durations.index(DEFAULT_DURATION) if durations else 0
        self._required, self._most = required, most

    def compose(self) -> ComposeResult:
        t = self.app.t
        with Vertical():
            yield Static(literal(self._title), id="dialog-title")
            if self._warning:
                yield Static(literal(self._warning), id="dialog-warning")
            if self._durations:
                yield Static(id="dialog-duration")
            yield Static(literal(self._prompt))
            yield SteadyInput(id="dialog-text", max_length=self._most, compact=True)
            yield Static(id="dialog-error")
            yield Static(t("admin.dialog_hint_durations" if self._durations
                           else "admin.dialog_hint"), classes="hint")

    def on_mount(self) -> None:
        # (Textual calls the base screen's on_mount too: the size overlay, the key hints.)
        self._show_duration()
        self.query_one(Input).focus()

    def _show_duration(self) -> None:
        if self._durations:
            name = self._durations[self._chosen]
            self.query_one("#dialog-duration", Static).update(
                self.app.t("admin.ban_for", duration=self.app.t(f"admin.duration.{name}")))

    def action_duration(self, step: int) -> None:
        if self._durations:
            self._chosen = min(max(self._chosen + step, 0), len(self._durations) - 1)
            self._show_duration()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        # Judged as the desk will clean it (control and format characters as spaces): a
        # pasted zero-width space alone is as empty as nothing typed, and is said here,
        # with the dialog still open, not in a notice once it has closed.
        if self._required and not printable(text).split():
            error = self.query_one("#dialog-error", Static)
            error.update(self.app.t("admin.error.empty"))
            error.display = True
            return
        self.close((self._durations[self._chosen] if self._durations else "", text))

    def action_cancel(self) -> None:
        self.close(None)
