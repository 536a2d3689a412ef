"""The decision: continue or leave, with keys, arrows, Enter and the mouse."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Label

from ...engine.view import Decision


@dataclass(frozen=True)
class DecisionState:
    """What the panel shows: whether a choice is due, the own choice, the timer's deadline."""

    due: bool = False
    choice: Decision | None = None
    in_cave: bool = True
    playing: bool = True
    deadline: float | None = None


class DecisionPanel(Horizontal):
    """Two buttons and a line saying what is expected; the own choice stays marked.

    The buttons show only while this seat has a choice to make; a spectator's panel
    says that they are watching and how to chat or go back.
    """

    # The marks on the buttons name them by id: Button's own looks for focus, hover and
    # a press (background, text style, some !important) would outrank them otherwise.
    DEFAULT_CSS = """
    DecisionPanel {
        /* Two lines always, so a longer note never moves the rest of the screen. */
        height: 2;
        margin: 0 0;
        & > Button {
            margin: 0 1;
            min-width: 14;
        }
        & > #continue.-chosen, & > #leave.-chosen {
            text-style: bold reverse;
        }
        & > #continue.-idle, & > #leave.-idle {
            background: transparent !important;
            text-style: none;
        }
        & > #decision-note {
            width: 1fr;
            height: 2;
            padding: 0 1;
            color: $text-muted;
        }
        & > #decision-timer {
            width: 9;
            padding: 0 1;
            &.-urgent {
                text-style: bold reverse;
                color: $warning;
            }
        }
    }
    """

    class DecisionChosen(Message):
        """The person chose to continue or to leave."""

        def __init__(self, decision: Decision) -> None:
            super().__init__()
            self.decision = decision

    state: reactive[DecisionState] = reactive(DecisionState, init=False)
    watching: reactive[bool] = reactive(False, init=False)

    def watch_watching(self, watching: bool) -> None:
        # A spectator never has a choice: no room kept for the buttons at all.
        for button in self.query(Button):
            button.display = not watching
        self._relabel()

    def compose(self) -> ComposeResult:
        yield Button("", id="continue", compact=True)
        yield Button("", id="leave", compact=True)
        yield Label("", id="decision-note")
        yield Label("", id="decision-timer")

    def on_mount(self) -> None:
        # Each button as wide as its longest label in this language, once: a blank label
        # (nothing due) must not shrink it, or the next label would be cut.
        t = self.app.t
        for decision, key in ((Decision.CONTINUE, "c"), (Decision.LEAVE, "l")):
            word = t(f"decision.{decision.value}")
            width = max(cell_len(f"{word} [{key}]"), cell_len(f"▶ {word} ✔")) + 2
            self.query_one(f"#{decision.value}", Button).styles.width = width
        self._relabel()
        self._ticker = self.set_interval(1.0, self._tick, pause=True)

    def watch_state(self, old: DecisionState, new: DecisionState) -> None:
        self._relabel()
        # Focus a button when a choice becomes due, unless one already has it: every
        # move of the focus repaints the whole screen.
        if new.due and not old.due and not self.app.screen.is_modal:
            if not any(button.has_focus for button in self.query(Button)):
                self.query_one("#continue" if new.choice is not Decision.LEAVE else "#leave").focus()
        if new.due and new.deadline is not None:
            self._ticker.resume()
        else:
            self._ticker.pause()
        self._tick()

    def _relabel(self) -> None:
        t = self.app.t
        state = self.state
        for decision in Decision:
            button = self.query_one(f"#{decision.value}", Button)
            chosen = state.due and state.choice is decision
            key = "c" if decision is Decision.CONTINUE else "l"
            word = t(f"decision.{decision.value}")
            # The mark (not only the colour) shows the own choice. Plain content, not
            # markup: "[c]" would otherwise be read as a style tag and vanish.
            shown = state.due and not self.watching
            if not shown:
                label = ""
            elif chosen:
                label = f"▶ {word} ✔"
            else:
                label = f"{word} [{key}]"
            button.label = Content(label)
            button.set_class(chosen, "-chosen")
            # Blank when nothing is due, rather than hidden or disabled: either would
            # lay the screen out again or move the focus (a whole repaint) twice a turn.
            # A press then does nothing.
            button.set_class(not shown, "-idle")
        if self.watching:
            note = t("watching.note")
        elif not state.playing:
            note = ""
        elif state.due and state.choice is not None:
            note = t("decision.chosen", choice=t(f"decision.{state.choice.value}"))
        elif state.due:
            note = t("decision.prompt")
        elif not state.in_cave:
            note = t("decision.in_camp")
        else:
            note = t("decision.waiting")
        _set_text(self.query_one("#decision-note", Label), note)

    def _tick(self) -> None:
        label = self.query_one("#decision-timer", Label)
        deadline = self.state.deadline
        if not self.state.due or deadline is None:
            _set_text(label, "")
            return
        left = max(0, round(deadline - asyncio.get_running_loop().time()))
        _set_text(label, self.app.t("decision.timer", seconds=left))
        label.set_class(left <= 5, "-urgent")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.DecisionChosen(Decision(event.button.id)))

    def focus_choice(self, decision: Decision) -> None:
        """Move the keyboard focus to one of the two buttons (arrow keys)."""
        self.query_one(f"#{decision.value}", Button).focus()


def _set_text(label: Label, text: str) -> None:
    """Give ``label`` new words only when they differ: every update is a redraw."""
    if str(label.content) != text:
        # The labels have fixed sizes (DEFAULT_CSS above): no new layout needed.
        label.update(Content(text), layout=False)
