"""The key hints at the bottom, redrawn only when the keys they show change."""

from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # private: Textual's minor version is pinned

Shown = tuple[tuple[str, str, bool, str], ...]


def shown_keys(screen: Screen) -> Shown:
    """What a footer on ``screen`` would show: each key, its words and whether it is enabled."""
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class QuietFooter(Footer):
    """A Footer that rebuilds itself only when the keys it shows change.

    Textual asks every footer to rebuild whenever the focus moves or a screen refreshes
    its bindings; a rebuild is a new layout, i.e. the whole screen sent again to every
    session. Here an unchanged set of keys costs nothing, and a key merely becoming
    enabled or dimmed is repainted in place (one line).
    """

    _shown: Shown | None = None

    def on_mount(self, event: events.Mount) -> None:
        # Footer asks to be told of binding changes "next" (a callback queued after the
        # current message): keys it dims or enables were then drawn a frame after the
        # change that caused them. Told at once, they go into the same frame.
        event.prevent_default()  # Footer.on_mount would subscribe the deferred way too
        Widget._on_mount(self, event)
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed, immediate=True)

    def bindings_changed(self, screen: Screen) -> None:
        if screen is not self.screen or not self.is_attached:
            return
        if not screen.app.app_focus:
            # Footer draws nothing new then; remember nothing, so focus coming back redraws.
            self._shown = None
            self.call_next(self._rebuild, screen)
            return
        shown = shown_keys(screen)
        before, self._shown = self._shown, shown
        if self._bindings_ready and before is not None:
            if shown == before:
                return
            if _without_state(shown) == _without_state(before) and self._set_enabled(shown):
                return
        self.call_next(self._rebuild, screen)

    def _rebuild(self, screen: Screen) -> None:
        """Let Footer rebuild its keys, from its own message queue (as it expects)."""
        super().bindings_changed(screen)

    def _set_enabled(self, shown: Shown) -> bool:
        """Dim or enable the drawn keys in place; False if a key is not drawn yet."""
        enabled = {key: on for key, _, on, _ in shown}
        keys = list(self.query(FooterKey))
        if not keys or any(k.key not in enabled for k in keys):
            return False
        for footer_key in keys:
            on = enabled[footer_key.key]
            footer_key._disabled = not on  # what a click checks
            footer_key.set_class(not on, "-disabled")
        return True


def _without_state(shown: Shown) -> tuple[tuple[str, str, str], ...]:
    return tuple((key, words, tooltip) for key, words, _, tooltip in shown)
