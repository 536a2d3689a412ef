"""Dialogs of the lobby: open a new table, and type a guest's resume code.

Both fit a 80x24 terminal: one line per field (compact widgets), so every choice and
both buttons are on screen at once. Below 80x24 the size overlay covers them, as every
screen of the game, and keeps what was typed in them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from diamant_tui.engine.cards import Rules
from diamant_tui.table import TableSettings
from diamant_tui.ui.literal import literal
from diamant_tui.ui.screens.base import DiamantModal
from diamant_tui.ui.setup_choices import TIMERS, default_level, levels
from diamant_tui.ui.widgets.key_bar import KeyBar
from diamant_tui.ui.widgets.steady_input import SteadyInput

from .lobby import DEFAULT_SEATS, LobbyError, check_table_name

SEATS = range(3, 9)
DEFAULT_BOTS = 0


@dataclass(frozen=True)
class NewTable:
    """What the form asks for: a table with ``settings``, ``private`` or not (who may
    find it is the lobby's business, not a rule of the game: it is not in the settings)."""

    settings: TableSettings
    private: bool = False


class _AnswerOnce:
    """A dialog that gives its answer once: keys typed fast (Enter twice, Enter then
    Escape) can ask it to close again after it has gone, which Textual refuses with a
    ScreenStackError that would end the person's session."""

    _answered = False

    def dismiss(self, result=None):  # type: ignore[no-untyped-def]
        """Close the dialog with ``result``; asked again, nothing happens."""
        if self._answered:
            return None
        self._answered = True
        return super().dismiss(result)  # type: ignore[misc]


class CreateTableScreen(_AnswerOnce, DiamantModal):
    """The choices of a new table. Enter in the name field (focused at first) opens it;
    with no name typed the table takes the free name shown, e.g. ``cave-1``."""

    BINDINGS = [Binding("escape", "cancel", "key.cancel"),
                # A dialog keeps the app's keys from it: F1 shows the rules here too.
                Binding("f1", "app.rules", "key.rules")]

    def __init__(self, *, pace: float, free_name: str,
                 in_use: Callable[[str], bool] = lambda name: False) -> None:
        super().__init__()
        self._pace = pace
        self._free_name = free_name
        self._in_use = in_use
        """Whether a table already goes by a name (asked as the form checks it)."""

    def compose(self) -> ComposeResult:
        t = self.app.t  # type: ignore[attr-defined]
        strengths = [(f"{t(f'level.{name}')} ({spec})", spec) for name, spec in levels().items()]
        timers = [(t("setup.timer_off") if s is None else t("setup.timer_seconds", seconds=f"{s:g}"),
                   0.0 if s is None else s) for s in TIMERS]
        box = Vertical(id="create-box")
        box.border_title = t("create.title")
        with box:
            with Grid(id="create-form"):
                yield Label(t("create.name"))
                yield SteadyInput(placeholder=self._free_name, id="name", max_length=20, compact=True)
                yield Label(t("setup.rules"))
                yield self._select("rules", [(t(f"rules.{r.value}.long"), r.value) for r in Rules],
                                   Rules.CLASSIC.value)
                yield Label(t("create.seats"))
                yield self._select("seats", [(str(n), n) for n in SEATS], DEFAULT_SEATS)
                yield Label(t("setup.opponents"))
                yield self._select("bots", self._bot_choices(DEFAULT_SEATS), DEFAULT_BOTS)
                yield Label(t("create.strength"))
                yield self._select("level", strengths, levels()[default_level()])
                yield Label(t("setup.timer"))
                yield self._select("timer", timers, 0.0)
                yield Label(t("setup.hidden"))
                yield self._select("hidden", [(t("setup.no"), False), (t("setup.yes"), True)], False)
                yield Label(t("create.private"))
                yield self._select("private", [(t("create.public"), False),
                                               (t("create.private_yes"), True)], False)
            yield Static(id="error")
            with Horizontal(id="buttons"):
                yield Button(t("create.open"), variant="primary", id="create", compact=True)
                yield Button(t("create.cancel"), id="cancel", compact=True)
        yield KeyBar()

    @staticmethod
    def _select(name: str, options: list, value: object) -> Select:
        return Select(options, value=value, allow_blank=False, id=name, compact=True)

    @staticmethod
    def _bot_choices(seats: int) -> list[tuple[str, int]]:
        """The numbers of computer players a table of ``seats`` can take: it keeps at
        least one seat for a person."""
        return [(str(n), n) for n in range(seats)]

    def _fit_bots_to_seats(self) -> None:
        """Offer only the computer players the seats chosen leave room for, keeping
        the number chosen where it still fits, else the most that do."""
        seats = int(self._value("seats"))  # type: ignore[arg-type]
        bots = self.query_one("#bots", Select)
        chosen = int(bots.value)  # type: ignore[arg-type]
        bots.set_options(self._bot_choices(seats))
        bots.value = min(chosen, seats - 1)

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
        else:
            self._create()

    def _value(self, name: str) -> object:
        return self.query_one(f"#{name}", Select).value

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._recheck()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        # A change can arrive after the dialog has gone (keys typed fast).
        if event.select.id == "seats" and self.query("#bots"):
            self._fit_bots_to_seats()
        self._recheck()

    def _recheck(self) -> None:
        """Once an error is shown, it follows the fields: it goes as soon as they are
        right, and says what is wrong now while they are not (never before the first
        Enter: a name half typed is not yet wrong)."""
        # A change can arrive after the dialog has gone (keys typed fast): then there
        # is nothing left to check, and a query for a field would fail.
        shown = self.query("#error")
        if shown and shown.first().display:
            self._show_error(self._problem())

    def _table_name(self) -> str:
        """The name typed, else the free name offered."""
        return self.query_one("#name", Input).value.strip() or self._free_name

    def _problem(self) -> str | None:
        """What keeps the table from opening with the fields as they are, if anything."""
        # The computer players offered always leave a seat for a person (see
        # _fit_bots_to_seats): only the name can be wrong, or in use. Said here, the
        # dialog stays open with the choices made in it; the lobby checks again.
        name = self._table_name()
        try:
            check_table_name(name)
            if self._in_use(name):
                raise LobbyError("lobby.error.taken", name=name)
        except LobbyError as exc:
            return exc.text(self.app.t)  # type: ignore[attr-defined]
        return None

    def _show_error(self, text: str | None) -> None:
        error = self.query_one("#error", Static)
        # The message quotes the name as typed: show it as written, not as markup.
        error.update(literal(text or ""))
        error.display = text is not None

    def _create(self) -> None:
        problem = self._problem()
        if problem is not None:
            self._show_error(problem)
            return
        spec = str(self._value("level"))
        bots = int(self._value("bots"))  # type: ignore[arg-type]
        timer = float(self._value("timer"))  # type: ignore[arg-type]
        self.dismiss(NewTable(TableSettings(
            name=self._table_name(),
            rules=Rules.parse(str(self._value("rules"))),
            seats=int(self._value("seats")),  # type: ignore[arg-type]
            bots=(spec,) * bots,
            filler=spec,
            timer=timer or None,
            hidden_chests=bool(self._value("hidden")),
            pace=self._pace,
        ), private=bool(self._value("private"))))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResumeScreen(_AnswerOnce, DiamantModal):
    """Asks for the code a guest was shown when they sat down. Someone with a key is
    told that theirs brings them back to their own seats: the code is a guest's (one they
    were, from another machine), never shown to them as themselves."""

    BINDINGS = [Binding("escape", "cancel", "key.cancel"),
                # A dialog keeps the app's keys from it: F1 shows the rules here too.
                Binding("f1", "app.rules", "key.rules")]

    def __init__(self, *, guest: bool = True) -> None:
        super().__init__()
        self._guest = guest

    def compose(self) -> ComposeResult:
        t = self.app.t  # type: ignore[attr-defined]
        box = Vertical(id="resume-box")
        box.border_title = t("lobby.key.resume")
        with box:
            yield Static(t("lobby.resume_prompt" if self._guest else "lobby.resume_prompt_key"))
            yield SteadyInput(placeholder="ABC123", max_length=12, id="code", compact=True)
            yield Static(t("create.cancel"), classes="hint")
        yield KeyBar()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
