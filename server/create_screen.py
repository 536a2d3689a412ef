"""Dialogs of the lobby: open a new table, and type a guest's resume code."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from diamant_tui.cards import Rules
from diamant_tui.table import TableSettings
from diamant_tui.ui.setup_choices import default_level, levels

from .lobby import LobbyError, check_table_name

TIMERS = (("off", None), ("15 s", 15.0), ("30 s", 30.0), ("60 s", 60.0))


class CreateTableScreen(ModalScreen["TableSettings | None"]):
    """The choices of a new table; Enter in the name field opens it."""

    DEFAULT_CSS = """
    CreateTableScreen { align: center middle; }
    CreateTableScreen > Vertical { width: 64; height: auto; border: round $accent;
        background: $panel; padding: 0 1; }
    CreateTableScreen Grid { grid-size: 2; grid-columns: 18 1fr; height: auto; grid-rows: 3; }
    CreateTableScreen Label { padding: 1 0 0 0; }
    CreateTableScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, *, pace: float) -> None:
        super().__init__()
        self._pace = pace

    def compose(self) -> ComposeResult:
        t = self.app.t  # type: ignore[attr-defined]
        strengths = [(f"{t(f'level.{name}')} ({spec})", spec) for name, spec in levels().items()]
        strength = levels()[default_level()]
        with Vertical():
            yield Static("Open a table")
            with Grid():
                yield Label("Name")
                yield Input(placeholder="e.g. cave", id="name", max_length=20)
                yield Label("Rules")
                yield Select([(r.value, r.value) for r in Rules], value=Rules.CLASSIC.value,
                             allow_blank=False, id="rules")
                yield Label("Seats")
                yield Select([(str(n), n) for n in range(3, 9)], value=4, allow_blank=False,
                             id="seats")
                yield Label("Computer players")
                yield Select([(str(n), n) for n in range(0, 8)], value=1, allow_blank=False,
                             id="bots")
                yield Label("Their strength")
                yield Select(strengths, value=strength, allow_blank=False, id="level")
                yield Label("Decision timer")
                yield Select([(label, str(value)) for label, value in TIMERS], value="None",
                             allow_blank=False, id="timer")
                yield Label("")
                yield Checkbox("Hidden chests", id="hidden")
            yield Static(id="error")
            yield Button("Open the table", variant="primary", id="create")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._create()

    def _create(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        seats = int(self.query_one("#seats", Select).value)  # type: ignore[arg-type]
        bots = int(self.query_one("#bots", Select).value)  # type: ignore[arg-type]
        timer_text = str(self.query_one("#timer", Select).value)
        try:
            check_table_name(name)
            if bots >= seats:
                raise LobbyError(f"{bots} computer players leave no seat for you at {seats} seats.")
        except LobbyError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        spec = str(self.query_one("#level", Select).value)
        self.dismiss(TableSettings(
            name=name,
            rules=Rules.parse(str(self.query_one("#rules", Select).value)),
            seats=seats,
            bots=(spec,) * bots,
            timer=None if timer_text == "None" else float(timer_text),
            hidden_chests=self.query_one("#hidden", Checkbox).value,
            pace=self._pace,
        ))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResumeScreen(ModalScreen["str | None"]):
    """Asks a guest for the code shown when they first sat down."""

    DEFAULT_CSS = """
    ResumeScreen { align: center middle; }
    ResumeScreen > Vertical { width: 50; height: auto; border: round $accent;
        background: $panel; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Your resume code (shown when you sat down):")
            yield Input(placeholder="ABC123", max_length=12, id="code")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
