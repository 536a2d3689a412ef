"""A text box whose cursor does not blink, and whose editing keys keep their place among
the letters typed with them."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.widgets import Input


_FOCUS_KEYS = {"tab": "focus_next", "shift+tab": "focus_previous"}
"""The keys that move the focus (Textual's app bindings), and the screen's method for each."""


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

    ``on_submit``, if given, is called with the text as the box handles its Enter, in
    place of posting ``Input.Submitted`` (which its owner handled only after the keys
    typed after the Enter had gone into the box). The keys that reach such a box once it
    has lost the focus (typed with that Enter, in one packet, the box closed by it) are
    handed back to the app, in order, to go where a key typed now goes: the table's chat
    box, where a ``t`` typed with the Enter opens it again for the next line. A form's
    box, which posts ``Input.Submitted``, drops them as before: keys typed ahead of the
    screen its Enter opens must not act on that screen.
    """

    def __init__(self, *args, on_submit: Callable[[str], None] | None = None,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_reactive(Input.cursor_blink, False)
        self._on_submit = on_submit

    @property
    def _moved_on(self) -> bool:
        """Whether the focus went to another widget of the screen this box is on, the
        one taking keys."""
        screen = self.screen
        return screen is self.app.screen and screen.focused not in (None, self)

    @property
    def _focused(self) -> bool:
        # Not ``has_focus``, which follows the focus only once its Blur is handled.
        return self.screen.focused is self

    async def _on_key(self, event: events.Key) -> None:
        if not self._focused and (self._on_submit is not None or self._moved_on):
            # Typed after the key that took the focus away, in the same packet: for
            # whatever has the focus now (see the class docstring).
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Key(event.key, event.character))
            return
        if event.key in _FOCUS_KEYS and self._focused:
            # Tab moves the focus as the box handles it, not once it has bubbled up to
            # the app: an Enter typed with it (one packet) went to this box, still
            # focused, and submitted a form instead of opening its next choice.
            event.stop()
            event.prevent_default()
            getattr(self.screen, _FOCUS_KEYS[event.key])()
            return
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                # Priority bindings ran before the key reached the box, as before.
                if not binding.priority and await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()
                    return
        await super()._on_key(event)

    def _on_paste(self, event: events.Paste) -> None:
        # Input's own handler runs after this one (Textual calls each class's), unless
        # the paste came after the Enter that closed the box: handed on as a key is.
        if self._on_submit is not None and not self._focused:
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Paste(event.text))

    async def action_submit(self) -> None:
        if self._on_submit is None:
            await super().action_submit()
            return
        self._on_submit(self.value)
