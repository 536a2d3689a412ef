"""The Diamant app: the setup screen for local play, or a table's screen for a seat.

``make_app(table=..., seat=...)`` is the factory a host (the SSH server) calls for each
connection; ``DiamantApp()`` alone shows the setup screen and plays locally.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from textual import events
from textual.app import App
from textual.binding import Binding

from ..i18n import Translator, detect_language
from ..table import Table
from .bindings import translate_bindings
from .colours import apply_colours
from .screens.base import _Guarded
from .screens.rules import RulesScreen
from .screens.setup import SetupScreen
from .screens.table import TableScreen
from .setup_choices import SetupChoices

LeaveHandler = Callable[["DiamantApp"], None]


class DiamantApp(App):
    """Plays Diamant in a terminal, in one language of its own."""

    # Absolute, so that subclasses defined elsewhere (a host's app) find it too.
    CSS_PATH = str(Path(__file__).with_name("diamant.tcss"))
    TITLE = "Diamant"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("f1,question_mark", "rules", "key.rules")]

    def __init__(
        self,
        *,
        lang: str | None = None,
        table: Table | None = None,
        seat: int | None = None,
        choices: SetupChoices | None = None,
        on_leave: LeaveHandler | None = None,
        **app_options,
    ) -> None:
        super().__init__(**app_options)
        self.translator = Translator(lang or detect_language())
        self.table = table
        self.seat = seat
        self.choices = choices
        self._on_leave = on_leave
        self._own_table: Table | None = None
        # NO_COLOR asks for no colour when it is set and not empty (no-color.org).
        self.no_color = bool(os.environ.get("NO_COLOR"))
        apply_colours(self)

    def t(self, key: str, **fmt: object) -> str:
        """The text for ``key`` in this app's language."""
        return self.translator(key, **fmt)

    def on_mount(self) -> None:
        translate_bindings(self, self.t)
        if self.table is not None:
            self.push_screen(TableScreen(self.table, self.seat))
        else:
            self.push_screen(SetupScreen(self.choices))

    async def set_language(self, lang: str) -> None:
        """Switch this app (only) to ``lang`` and redraw every screen."""
        self.translator = Translator(lang)
        translate_bindings(self, self.t)
        for screen in self.screen_stack:
            if isinstance(screen, _Guarded):
                await screen.retranslate()

    def on_key(self, event: events.Key) -> None:
        # Any key, on any screen, shows the person is back at the keyboard.
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.wake()

    def action_rules(self) -> None:
        """Show the rules over the current screen (once: a second press does not stack them)."""
        if not any(isinstance(screen, RulesScreen) for screen in self.screen_stack):
            self.push_screen(RulesScreen())

    def waiting_hint(self, table: Table) -> str | None:
        """A line for the table screen while ``table`` waits for players; hosts may override.

        The local game never waits (its seats are filled at once), so there is none here.
        """
        return None

    def start_local_game(self, choices: SetupChoices) -> None:
        """Create a local table for ``choices``, seat the person and show the table."""
        table = Table(choices.settings(), creator=choices.name)
        seat = table.join(choices.name, identity="local")
        self.choices = choices
        self._own_table = self.table = table
        self.seat = seat
        self.push_screen(TableScreen(table, seat))

    def leave_table(self) -> None:
        """The person leaves the table: the host decides what that means (local: quit)."""
        if self._on_leave is not None:
            self._on_leave(self)
            return
        self.run_worker(self._close_and_exit(), exclusive=True)

    async def _close_and_exit(self) -> None:
        if self._own_table is not None:
            await self._own_table.close()
        self.exit()


def make_app(
    table: Table | None = None,
    seat: int | None = None,
    *,
    lang: str | None = None,
    on_leave: LeaveHandler | None = None,
    **app_options,
) -> DiamantApp:
    """A new app for one person: at ``table`` in ``seat`` (None: watching), or local setup."""
    return DiamantApp(lang=lang, table=table, seat=seat, on_leave=on_leave, **app_options)
