"""The decision: continue or leave, with keys, arrows, Enter and the mouse."""

from __future__ import annotations

import asyncio
import functools
import time
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style as RichStyle
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual
from textual.widgets import Input

from ...engine.view import Decision
from ...table import clock as turn_clock
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

        def __init__(self, button: "ChoiceButton", clicked_at: float | None = None) -> None:
            super().__init__()
            self.button = button
            self.clicked_at = clicked_at
            """When the click that chose it came (None: a key, which the screen checks)."""

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
        # A double click's second click: the first chose already, and may have ended the
        # turn, the next card out at once; the second would choose that card unseen.
        if self.label and event.chain == 1:
            self.post_message(self.Pressed(self, clicked_at=event.time))


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
    by_computer: bool = False
    """The own choice was made by a computer while the person was away."""
    hurry: tuple[str, ...] = ()
    """The people the turn waits on, whom this person may hurry now (h); none else."""


BUTTON_WIDTH = 14
"""Cells a button takes at least; more where its words need them."""
NOTE_PADDING = 1
"""Blank cells on either side of the note and of the timer."""
TIMER_WIDTH = 9
"""Cells of the timer at the panel's right end, its padding included."""
LINES = 2
"""The panel's lines: the note takes both if it needs them."""


@functools.lru_cache(maxsize=64)
def cut_to_lines(text: str, width: int, lines: int = LINES) -> str:
    """``text`` as it fits in ``lines`` lines of ``width`` cells, wrapped at its words: whole,
    or cut with an ellipsis (a spectator's own long line of chat on the note line), so
    that it reads as going on rather than ending mid-sentence. Cached: every spectator
    at a table is told the same refusal."""
    if len(Content(text).wrap(width)) <= lines:
        return text
    kept, over = 0, len(text)  # the longest beginning that fits with its ellipsis
    while over - kept > 1:
        middle = (kept + over) // 2
        if len(Content(text[:middle].rstrip() + "…").wrap(width)) <= lines:
            kept = middle
        else:
            over = middle
    return text[:kept].rstrip() + "…"


class DecisionPanel(SharedLines, SizedInOneLayout, Horizontal):
    """Two buttons and a note saying what is expected, the decision timer at its right
    end; the own choice stays marked.

    The buttons show only while this seat has a choice to make; a spectator's panel
    says that they are watching and how to chat or go back.

    The note and the timer are drawn by the panel itself, in its own lines beside the
    buttons, as two labels there would draw them (the tests compare them): two widgets
    fewer for every seat, which were about a tenth of what a game's beginning cost a
    seat (each widget is mounted, styled and laid out: ``benchmarks/join_costs.py``).
    The panel's lines are shared by every app that shows the same note and timer
    (:class:`SharedLines`).
    """

    COMPONENT_CLASSES = {"decision--note", "decision--urgent"}
    DEFAULT_CSS = """
    DecisionPanel {
        /* Two lines always, so a longer note never moves the rest of the screen. */
        height: 2;
        margin: 0 0;
        & > ChoiceButton {
            margin: 0 1;  /* (their widths are set in Python: see BUTTON_WIDTH) */
        }
        & > .decision--note {
            color: $text-muted;
        }
        & > .decision--urgent {
            text-style: bold reverse;
            color: $warning;
        }
    }
    """

    class DecisionChosen(Message):
        """The person chose to continue or to leave."""

        def __init__(self, decision: Decision, clicked_at: float | None = None) -> None:
            super().__init__()
            self.decision = decision
            self.clicked_at = clicked_at
            """When the click that chose it came (None: a key)."""

    # A new state draws what it changes (the buttons redraw themselves, the note and
    # the timer are redrawn when their words change): repainting the panel for it
    # would draw every part of it again.
    state: reactive[DecisionState] = reactive(DecisionState, init=False, repaint=False)
    watching: reactive[bool] = reactive(False, init=False, repaint=False)

    _note = ""
    _timer = ""
    _urgent = False
    _note_x = 0
    """Where the note's cells begin: after the buttons (none for a spectator)."""

    @property
    def note(self) -> str:
        """The words of the note line."""
        return self._note

    @property
    def timer(self) -> str:
        """The timer's words (empty: no timer running)."""
        return self._timer

    @property
    def urgent(self) -> bool:
        """Whether the timer is drawn as urgent (five seconds or fewer left)."""
        return self._urgent

    def watch_watching(self, watching: bool) -> None:
        # A spectator never has a choice: no room kept for the buttons at all.
        for button in self.query(ChoiceButton):
            button.display = not watching
        self._place_note()
        self._relabel()

    _said: tuple[str, float] | None = None
    """A line shown on the note line for a while (:meth:`said`), and until when."""
    _said_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield ChoiceButton(id="continue")
        yield ChoiceButton(id="leave")

    def on_mount(self) -> None:
        if not self.query(ChoiceButton):
            return  # closed as it was being mounted (the session ended): nothing to set up
        # Each button as wide as its longest label in this language, once: a blank label
        # (nothing due) must not shrink it, or the next label would be cut.
        t = self.app.t
        for decision, key in ((Decision.CONTINUE, "c"), (Decision.LEAVE, "l")):
            word = t(f"decision.{decision.value}")
            width = max(cell_len(f"{word} [{key}]"), cell_len(f"▶ {word} ✔")) + 2
            width = max(width, BUTTON_WIDTH)
            self.query_one(f"#{decision.value}", ChoiceButton).styles.width = width
        self._place_note()
        self._relabel()
        self._ticker = self.set_interval(1.0, self._tick, pause=True)

    def watch_state(self, old: DecisionState, new: DecisionState) -> None:
        self._relabel()
        # Focus a button when a choice becomes due, unless one already has it: every
        # move of the focus restyles the buttons and builds the key bar anew. But not
        # Exit with nothing chosen yet: it was the last choice of someone in camp since
        # (an Enter at the next round's first card left the cave at once), never of
        # someone still in it (:meth:`follow_choice`).
        # Nor when a line of chat is being typed: its next letters would decide.
        if (new.due and not old.due and not self.app.screen.is_modal
                and not isinstance(self.screen.focused, Input)):
            focused = self.screen.focused
            if not (isinstance(focused, ChoiceButton) and focused in self.children
                    and (focused.id != Decision.LEAVE.value or new.choice is not None)):
                # At once, not as Textual's focus() does, once the app's pending messages
                # are handled: the focused look then came a frame after the state that
                # asked for it (at every game's start, for every seat).
                button = self.query_one("#continue" if new.choice is not Decision.LEAVE
                                        else "#leave", ChoiceButton)
                self.screen.set_focus(button)
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
        elif state.due and state.choice is not None and state.by_computer:
            # Before the offer to hurry: back at the seat, the person must read that the
            # choice marked ✔ is the computer's, not theirs (theirs, the offer comes).
            note = t("decision.chosen_for_you", choice=t(f"decision.{state.choice.value}"))
        elif state.hurry:
            # Rather than the choice made (its button shows it) or camp: the turn waits.
            seconds = f"{turn_clock.HURRY_TIME:g}"
            note = (t("decision.hurry_one", name=state.hurry[0], seconds=seconds)
                    if len(state.hurry) == 1 else
                    t("decision.hurry_many", count=len(state.hurry), seconds=seconds))
        elif state.due and state.choice is not None:
            note = t("decision.chosen", choice=t(f"decision.{state.choice.value}"))
        elif state.due:
            note = t("decision.prompt")
        elif not state.in_cave:
            note = t("decision.in_camp")
        else:
            note = t("decision.waiting")
        self._show_note(note)

    def said(self, text: str, seconds: float = SAID_SHOWN) -> None:
        """Show ``text`` (a spectator's own line of chat, or why a line was refused) on
        the note line for ``seconds``, however often the table changes meanwhile."""
        room = self._note_room()
        if room > 0:  # cut with an ellipsis, not silently after the note's two lines
            text = cut_to_lines(text, room)
        self._said = (text, time.monotonic() + seconds)
        self._show_note(text)
        if self._said_timer is not None:
            self._said_timer.stop()
        self._said_timer = self.set_timer(seconds, self._relabel)

    def fits_first_line(self, text: str) -> bool:
        """Whether ``text`` fits whole in the note's first line: the only one in sight
        while the chat box, open under the panel, covers the second."""
        return cell_len(text) <= self._note_room()

    def _note_room(self) -> int:
        """The cells of each of the note's lines, between the buttons and the timer."""
        timer_x = max(0, self.size.width - TIMER_WIDTH)
        return timer_x - min(self._note_x, timer_x) - 2 * NOTE_PADDING

    def _tick(self) -> None:
        deadline = self.state.deadline
        if not self.state.due or deadline is None:
            self._show_timer("", urgent=False)
            return
        left = max(0, round(deadline - asyncio.get_running_loop().time()))
        self._show_timer(self.app.t("decision.timer", seconds=left), urgent=left <= 5)

    # -- the note and the timer ----------------------------------------------------

    def _show_note(self, text: str) -> None:
        if text != self._note:
            self._note = text
            self.refresh()  # its own two lines, of a fixed size: nothing moves

    def _show_timer(self, text: str, *, urgent: bool) -> None:
        urgent = urgent and bool(text)
        if (text, urgent) != (self._timer, self._urgent):
            self._timer, self._urgent = text, urgent
            self.refresh()

    def _place_note(self) -> None:
        """Where the note begins: after each button shown, with a cell on either side of
        it (their margins, the one between them counted once, as Textual lays them out)."""
        x = 0
        if not self.watching:
            for button in self.query(ChoiceButton):
                width = button.styles.width
                if width is None:
                    return  # not mounted yet: placed once the buttons have their widths
                x += int(width.value) + 1
            x += 1 if x else 0
        if x != self._note_x:
            self._note_x = x
            self.refresh()

    def shared_key(self):
        return self._note, self._timer, self._urgent, self._note_x

    def render_lines(self, crop: Region) -> list[Strip]:
        self._drawn = None  # worked out again for this drawing
        try:
            return super().render_lines(crop)
        finally:
            self._drawn = None

    _drawn: list[Strip] | None = None

    def render_line(self, y: int) -> Strip:
        drawn = self._drawn
        if drawn is None:
            drawn = self._drawn = self._draw()
        return drawn[y] if 0 <= y < len(drawn) else drawn[-1]

    def _draw(self) -> list[Strip]:
        """The panel's lines: blank under the buttons, then the note and the timer, each
        drawn as a label of that place and size draws its words (the note wrapped over
        both lines, and cut after them)."""
        width = self.size.width
        blank_style = self._styles_cache.get_inner_outer(*self.background_colors)[0].rich_style
        timer_x = max(0, width - TIMER_WIDTH)
        note_x = min(self._note_x, timer_x)
        note_style = self.get_visual_style("decision--note")
        # The note's label was two lines high whatever its words (their lines' style
        # fills it), the timer's as high as its words (the panel's background below).
        note = self._words(self._note, timer_x - note_x, note_style, blank_style,
                           note_style.rich_style)
        timer_style = self._urgent_style() if self._urgent else self.visual_style
        timer = self._words(self._timer, width - timer_x, timer_style, blank_style,
                            blank_style)
        return [Strip.join([Strip.blank(note_x, blank_style), note[y], timer[y]])
                .adjust_cell_length(width, blank_style) for y in range(LINES)]

    def _urgent_style(self) -> VisualStyle:
        # Reverse too: Textual's component style leaves it out (a widget's own keeps it).
        style = self.get_visual_style("decision--urgent")
        if self.get_component_styles("decision--urgent").text_style.reverse:
            style += VisualStyle(reverse=True)
        return style

    def _words(self, text: str, width: int, style: VisualStyle, blank_style: RichStyle,
               fill_style: RichStyle) -> list[Strip]:
        """``text`` in ``width`` cells (padding included), line by line, as a label
        draws it: its lines in ``style``, their ends and the padding in the background's
        ``blank_style``, the lines below its words in ``fill_style``."""
        room = width - 2 * NOTE_PADDING
        if room <= 0:
            return [Strip.blank(max(0, width), blank_style)] * LINES
        lines = Visual.to_strips(self, Content(text), room, LINES, style)[:LINES]
        lines += [Strip.blank(room, fill_style)] * (LINES - len(lines))
        pad = Strip.blank(NOTE_PADDING, blank_style)
        return [Strip.join([pad, line.adjust_cell_length(room, blank_style), pad])
                for line in lines]

    def on_choice_button_pressed(self, event: ChoiceButton.Pressed) -> None:
        event.stop()
        self.post_message(self.DecisionChosen(Decision(event.button.id), event.clicked_at))

    def follow_choice(self, decision: Decision) -> None:
        """The focus back to Continue from Exit when ``decision``, just made, is to
        continue: Enter at the next card then continues, as the ✔ said (a click on Exit,
        then c, left the focus on Exit, and that Enter left the cave). Nothing moves
        otherwise, nor for a choice to leave, after which no choice is due before the
        next round, whose first one comes with the focus on Continue (:meth:`watch_state`):
        every move of the focus restyles the buttons and builds the key bar anew, and
        moving it to Exit and back cost every seat that left by its key two of those a
        round."""
        focused = self.screen.focused
        if (decision is Decision.CONTINUE and isinstance(focused, ChoiceButton)
                and focused.id == Decision.LEAVE.value):
            self.screen.set_focus(self.choice_button(decision))

    def choice_button(self, decision: Decision) -> ChoiceButton:
        """The button that makes ``decision``."""
        return self.query_one(f"#{decision.value}", ChoiceButton)

    def focus_choice(self, decision: Decision) -> None:
        """Move the keyboard focus to one of the two buttons (arrow keys)."""
        self.choice_button(decision).focus()
