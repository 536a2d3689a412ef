"""Lines drawn once for every app in the process that shows the same thing.

On a server every seat at a table has an app of its own, and most of what their table
screens show is the same for all of them: the cave path, the deck, the round bar, the
round's events. Each app used to draw those lines for itself at every change, five
times or more for one card. A widget with :class:`SharedLines` names the state it
draws (:meth:`~SharedLines.shared_key`); the lines it draws for that state, at that
size, in that language and look, are kept in one cache for the process, and any app
whose widget shows the same state takes them from there. Textual's strips are
immutable, so apps can share them.

A drawing is kept while a widget shows it (each widget holds the one it last drew), and
the last :data:`KEPT` drawn are kept besides, shown or not, for the looks that come back
(the buttons, the key bar, the notes). A drawing of the cave is some 9 KB (every run of
text in it carries a style of its own) and most of a game's states are shown for a card
or two: kept by the thousand, they were about 170 KiB per seat after twenty cards.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import count
from weakref import WeakValueDictionary

from textual.app import App
from textual.cache import LRUCache
from textual.dom import DOMNode
from textual.geometry import Region
from textual.strip import Strip

from .direct_repaint import RepaintedDirectly

KEPT = 128
"""Drawings kept though no widget shows them: the last ones drawn."""


_EVERY_KEPT: list[KeptWhileShown] = []
"""Every store of drawings in the process (:func:`forget_shared_lines` empties them)."""


class KeptWhileShown:
    """What is drawn for the process, by key: each thing is kept while something holds
    it (a widget showing it), and the last ``kept`` looked up besides, held or not. The
    things must be weakly referable."""

    def __init__(self, kept: int) -> None:
        self.recent: LRUCache[Hashable, object] = LRUCache(kept)
        """The last things looked up, held or not."""
        self.shown: WeakValueDictionary[Hashable, object] = WeakValueDictionary()
        """Every thing something holds now."""
        _EVERY_KEPT.append(self)

    def get(self, key: Hashable, draw):
        """The thing kept for ``key``, drawn with ``draw()`` if none is."""
        thing = self.find(key)
        if thing is None:
            thing = self.keep(key, draw())
        return thing

    def find(self, key: Hashable):
        """The thing kept for ``key``, or None (then draw it and :meth:`keep` it)."""
        thing = self.recent.get(key)
        if thing is None:
            thing = self.shown.get(key)
            if thing is not None:
                self.recent[key] = thing
        return thing

    def keep(self, key: Hashable, thing):
        """Keep ``thing``, just drawn, for ``key``; return it."""
        self.shown[key] = self.recent[key] = thing
        return thing

    def keys(self) -> set[Hashable]:
        """Every key kept, held or recent."""
        return set(self.recent.keys()) | set(self.shown.keys())

    def clear(self) -> None:
        """Forget everything kept."""
        self.recent.clear()
        self.shown.clear()


class Drawing(list):
    """A widget's lines for one state, as kept for the process (a list of strips that
    can be referred to weakly)."""

    __slots__ = ("__weakref__",)


_LINES = KeptWhileShown(KEPT)
"""Every widget's drawings, kept while a widget shows one (the widget holds it)."""


def look_key(app) -> Hashable | None:
    """What, beside a widget's own state and size, decides how an app draws it: the
    language, the CSS variables (the theme, monochrome) and the line filters (no colour,
    ANSI colours); None while the app's CSS is not parsed yet (nothing is shared then)."""
    stylesheet = getattr(app, "stylesheet", None)  # None: not in an app (yet)
    variables = getattr(getattr(stylesheet, "_parse_cache", None), "_variables_key", None)
    if variables is None:
        return None
    translator = getattr(app, "translator", None)
    return (
        getattr(translator, "lang", None),
        variables,
        app.ansi_color,
        tuple((type(f), f.enabled) for f in app._filters),
    )


def app_of(widget):
    """The app ``widget`` belongs to, found through its ancestors and kept on it.

    Not ``widget.app``, which names the app of the running task: a screen read out of
    another app's task (a test reading several apps' screens) would otherwise be given
    that other app's drawing."""
    app = widget.__dict__.get("_own_app")
    if app is None:
        app = widget
        while app._parent is not None:
            app = app._parent
        if isinstance(app, App):  # kept only once the widget is in an app
            widget._own_app = app
    return app


class KeptBackgrounds:
    """Mixin for a widget: its background colours, worked out once per change of CSS.

    Textual works them out by walking the widget's ancestors, at every frame in which the
    widget is drawn, and the key of a drawing kept for the process needs them too: those
    walks were about a twentieth of a server's CPU, mostly for drawings then found ready.
    They change only when the CSS of the widget or of an ancestor is applied again, and
    Textual then applies it again to the widget too (a class or pseudo-class changed on
    a node restyles the node and all that is under it, a theme all nodes), which is when
    it tells the widget (``notify_style_update``). Nothing in this interface sets a
    background or an opacity in code, which would not be told."""

    _kept_backgrounds = None

    @property
    def background_colors(self):
        """Textual's ``background_colors``, as last worked out since the CSS was applied."""
        kept = self._kept_backgrounds
        if kept is None:
            kept = self._kept_backgrounds = DOMNode.background_colors.fget(self)  # type: ignore[attr-defined]
        return kept

    def notify_style_update(self) -> None:
        self._kept_backgrounds = None
        super().notify_style_update()  # type: ignore[misc]


class SharedLines(RepaintedDirectly, KeptBackgrounds):
    """Mixin for a widget whose lines depend only on :meth:`shared_key`, its size and
    the app's look (language, theme, colours): those lines are drawn once per process."""

    def shared_key(self) -> Hashable | None:
        """The state the widget draws (hashable and cheap to hash); None: not shared."""
        return None

    def render_lines(self, crop: Region) -> list[Strip]:
        state = self.shared_key()
        look = look_key(app_of(self)) if state is not None else None
        if look is None:
            return super().render_lines(crop)  # type: ignore[misc]
        # The widget's outer size (``_size``, set at each layout), not ``size``: that one
        # finds the widget in its screen's map at every call, which was 2 % of a server's
        # CPU. The gutter between them comes from the CSS, decided by what follows.
        key = (
            type(self), self.id, state, look, self._size, crop,  # type: ignore[attr-defined]
            frozenset(self.classes), self.has_focus, self.mouse_hover,  # type: ignore[attr-defined]
            self.background_colors,  # type: ignore[attr-defined]
        )
        lines = _LINES.get(key, lambda: Drawing(super(SharedLines, self).render_lines(crop)))
        # Kept for the other apps for as long as this widget shows it.
        self._shown_drawing = lines
        return lines


class KeptRow:
    """One line of a widget as kept for the process (a strip, which can be referred to
    weakly through this)."""

    __slots__ = ("strip", "__weakref__")

    def __init__(self, strip: Strip) -> None:
        self.strip = strip


_NO_LINE = Strip([])
"""Where a line not yet drawn goes, until it is."""


class RowsKept:
    """A widget's lines kept for the process one by one, for a widget whose lines differ
    from one app to another only here and there: every seat at a table sees the same
    player list but for its own row (its chest, its mark), the same round summary but
    for its own mark. Each line is keyed by what it shows and by a number for the rest
    of what decides its look (:meth:`frame_number`); a line one app drew serves every
    other, and only the lines nobody drew yet are drawn.

    A line is kept while a widget shows it (each widget holds those it shows), and the
    last ``kept`` drawn besides, shown or not."""

    def __init__(self, kept: int, frames_kept: int = 256) -> None:
        self.rows = KeptWhileShown(kept)
        """The lines, by key."""
        self._frames: dict[Hashable, int] = {}
        self._frames_kept = frames_kept
        self._numbers = count()

    def frame_number(self, frame: Hashable) -> int:
        """A number for ``frame``, all that decides how a widget's lines look besides each
        line's own words: the key of every line holds the number, not the frame, which
        would be hashed again for every line of every widget at every frame. No number is
        given twice, so a frame numbered anew only has its lines drawn again."""
        number = self._frames.get(frame)
        if number is None:
            if len(self._frames) >= self._frames_kept:
                self._frames.clear()
            number = self._frames[frame] = next(self._numbers)
        return number

    def lines(self, crop: Region, key: Callable[[int], Hashable], frame: int,
              shown: dict[int, KeptRow], draw: Callable[[Region], list[Strip]]) -> list[Strip]:
        """The lines of ``crop`` (a widget's region): line ``y`` is the one kept for
        ``(key(y), frame)``, or drawn. The lines not kept are drawn together, with one
        call of ``draw`` for the region from the first to the last of them (one pass of
        Textual's styling, some 30 µs a call). ``shown``, the widget's, is told the line
        it shows at each ``y``: it holds them for the other apps while it does."""
        lines: list[Strip] = []
        missing: list[tuple[int, Hashable]] = []
        for y in range(crop.y, crop.bottom):
            line_key = (key(y), frame)
            row = self.rows.find(line_key)
            if row is None:
                missing.append((y, line_key))
                lines.append(_NO_LINE)
            else:
                shown[y] = row
                lines.append(row.strip)
        if missing:
            first = missing[0][0]
            drawn = draw(Region(crop.x, first, crop.width, missing[-1][0] - first + 1))
            for y, line_key in missing:
                row = shown[y] = self.rows.keep(line_key, KeptRow(drawn[y - first]))
                lines[y - crop.y] = row.strip
        return lines


def forget_shared_lines() -> None:
    """Drop every kept drawing, the widgets' and the player lists' rows (tests that
    compare a drawing with and without sharing, or count what is drawn)."""
    for kept in _EVERY_KEPT:
        kept.clear()
