"""The setup screen: rule set, players, computer players, timer, chests, language."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Input, Label, Select

from ...bots import BotSpecError
from ...engine.cards import Rules
from ...engine.errors import DiamantError
from ...i18n import LANGUAGE_NAMES
from ..cells import cell_len
from ..setup_choices import CUSTOM, MIXED, TIMERS, SetupChoices, levels
from ..widgets.key_bar import KeyBar
from ..widgets.steady_input import SteadyInput
from .base import DiamantScreen


CHOICE_ROOM = 42
"""Cells a choice's words have in its list on an 80-column terminal (diamant.tcss)."""


def custom_label(t, bots: tuple[str, ...], room: int = CHOICE_ROOM) -> str:
    """The computer players named on the command line, in few enough words for ``room``:
    a repeated one is counted (``ev ×3``) and those that do not fit are counted too."""
    counts: dict[str, int] = {}
    for spec in bots:
        counts[spec] = counts.get(spec, 0) + 1
    named = [spec if n == 1 else f"{spec} ×{n}" for spec, n in counts.items()]
    for shown in range(len(named), 0, -1):
        rest = len(named) - shown
        words = ", ".join(named[:shown])
        if rest:
            words = t("level.custom_more", bots=words, count=rest)
        label = t("level.custom", bots=words)
        if cell_len(label) <= room:
            return label
    return label


class SetupScreen(DiamantScreen):
    """Choose a game; the Start button has the focus, so Enter alone starts one."""

    BINDINGS = [
        Binding("ctrl+s", "start", "key.start"),
        Binding("escape", "app.quit", "key.quit"),
    ]

    def __init__(self, choices: SetupChoices | None = None) -> None:
        super().__init__()
        self.choices = choices or SetupChoices()
        # A timer given on the command line joins the usual ones.
        extra = () if self.choices.timer in TIMERS else (self.choices.timer,)
        self._timer_choices: tuple[float | None, ...] = TIMERS + extra

    def compose(self) -> ComposeResult:
        t = self.app.t
        c = self.choices
        level_options = [(f"{t(f'level.{lv}')} ({spec})", lv) for lv, spec in levels().items()]
        level_options.append((t("level.mixed"), MIXED))
        if c.custom_bots:
            level_options.append((custom_label(t, c.custom_bots), CUSTOM))
        with Vertical(id="setup-box"):
            yield Label(t("setup.title"), id="setup-title")
            yield Label(t("setup.subtitle"), id="setup-subtitle")
            with Grid(id="setup-form"):
                yield Label(t("setup.name"))
                yield SteadyInput(c.name, id="name", max_length=16, compact=True)
                yield Label(t("setup.rules"))
                yield self._select("rules", [(t(f"rules.{r.value}.long"), r.value) for r in Rules],
                                   c.rules.value)
                yield Label(t("setup.players"))
                yield self._select("players", [(str(n), n) for n in range(3, 9)], c.players)
                yield Label(t("setup.opponents"))
                yield self._select("level", level_options, c.level)
                yield Label(t("setup.timer"))
                yield self._select("timer", [(self._timer_label(s), i) for i, s in enumerate(self._timer_choices)],
                                   self._timer_choices.index(c.timer))
                yield Label(t("setup.hidden"))
                yield self._select("hidden", [(t("setup.no"), False), (t("setup.yes"), True)],
                                   c.hidden_chests)
                yield Label(t("setup.language"))
                yield self._select("lang", list((name, code) for code, name in LANGUAGE_NAMES.items()),
                                   self.app.translator.lang)
            with Horizontal(id="setup-buttons"):
                yield Button(Content(t("setup.start")), id="start", compact=True)
                # Plain content: "[?]" is a key hint, not markup.
                yield Button(Content(t("setup.show_rules")), id="show-rules", compact=True)
        yield KeyBar()

    def _select(self, name: str, options: list, value) -> Select:
        return Select(options, value=value, allow_blank=False, id=name, compact=True)

    def _timer_label(self, seconds: float | None) -> str:
        t = self.app.t
        return t("setup.timer_off") if seconds is None else t("setup.timer_seconds", seconds=f"{seconds:g}")

    def on_mount(self) -> None:
        self.query_one("#start").focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        name, value = event.select.id, event.value
        if value is Select.BLANK:
            return
        if name == "rules":
            self.choices = self.choices.with_(rules=Rules.parse(value))
        elif name == "players":
            self.choices = self.choices.with_(players=int(value))
        elif name == "level":
            self.choices = self.choices.with_(level=value)
        elif name == "timer":
            self.choices = self.choices.with_(timer=self._timer_choices[int(value)])
        elif name == "hidden":
            self.choices = self.choices.with_(hidden_chests=bool(value))
        elif name == "lang" and value != self.app.translator.lang:
            self.run_worker(self._change_language(value))

    async def _change_language(self, lang: str) -> None:
        await self.app.set_language(lang)
        self.query_one("#lang").focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.choices = self.choices.with_(name=event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        else:
            self.app.action_rules()

    def action_start(self) -> None:
        name = self.choices.name.strip()
        if not name:
            self.notify(self.app.t("setup.name_missing"), severity="warning")
            if not self.rebuilding:  # (made again in a new language, it has no box yet)
                self.query_one("#name").focus()
            return
        try:
            self.app.start_local_game(self.choices.with_(name=name))
        except (DiamantError, BotSpecError) as error:
            # (a player from outside checked when named may still fail to be built now)
            self.notify(str(error), severity="error", markup=False)
