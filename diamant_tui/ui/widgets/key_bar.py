"""The key hints at the bottom of a screen: one widget drawing one line.

Textual's ``Footer`` is a container with a widget for every key: a key dimmed or
enabled restyles that widget (the whole stylesheet matched against it again), and a key
coming or going rebuilds the footer (a new widget for every key, each one styled and
laid out, then the whole screen laid out and sent again). On a server every seat's app
pays this for every change at its table, several times per card. Here the keys are the
words of one line, drawn again (that line alone) only when what they show changes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import groupby
from typing import Iterator
from weakref import WeakKeyDictionary

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget

from ..literal import printable
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines


@dataclass(frozen=True)
class KeyHint:
    """One key as the bar shows it."""

    key: str
    """The key Textual names (pressed when the hint is clicked)."""
    display: str
    """How the key is written (``c``, ``f1``, ``esc``)."""
    words: str
    """What it does, in the person's language."""
    enabled: bool
    """False when the key does nothing for now (drawn dimmed)."""


@dataclass(frozen=True)
class KeyGroup:
    """Keys shown together before the words they share (``←→ Step``), as Footer does."""

    keys: tuple[KeyHint, ...]
    words: str
    compact: bool


WIDGET_WORDS = {"Dismiss menu": "key.close_list"}
"""The words of the keys Textual's own widgets show (an open drop-down's Escape), by the
catalogue key that says them in the person's language: a screen's keys are translated
with the screen (``translate_bindings``), a widget of Textual's keeps its English."""


def _words(app, description: str) -> str:
    """``description`` as the key bar says it: a widget of Textual's words translated."""
    key = WIDGET_WORDS.get(description)
    return app.t(key) if key is not None else description


def shown_keys(screen: Screen) -> tuple[KeyHint | KeyGroup, ...]:
    """The keys a key bar on ``screen`` shows, in the order the screen's bindings give:
    one per action (``+`` and ``=`` both faster: the first), and the keys of a group
    (``Binding.Group``) of more than one action together."""
    app = screen.app
    first: dict[str, tuple[Binding, bool]] = {}
    for _, binding, enabled, _ in screen.active_bindings.values():
        if binding.show and binding.action not in first:
            first[binding.action] = (binding, enabled)
    shown: list[KeyHint | KeyGroup] = []
    for group, members in groupby(first.values(), lambda item: item[0].group):
        members = list(members)
        hints = tuple(KeyHint(binding.key, app.get_key_display(binding),
                              printable(_words(app, binding.description)), enabled)
                      for binding, enabled in members)
        if group is not None and len(members) > 1:
            shown.append(KeyGroup(tuple(replace(h, words="") for h in hints),
                                  printable(group.description), group.compact))
        else:
            shown.extend(hints)
    return tuple(shown)


DIM = Style(dim=True)
NOT_DIM = Style()


def _restyled(before: tuple[KeyHint | KeyGroup, ...],
              after: tuple[KeyHint | KeyGroup, ...]) -> set[str] | None:
    """The keys that were only dimmed or offered between ``before`` and ``after``; None
    when anything else changed (a key came, went or has other words)."""

    def plain(item: KeyHint | KeyGroup) -> KeyHint | KeyGroup:
        if isinstance(item, KeyHint):
            return replace(item, enabled=True)
        return replace(item, keys=tuple(replace(k, enabled=True) for k in item.keys))

    def hints(items) -> list[KeyHint]:
        return [h for item in items for h in ((item,) if isinstance(item, KeyHint) else item.keys)]

    if [plain(i) for i in before] != [plain(i) for i in after]:
        return None
    return {b.key for b, a in zip(hints(before), hints(after)) if b.enabled != a.enabled}


Piece = tuple[str, str | None, KeyHint | None]
"""Some text of the bar's line, its look (``"key"``, ``"words"``, None) and its key."""


def _pieces(keys: tuple[KeyHint | KeyGroup, ...]) -> Iterator[Piece]:
    """The bar's line as it is drawn: (text, ``"key"``, ``"words"`` or None for neither
    look, the key it belongs to). A key's pieces are dimmed with it and make its span."""
    for item in keys:
        if isinstance(item, KeyHint):
            yield f" {item.display} ", "key", item
            yield f"{item.words} ", "words", item
        else:
            yield " ", None, None
            for n, hint in enumerate(item.keys):
                yield hint.display if item.compact or n == 0 else f" {hint.display}", "key", hint
            yield f" {item.words} ", "words", None


def key_spans(keys: tuple[KeyHint | KeyGroup, ...]) -> list[tuple[int, int, KeyHint]]:
    """Where each key lies on the bar's line (first column, column after): its words too,
    for they are dimmed with it."""
    spans: list[tuple[int, int, KeyHint]] = []
    column = 0
    for text, _, hint in _pieces(keys):
        end = column + cell_len(text)
        if hint is not None:
            if spans and spans[-1][2] is hint:
                spans[-1] = (spans[-1][0], end, hint)
            else:
                spans.append((column, end, hint))
        column = end
    return spans


_last_clicks: WeakKeyDictionary = WeakKeyDictionary()
"""Each app's last click on a key bar: the bar, the cell and when (one per app, for a
double click's second click may fall on another screen's bar)."""


class KeyBar(SizedInOneLayout, SharedLines, Widget):
    """The screen's shown bindings, each drawn as `` key `` then ``words ``; a key that
    does nothing for now is dimmed, and a click on a key presses it.

    Its line is drawn once for the process for each set of keys: the seats at a table
    are offered and refused the same keys at the same moments."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description"}
    # The look of Textual's Footer, whose theme variables it uses.
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 100%;
        color: $footer-foreground;
        background: $footer-background;
        & > .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys: tuple[KeyHint | KeyGroup, ...] = ()
        """The keys drawn now."""
        self._spans: list[tuple[int, int, KeyHint]] = []
        """Where each key lies on the line, words included (first column, column after)."""

    def on_mount(self) -> None:
        # Told at once, not "next" as Footer is: a key dimmed or enabled by an update is
        # drawn in the same frame as the update itself.
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed,
                                                      immediate=True)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is not self.screen or not self.is_attached:
            return
        keys = shown_keys(screen)
        if keys == self.keys:
            return
        before, self.keys = self.keys, keys
        spans_before, self._spans = self._spans, key_spans(keys)
        # One line, whose size never changes. When only some keys were dimmed or offered,
        # only their cells are drawn again: fewer bytes for every seat at every turn.
        changed = _restyled(before, keys)
        if changed is None or not spans_before:
            self.refresh()
        else:
            self.refresh(*(Region(start, 0, end - start, 1)
                           for start, end, hint in self._spans if hint.key in changed))

    def shared_key(self):
        return (self.keys,)

    def render(self) -> Text:
        looks = {"key": self.get_component_rich_style("key-bar--key"),
                 "words": self.get_component_rich_style("key-bar--description")}
        line = Text(no_wrap=True, overflow="crop", end="")
        for text, look, hint in _pieces(self.keys):
            if look is None:
                line.append(text)
            else:
                line.append(text, looks[look] + (DIM if hint and not hint.enabled else NOT_DIM))
        return line

    def on_mouse_down(self, event: events.MouseDown) -> None:
        for start, end, hint in self._spans:
            if start <= event.x < end:
                if not hint.enabled:
                    self.app.bell()
                elif not self._second_of_double_click(hint.key, event):
                    self.app.simulate_key(hint.key)
                return

    def _second_of_double_click(self, key: str, event: events.MouseDown) -> bool:
        """Whether a click pressing ``key`` is the second of a double click (the same
        cell, in a double click's time) that must press nothing: the first one's key
        changed the screen (the lobby's Watch, then the table's Chat where it stood), or
        the key is one the screen takes once per double click (``PRESSED_ONCE``: Continue
        and Exit, whose first click may end the turn and bring out the next card at once,
        which the second would decide unseen). Other keys take every click (steps, speed)."""
        last = _last_clicks.get(self.app)
        _last_clicks[self.app] = (self, event.screen_offset, event.time)
        if (last is None or last[1] != event.screen_offset
                or event.time - last[2] > self.app.CLICK_CHAIN_TIME_THRESHOLD):
            return False
        return last[0] is not self or key in getattr(self.screen, "PRESSED_ONCE", ())
