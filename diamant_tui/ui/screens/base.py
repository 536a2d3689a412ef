"""What every screen of the interface shares: translated key hints and the size guard."""

from __future__ import annotations

from textual import events
from textual._context import NoActiveAppError  # private: Textual's minor version is pinned
from textual.reactive import Reactive
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Select

from ..bindings import translate_bindings
from ..widgets.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmall, below_minimum

# The breakpoint classes let the stylesheet show the "enlarge" overlay below 80x24
# and give the log its own column on wide terminals, without any code on resize.
HORIZONTAL = [(0, "-too-narrow"), (MIN_WIDTH, "-normal-width"), (118, "-wide")]
VERTICAL = [(0, "-too-short"), (MIN_HEIGHT, "-normal-height")]


class _Guarded:
    """Mixin: mount the size overlay and translate the screen's key hints."""

    HORIZONTAL_BREAKPOINTS = HORIZONTAL
    VERTICAL_BREAKPOINTS = VERTICAL

    # Textual's Screen repaints itself, its whole area, when the focus moves: a frame of
    # every line of the terminal for each t (chat box) and Enter. The widgets that gain
    # and lose the focus redraw their own looks; nothing else shows where the focus is.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The breakpoint classes for the terminal's size now, before the screen is styled:
        # added at its first resize instead, they styled every widget on it a second time
        # (a fifth of what a screen costs to open).
        try:
            width, height = self.app.size
        except NoActiveAppError:
            return
        for size, breakpoints in ((width, HORIZONTAL), (height, VERTICAL)):
            classes = self._get_breakpoint_classes(size, breakpoints)
            if classes:
                self.add_class(*classes, update=False)

    def binding_text(self, key: str) -> str:
        """The words of a key hint the screen declares as ``key`` (a catalogue key), in
        the app's language."""
        return self.app.t(key)

    _resumed = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Shown for the first time, the screen's widgets were styled as they mounted, a
        # moment ago: Textual would style every one of them again. (Textual calls
        # Screen's own handler after this one, with the event as left here.)
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    @property
    def game_goes_on(self) -> bool:
        """Whether a game goes on under this screen: a dialog shown over a table's screen
        asks the screen below (the table's screen answers for itself)."""
        stack = self.app.screen_stack
        if not self.is_modal or self not in stack or stack.index(self) == 0:
            return False
        below = stack[stack.index(self) - 1]
        return isinstance(below, _Guarded) and below.game_goes_on

    KEYS_BEHIND_OVERLAY: frozenset[str] = frozenset()
    """Keys this screen takes behind the "enlarge your terminal" overlay, besides the
    app's quit keys: those its :meth:`overlay_text` names, if any."""

    def overlay_text(self) -> str | None:
        """What the "enlarge your terminal" overlay says over this screen instead of
        asking to enlarge it: words short enough to be read at any size, with the keys
        that answer them (:attr:`KEYS_BEHIND_OVERLAY`); None for the usual notice."""
        return None

    @property
    def too_small(self) -> bool:
        """Whether the terminal is below 80x24, so that the overlay covers this screen."""
        return self.has_class("-too-narrow") or self.has_class("-too-short")

    _size_guard: TooSmall | None = None
    """The "enlarge" overlay, made the first time the terminal is too small for the
    screen: a widget is a message pump, with its styles and caches, and most terminals
    are never that small."""

    def on_mount(self) -> None:
        translate_bindings(self, self.binding_text)
        if self.too_small:
            self._guard_size()

    def on_resize(self, event: events.Resize) -> None:
        # Before Textual sets the screen's size classes (its own handler comes after):
        # the overlay must be there when they show it.
        if below_minimum(event.size):
            self._guard_size()
            self._close_open_list()

    def _close_open_list(self) -> None:
        """Close the list of choices open, if any (a Select of the setup screen or the
        new table form), its choice as it was and the focus back on it: the list stands
        in the overlay's layer too, and was drawn over the words asking to enlarge."""
        select = self.focused.parent if self.focused is not None else None
        if isinstance(select, Select) and select.expanded:
            select.expanded = False
            select.focus()

    def _guard_size(self) -> TooSmall | None:
        """Mount the overlay (once); the size classes show and hide it."""
        # Not when the screen was closed at once (rapid keys), nor when the app is
        # shutting down and has already detached it (a session ending as a round ends).
        if self._size_guard is None and self.is_attached and self in self.app.screen_stack:
            self._size_guard = TooSmall(lambda: self.game_goes_on, self.overlay_text,
                                        id="too-small")
            return self.mount(self._size_guard)
        return None

    _rebuilding = False

    @property
    def rebuilding(self) -> bool:
        """Whether the screen's widgets are being made again (:meth:`retranslate`).

        Meanwhile the old widgets go, one by one, and the new ones come: a query for
        one of them may find nothing, or a widget on its way out. A timer's callback,
        a worker or another screen's code may run then (Textual calls a timer's
        callback from a task of its own, not from the screen's queue): whatever of
        theirs reaches for the screen's widgets checks this first and leaves the work
        to the end of the rebuild, which shows everything afresh.
        """
        return self._rebuilding

    async def retranslate(self) -> None:
        """Redraw in the app's (new) language, keeping the screen's state."""
        translate_bindings(self, self.binding_text)
        self._rebuilding = True
        try:
            await self.recompose()  # (the overlay goes with the rest)
        finally:
            self._rebuilding = False
        self._size_guard = None
        if self.too_small:
            await self._guard_size()


class DiamantScreen(_Guarded, Screen):
    """A full screen of the game."""


class DiamantModal(_Guarded, ModalScreen):
    """A screen shown over another one (rules, round summary, confirmation)."""

    def close(self, result: object = None) -> None:
        """Dismiss this screen if it is still the one on top.

        With keys arriving in a burst (over SSH, or a held key) a second "close" can
        reach a screen already on its way out; ``dismiss`` would then pop whichever
        screen is on top instead.
        """
        if self.app.screen is self:
            self.dismiss(result)
