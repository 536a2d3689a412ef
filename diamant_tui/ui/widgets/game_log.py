"""The game log: every event and chat line of the game, opened and closed with ``g``."""

from __future__ import annotations

from textual.widgets import RichLog


class GameLog(RichLog):
    """A RichLog that says what it is and, where it covers the table, how to close it.

    The title and the hint sit in its frame (``diamant.tcss`` draws a frame only where the
    log is shown over the table), so they take no line of the log itself.
    """

    DEFAULT_CSS = """
    GameLog {
        padding: 0 1;
    }
    """

    def on_mount(self) -> None:
        self.border_title = self.app.t("log.title")
        self.border_subtitle = self.app.t("log.close")
