"""A text box whose cursor does not blink, and whose editing keys keep their place among
the letters typed with them."""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class SteadyInput(Input):
    """An ``Input`` with a steady cursor, which runs its own key bindings in order.

    A blinking cursor is a frame twice a second for as long as the box has the focus:
    on a server, for every person with a chat box or a dialog open, and bytes on the wire
    for each. The cursor still shows where the next letter goes.

    Textual inserts a letter as the box handles its key, but a key bound to an editing
    action (Backspace, the arrows, Delete, Home, End...) first bubbles up to the app,
    which then runs the box's action: a letter typed just after it is inserted ahead of
    it (Textual's issue 6605). Over SSH the keys of quick typing come together, in one
    packet: Backspace then ``x`` left the text as it was, the ``x`` inserted and then
    deleted. The box runs its own bindings as it handles the key instead, in the order
    the keys came.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_reactive(Input.cursor_blink, False)

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                # Priority bindings ran before the key reached the box, as before.
                if not binding.priority and await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()
                    return
        await super()._on_key(event)
