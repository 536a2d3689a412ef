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


class KeptLog:
    """The lines of a game log, kept as text until the log is first shown.

    At 80 columns the log is hidden until ``g`` opens it, which most people never do: a
    widget made for it all the same (a scrolling RichLog, with its scroll bars and
    caches) was a tenth of what a seat's app holds. The screen writes here; the widget is
    made, with every line written so far, only when the screen asks for it (:meth:`make`).
    """

    def __init__(self) -> None:
        self._lines: list[str] = []
        self.widget: GameLog | None = None
        """The log's widget, once made."""

    def write(self, line: str) -> None:
        """Add a line at the end of the log."""
        if self.widget is None:
            self._lines.append(line)
        else:
            self.widget.write(line)

    def clear(self) -> None:
        """Empty the log (a new game begins)."""
        if self.widget is None:
            self._lines.clear()
        else:
            self.widget.clear()

    def make(self) -> GameLog:
        """The log's widget (made once), holding every line written so far; from then on
        the lines go to it alone."""
        if self.widget is None:
            # Written before it is laid out, as the screen always did: the RichLog keeps
            # them until it knows its width.
            self.widget = GameLog(id="log", wrap=True, markup=False, auto_scroll=True,
                                  min_width=20)
            for line in self._lines:
                self.widget.write(line)
            self._lines = []
        return self.widget
