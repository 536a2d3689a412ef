"""A second line of key hints, for keys the key bar has no room for at 80 columns.

The lobby's key bar is full in French at 80 columns; the keys that open the leaderboard
and "my games" are shown on a line of their own just above it, drawn as the key bar
draws its keys. The keys are the screen's own bindings (declared with ``show=False``, so
the key bar leaves them out), with the words they have in the person's language.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget

from diamant_tui.ui.literal import printable


class KeyLine(Widget):
    """The screen's bindings for ``actions``, in that order, drawn like the key bar; a
    click on a key (or its words) presses it, as on the key bar."""

    COMPONENT_CLASSES = {"key-line--key", "key-line--description"}
    DEFAULT_CSS = """
    KeyLine { height: 1; background: $footer-background; color: $footer-foreground; }
    KeyLine > .key-line--key { color: $footer-key-foreground;
        background: $footer-key-background; text-style: bold; }
    KeyLine > .key-line--description { color: $footer-description-foreground;
        background: $footer-description-background; }
    """

    def __init__(self, *actions: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.actions = actions
        self._spans: list[tuple[int, int, str]] = []
        """Each key drawn: its first and last cells (the last not included) and its key."""

    def on_mount(self) -> None:
        # The screen translates its bindings once it is mounted, and again when the
        # language changes: redraw then.
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen:
            self.refresh()

    def render(self) -> Text:
        if self.screen is not self.app.screen:
            # A dialog over the screen takes every key: its own key bar says which, and
            # this line, above it, would offer keys that do nothing.
            self._spans = []
            return Text()
        key_style = self.get_component_rich_style("key-line--key")
        words_style = self.get_component_rich_style("key-line--description")
        found = {binding.action: binding for _, binding, _, _ in
                 self.screen.active_bindings.values()}
        line = Text(no_wrap=True, overflow="ellipsis")
        spans = []
        for action in self.actions:
            binding = found.get(action)
            if binding is None:
                continue
            start = line.cell_len
            line.append(f" {self.app.get_key_display(binding)} ", key_style)
            line.append(printable(binding.description) + " ", words_style)
            spans.append((start, line.cell_len, binding.key.split(",")[0]))
        self._spans = spans
        return line

    def on_mouse_down(self, event: events.MouseDown) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
