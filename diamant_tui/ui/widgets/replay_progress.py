"""Under the replay: playing or paused, the speed, and a bar of the whole game."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from .component_styles import KeptComponentStyles

MIN_BAR = 10
"""Cells the bar needs to mean anything; on less the line has the words only."""


@dataclass(frozen=True)
class ProgressState:
    """Where the replay is and how it moves."""

    step: int
    steps: int
    round_starts: tuple[int, ...]
    """The step at which each round begins, first round first."""
    playing: bool = False
    speed: str = "×1"
    finished: bool = True
    """Whether the game was played to its end (else the record stops on its last step)."""


def position(step: int, steps: int, width: int) -> int:
    """The cell of the bar (0 to ``width - 1``) that stands for ``step`` of ``steps``."""
    if steps <= 1 or width <= 1:
        return 0
    return round((step - 1) * (width - 1) / (steps - 1))


class ReplayProgress(KeptComponentStyles, Widget):
    """``▶ Playing ×2  1━━━━2━━◆──3───4──5``: each round's number where it begins."""

    DEFAULT_CSS = """
    ReplayProgress {
        height: 1;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    ReplayProgress > .replay-progress--state { text-style: bold; }
    ReplayProgress > .replay-progress--done { color: $accent; }
    ReplayProgress > .replay-progress--todo { color: $text-muted; }
    ReplayProgress > .replay-progress--round { text-style: bold; }
    """
    COMPONENT_CLASSES = {
        "replay-progress--state",
        "replay-progress--done",
        "replay-progress--todo",
        "replay-progress--round",
    }

    state: reactive[ProgressState | None] = reactive(None)

    def render(self) -> Text:
        state = self.state
        if state is None:
            return Text("")
        t = self.app.t
        if state.step >= state.steps:
            label = "■ " + t("replay.end" if state.finished else "replay.stops")
        elif state.playing:
            label = f"▶ {t('replay.playing')} {state.speed}"
        else:
            label = f"‖ {t('replay.paused')} {state.speed}"
        line = Text(label, style=self.component_style("replay-progress--state"))
        width = self.content_region.width or self.size.width
        room = width - line.cell_len - 2
        if room >= MIN_BAR:
            line.append("  ")
            line.append_text(self._bar(state, room))
        return line

    def _bar(self, state: ProgressState, width: int) -> Text:
        done = self.component_style("replay-progress--done")
        todo = self.component_style("replay-progress--todo")
        here = position(state.step, state.steps, width)
        cells = [("━", done) if x <= here else ("─", todo) for x in range(width)]
        bold = self.component_style("replay-progress--round")
        for number, start in enumerate(state.round_starts, 1):
            x = position(start, state.steps, width)
            cells[x] = (str(number), (done if x <= here else todo) + bold)
        cells[here] = ("◆", done + bold)
        bar = Text()
        for char, style in cells:
            bar.append(char, style=style)
        return bar
