"""Widgets whose focus no stylesheet rule looks at.

When a widget gains or loses the keyboard focus, Textual applies the whole stylesheet
again to it and to everything inside it (its ``:focus`` pseudo-class may have changed
what matches), and makes its component styles anew. For a widget that draws its focus
itself, or shows none, no rule changes: that work was most of what a move of the focus
cost, and the focus moves at every join (to the cave's path) and when a game starts (to
the buttons), for every seat.
"""

from __future__ import annotations

from textual.widget import Widget


class FocusDrawnByItself(Widget):
    """A widget that is redrawn, not restyled, when its focus changes.

    Only for widgets that no CSS rule selects with ``:focus``: such a rule would no longer
    be applied when the focus moves.
    """

    def watch_has_focus(self, _has_focus: bool) -> None:
        self.refresh()


__all__ = ["FocusDrawnByItself"]
