"""A yes/no question, e.g. before leaving a game in progress."""

from __future__ import annotations

from textual import events
from textual._time import get_time  # private: the clock keys are stamped with (pinned)
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label

from ..widgets.key_bar import KeyBar
from .base import DiamantModal


class ConfirmScreen(DiamantModal):
    """Dismisses with True for yes (y, Enter on Yes) and False for no (n, Escape).

    With ``read_first``, a yes typed within that many seconds of the question is
    dropped, the question staying: a key asked it, and the keys typed with that key (a
    chat line typed without t first, the y of "qu'y a-t-il") come before anyone has read
    it. A no is taken at once.

    F1 or ? shows the rules over the question, as everywhere (a modal screen hides the
    app's own keys); closing them, the question is there as it was."""

    BINDINGS = [
        Binding("y", "answer(True)", "key.yes"),
        Binding("n,escape", "answer(False)", "key.no"),
        Binding("f1,question_mark", "app.rules", "key.rules"),
    ]

    def __init__(self, question: str, *, read_first: float = 0.0) -> None:
        super().__init__()
        self.question = question
        self._read_from = get_time() + read_first
        """When a yes may answer (keys are stamped as they arrive)."""

    def compose(self) -> ComposeResult:
        t = self.app.t
        with Vertical(id="confirm-box", classes="dialog"):
            yield Label(Content(self.question))
            with Horizontal(classes="dialog-buttons"):
                # Plain content: "[y]" is a key hint, not markup.
                yield Button(Content(t("confirm.yes")), id="yes", compact=True)
                yield Button(Content(t("confirm.no")), id="no", compact=True)
        # Over the key bar of the screen below, whose keys do nothing while this asks.
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    def on_key(self, event: events.Key) -> None:
        # Before the bindings (the y, the Yes button's Enter and space), which the key
        # reaches only if it goes on from here.
        if event.time < self._read_from and self._says_yes(event.key):
            event.stop()
            event.prevent_default()

    def _says_yes(self, key: str) -> bool:
        """Whether ``key`` answers yes: y, or Enter or space on the Yes button."""
        focused = self.focused
        return key == "y" or (key in ("enter", "space") and focused is not None
                              and focused.id == "yes")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.close(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.close(yes)


class QuitQuestion(ConfirmScreen):
    """The question Ctrl+Q asks a person whose game goes on at their seat (see
    :meth:`DiamantApp.action_quit`): a second Ctrl+Q while it is asked quits.

    Asked in a terminal below 80x24, it is written where the "enlarge your terminal"
    notice stands, with the keys that answer it there: a second Ctrl+Q quits, Escape
    or n plays on (a yes typed unseen is not taken; the dialog's y once enlarged is)."""

    KEYS_BEHIND_OVERLAY = frozenset({"escape", "n"})

    def overlay_text(self) -> str:
        """The question and the keys that answer it behind the overlay."""
        return self.question + "\n\n" + self.app.t("too_small.quit_keys")
