"""The game log: every event and chat line of the game, opened and closed with ``g``."""

from __future__ import annotations

from collections.abc import Container

from textual import events
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

    def __init__(self, kept: KeptLog) -> None:
        super().__init__(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        self._kept = kept
        self._wrapped_at = 0
        """The width the lines shown were wrapped at (0: none shown yet)."""

    def on_mount(self) -> None:
        self.border_title = self.app.t("log.title")
        self.border_subtitle = self.app.t("log.close")

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if not event.size.width:
            return
        width = self.scrollable_content_region.width
        if self._wrapped_at and width != self._wrapped_at and self.lines:
            # A RichLog keeps its lines as wrapped when written: at another width they
            # would be cut at the edge (behind a scroll bar) or leave half the column
            # empty. Written again, at the new width.
            self._kept.refilter()
        else:
            self._kept.flush()  # shown (again): the lines written meanwhile, at its width
        self._wrapped_at = width


class KeptLog:
    """The lines of a game log, kept as text while the log is not on screen.

    At 80 columns the log is hidden until ``g`` opens it, which most people never do: a
    widget made for it all the same (a scrolling RichLog, with its scroll bars and
    caches) was a tenth of what a seat's app holds. The screen writes here; the widget is
    made only when the screen asks for it (:meth:`make`), and given the lines once it has
    a width. Lines written while it is hidden again wait here too, until it is shown: a
    hidden RichLog has no width, and wraps what it is given at its least (20 columns), so
    the log read in pieces once opened again. The game's lines are kept as text too (a
    few kilobytes), so that it can be written again without someone's chat lines.
    """

    def __init__(self, hidden: Container[str] = ()) -> None:
        self._lines: list[str] = []
        self.widget: GameLog | None = None
        """The log's widget, once made."""
        self._written: list[tuple[str | None, str]] = []
        """Every line of the game so far, with the author of a chat line: the lines of
        someone hidden (``/ignore``) are left out, those already shown taken out again
        and shown again with them (:meth:`refilter`)."""
        self.hidden = hidden
        """The authors whose chat lines this person has hidden."""

    def write(self, line: str, author: str | None = None) -> None:
        """Add a line (a chat line said by ``author``) at the end of the log."""
        self._written.append((author, line))
        if author is not None and author in self.hidden:
            return
        widget = self.widget
        if widget is None or self._lines or not widget.size.width:
            self._lines.append(line)
        else:
            widget.write(line)

    def flush(self) -> None:
        """Give the widget the lines it has not had yet, if it has a width to wrap them at
        (it is on screen)."""
        widget = self.widget
        if widget is not None and self._lines and widget.size.width:
            lines, self._lines = self._lines, []
            for line in lines:
                widget.write(line)

    def clear(self) -> None:
        """Empty the log (a new game begins)."""
        self._lines.clear()
        self._written.clear()
        if self.widget is not None:
            self.widget.clear()

    def refilter(self) -> None:
        """Write the log again without the chat lines of whoever is hidden now (someone
        was hidden, or shown again)."""
        hidden = self.hidden
        self._lines = [line for author, line in self._written
                       if author is None or author not in hidden]
        if self.widget is not None:
            self.widget.clear()
            self.flush()

    def waiting(self) -> list[str]:
        """The lines not given to the widget yet (all of them, before it is made)."""
        return list(self._lines)

    def make(self) -> GameLog:
        """The log's widget (made once); it takes the lines written so far, and those
        written from then on, whenever it is on screen (:meth:`flush`)."""
        if self.widget is None:
            self.widget = GameLog(self)
        return self.widget
