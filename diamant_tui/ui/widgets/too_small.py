"""An overlay asking to enlarge a terminal smaller than 80x24; the game goes on behind."""

from __future__ import annotations

from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmall(Static):
    """Shown (by the screen's CSS breakpoint classes) when the terminal is below 80x24."""

    def on_mount(self) -> None:
        self.update(self.app.t("too_small", width=MIN_WIDTH, height=MIN_HEIGHT))
