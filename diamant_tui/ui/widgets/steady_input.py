"""A text box whose cursor does not blink."""

from __future__ import annotations

from textual.widgets import Input


class SteadyInput(Input):
    """An ``Input`` with a steady cursor.

    A blinking cursor is a frame twice a second for as long as the box has the focus:
    on a server, for every person with a chat box or a dialog open, and bytes on the wire
    for each. The cursor still shows where the next letter goes.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_reactive(Input.cursor_blink, False)
