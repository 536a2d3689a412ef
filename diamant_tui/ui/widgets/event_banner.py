"""The status line: the latest events as they arrive; a disaster is unmistakable."""

from __future__ import annotations

from textual.widgets import Static

from ..literal import literal

SHOWN = 2
"""How many lines the banner holds; earlier lines of the round go to the EventFeed."""


class EventBanner(Static):
    """Shows the texts of the latest update; ``show(..., disaster=True)`` for a disaster."""

    _shown: tuple[str, ...] = ()

    def show(self, lines: list[str], disaster: bool = False) -> None:
        """Replace the text (at most the last two lines) and mark a disaster."""
        shown = tuple(lines[-SHOWN:])
        if shown != self._shown:
            self._shown = shown
            # Plain content: names typed by people must never be read as markup.
            # Its height is fixed (two lines): no new layout needed.
            self.update(literal("\n".join(shown)), layout=False)
        self.set_class(disaster, "-disaster")
