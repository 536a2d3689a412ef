"""The status line: the latest events as they arrive; a disaster is unmistakable."""

from __future__ import annotations

from textual.widgets import Static


class EventBanner(Static):
    """Shows the texts of the latest update; ``show(..., disaster=True)`` for a disaster."""

    def show(self, lines: list[str], disaster: bool = False) -> None:
        """Replace the text (at most the last two lines) and mark a disaster."""
        self.update("\n".join(lines[-2:]))
        self.set_class(disaster, "-disaster")
