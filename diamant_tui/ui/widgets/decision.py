"""The decision: continue or leave, with keys, arrows, Enter and the mouse."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Input, Label

from ...engine.view import Decision
from .blank_containers import SharedBlank
from .focus_look import FocusDrawnByItself
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines


class ChoiceButton(SizedInOneLayout, SharedLines, FocusDrawnByItself, can_focus=True):
    """One of the two choices, drawn as a one-line button: blank while nothing is due,
    marked when chosen; Enter, Space or a click chooses it.

    Its three looks are drawn from its component styles rather than set by CSS classes:
    a class changed restyles the widget (the whole stylesheet matched against it again),
    and the buttons change at every turn of every seat at a table. Each look is drawn
    once for the process: every seat's buttons take the same looks at every turn.
    """

    COMPONENT_CLASSES = {"choice-button--face", "choice-button--focus",
                         "choice-button--chosen"}
    # The colours of Textual's compact Button (its default style), focus included.
    DEFAULT_CSS = """
    ChoiceButton {
        height: 1;
        background: transparent;
        & > .choice-button--face {
            text-style: bold;
            color: $button-foreground;
            background: $surface;
        }
        & > .choice-button--focus {
            text-style: $button-focus-text-style;
            color: $button-foreground;
            background: $surface;
        }
        & > .choice-button--chosen {
            text-style: bold reverse;
            color: $button-foreground;
            background: $surface;
        }
    }
    """
    BINDINGS = [Binding("enter,space", "press", show=False)]

    class Pressed(Message):
        """The button was chosen (a click, or Enter or Space while it has the focus)."""

        def __init__(self, button: "ChoiceButton") -> None:
            super().__init__()
            self.button = button

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.label = ""
        self.chosen = False

    def show(self, label: str, chosen: bool) -> None:
        """Show ``label`` (blank: no button at all), marked as the own choice or not."""
        if (label, chosen) != (self.label, self.chosen):
            self.label, self.chosen = label, chosen
            self.refresh()  # one line of a fixed size: nothing moves

    def shared_key(self):
        # The focus is part of every shared drawing's key already.
        return self.label, self.chosen

    def render(self) -> Text:
        if not self.label:
            return Text("")
        if self.chosen:
            style = self.get_component_rich_style("choice-button--chosen")
        elif self.has_focus:
            style = self.get_component_rich_style("choice-button--focus")
        else:
            style = self.get_component_rich_style("choice-button--face")
        return Text(self.label.center(max(self.size.width, cell_len(self.label) + 2)),
                    style=style, no_wrap=True, overflow="crop", end="")

    def action_press(self) -> None:
        if self.label:
            self.post_message(self.Pressed(self))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.action_press()


SAID_SHOWN = 4.0
"""Seconds a spectator's own chat line, or why a line was refused, stays on the note line."""


@dataclass(frozen=True)
class DecisionState:
    """What the panel shows: whether a choice is due, the own choice, the timer's deadline."""

    due: bool = False
    choice: Decision | None = None
    in_cave: bool = True
    playing: bool = True
    deadline: float | None = None


class NoteLabel(SizedInOneLayout, SharedLines, Label):
    """A label of plain words (the panel's note and timer), drawn once for the process
    for each text: every seat's panel says the same things at the same moments."""

    def shared_key(self):
        return (str(self.content),)


class DecisionPanel(SharedBlank, SizedInOneLayout, Horizontal):
    """Two buttons and a line saying what is expected; the own choice stays marked.

    The buttons show only while this seat has a choice to make; a spectator's panel
    says that they are watching and how to chat or go back. The panel's own (blank)
    lines are shared by every app (:class:`SharedBlank`).
    """

    DEFAULT_CSS = """
    DecisionPanel {
        /* Two lines always, so a longer note never moves the rest of the screen. */
        height: 2;
        margin: 0 0;
        & > ChoiceButton {
            margin: 0 1;
            min-width: 14;
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

    # The panel draws nothing of its own (its buttons and labels redraw themselves): a
    # new state repainting it would draw every part of it again.
    state: reactive[DecisionState] = reactive(DecisionState, init=False, repaint=False)
    watching: reactive[bool] = reactive(False, init=False, repaint=False)

    def watch_watching(self, watching: bool) -> None:
        # A spectator never has a choice: no room kept for the buttons at all.
        for button in self.query(ChoiceButton):
            button.display = not watching
        self._relabel()

    _said: tuple[str, float] | None = None
    """A line shown on the note line for a while (:meth:`said`), and until when."""
    _said_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield ChoiceButton(id="continue")
        yield ChoiceButton(id="leave")
        yield NoteLabel("", id="decision-note")
        yield NoteLabel("", id="decision-timer")

    def on_mount(self) -> None:
        if not self.query(ChoiceButton):
            return  # closed as it was being mounted (the session ended): nothing to set up
        # Each button as wide as its longest label in this language, once: a blank label
        # (nothing due) must not shrink it, or the next label would be cut.
        t = self.app.t
        for decision, key in ((Decision.CONTINUE, "c"), (Decision.LEAVE, "l")):
            word = t(f"decision.{decision.value}")
            width = max(cell_len(f"{word} [{key}]"), cell_len(f"▶ {word} ✔")) + 2
            self.query_one(f"#{decision.value}", ChoiceButton).styles.width = width
        self._relabel()
        self._ticker = self.set_interval(1.0, self._tick, pause=True)

    def watch_state(self, old: DecisionState, new: DecisionState) -> None:
        self._relabel()
        # Focus a button when a choice becomes due, unless one already has it: every
        # move of the focus restyles the buttons and builds the key bar anew.
        # Nor when a line of chat is being typed: its next letters would decide.
        if (new.due and not old.due and not self.app.screen.is_modal
                and not isinstance(self.screen.focused, Input)):
            if not any(button.has_focus for button in self.query(ChoiceButton)):
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
            button = self.query_one(f"#{decision.value}", ChoiceButton)
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
            # Blank when nothing is due, rather than hidden or disabled: either would
            # lay the screen out again or move the focus (a whole repaint) twice a turn.
            # A press then does nothing.
            button.show(label, chosen)
        if self._said is not None and time.monotonic() < self._said[1]:
            note = self._said[0]  # said lately: it stays its time, whatever the table does
        elif self.watching:
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

    def said(self, text: str, seconds: float = SAID_SHOWN) -> None:
        """Show ``text`` (a spectator's own line of chat, or why a line was refused) on
        the note line for ``seconds``, however often the table changes meanwhile."""
        self._said = (text, time.monotonic() + seconds)
        _set_text(self.query_one("#decision-note", Label), text)
        if self._said_timer is not None:
            self._said_timer.stop()
        self._said_timer = self.set_timer(seconds, self._relabel)

    def _tick(self) -> None:
        label = self.query_one("#decision-timer", Label)
        deadline = self.state.deadline
        if not self.state.due or deadline is None:
            _set_text(label, "")
            return
        left = max(0, round(deadline - asyncio.get_running_loop().time()))
        _set_text(label, self.app.t("decision.timer", seconds=left))
        label.set_class(left <= 5, "-urgent")

    def on_choice_button_pressed(self, event: ChoiceButton.Pressed) -> None:
        event.stop()
        self.post_message(self.DecisionChosen(Decision(event.button.id)))

    def focus_choice(self, decision: Decision) -> None:
        """Move the keyboard focus to one of the two buttons (arrow keys)."""
        self.query_one(f"#{decision.value}", ChoiceButton).focus()


def _set_text(label: Label, text: str) -> None:
    """Give ``label`` new words only when they differ: every update is a redraw."""
    if str(label.content) != text:
        # The labels have fixed sizes (DEFAULT_CSS above): no new layout needed.
        label.update(Content(text), layout=False)
