"""A frame sends only the pieces of its lines that the terminal does not show already.

Textual sends every line of a widget that asked to be drawn again. A widget asks as a
whole: at a card the cave path, the deck's panel and the player list ask, and the lines
of theirs that did not change (the path's rows above the new card, the deck's title, a
player in camp) go out again with those that did. At a table of five apps over three
games (``benchmarks/bench_frames.py --apps 5 --games 3``), a fifth of the bytes sent
were cells the terminal showed already.

Here each app records what it last sent to its terminal, piece by piece: a piece is the
part of a line between two of the compositor's cuts (where widgets begin and end), and
the record holds the text written at each piece's place. A frame leaves out every piece
whose text is the one its terminal shows there, and a frame left with nothing to send is
not sent at all.

A repaint of the whole screen (Textual asks for one as a screen is shown, and again as
the app first learns the terminal's size) would send every piece again, though the
terminal shows them already: every join sent the whole table screen three times. While
the record holds for the screen, such a repaint is gathered as a frame of every line
instead, and what its terminal shows is left out of it as from any other frame (an
export to SVG still gets the whole screen).

What the terminal shows is known only while nothing else writes to it:

- the record belongs to one compositor and to the places of the cuts it was made with:
  another screen drawing, or a layout moving a cut, starts a new record;
- a full repaint, once written, is the record (every piece of the screen);
- a piece sent in part is forgotten (its place shows something of both);
- a frame the server could not send makes the server forget the record
  (:func:`forget_shown`).

A piece is recorded when its frame is written (rendered to the terminal's bytes), not
when it is gathered: a frame gathered and never written records nothing. The
compositor's ``cuts`` and the fields of ``ChopsUpdate`` and ``LayoutUpdate`` are
private: this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from rich.console import Console
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate, visible_screen_stack
from textual.app import App

from .widgets.shared_lines import app_of

_textual_render_full_update = Compositor.render_full_update  # Textual's own (tests compare)


class Shown:
    """What one terminal shows, as this process last sent it: the text written at each
    piece's place (line, first column), for one compositor and the cuts it gathered with.

    Text, not the strips: a string holds nothing the cycle collector looks at, where the
    strips of every piece of every seat's screen would outlive their frames."""

    __slots__ = ("compositor", "cuts", "pieces")

    def __init__(self, compositor: Compositor, cuts: list[list[int]] | None) -> None:
        self.compositor = compositor
        self.cuts = cuts
        self.pieces: dict[tuple[int, int], str] = {}


def _app_of(compositor: Compositor) -> App | None:
    root = compositor.root
    if root is None:
        return None
    app = app_of(root)
    return app if isinstance(app, App) else None


def _shown(app: App, compositor: Compositor, cuts) -> Shown:
    """The record of what ``app``'s terminal shows, if it holds for ``compositor`` and
    ``cuts`` (else a new, empty one)."""
    shown: Shown | None = app.__dict__.get("_shown_pieces")
    if shown is None or not _holds(shown, compositor, cuts):
        shown = app._shown_pieces = Shown(compositor, cuts)  # type: ignore[attr-defined]
    return shown


def _holds(shown: Shown, compositor: Compositor, cuts) -> bool:
    """Whether ``shown`` tells what the terminal shows of ``compositor`` gathered with
    ``cuts``: its own, or a layout's since then that left every cut in its place (as
    most do: a screen shown again, the terminal's size told at a join)."""
    if shown.compositor is not compositor:
        return False
    if shown.cuts is not cuts:
        if cuts is None or shown.cuts != cuts:
            return False
        shown.cuts = cuts  # the same places: the record holds for them
    return True


def forget_shown(app: App) -> None:
    """Forget what ``app``'s terminal shows: something else was written to it, or a
    frame meant for it was lost. Every piece of the next frames is sent."""
    app.__dict__.pop("_shown_pieces", None)


class ShownChops(ChopsUpdate):
    """Textual's partial update, which records the pieces it sends whole."""

    def __init__(self, chops, spans, chop_ends, app: App, compositor: Compositor,
                 cuts) -> None:
        super().__init__(chops, spans, chop_ends)
        self.app = app
        self.compositor = compositor
        self.cuts = cuts

    def render_segments(self, console: Console) -> str:
        # Recorded as Textual writes them: a piece inside a span is written whole, one
        # that reaches past a span's edge only in part.
        pieces = _shown(self.app, self.compositor, self.cuts).pieces
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(self.chop_ends[y], self.chops[y].items()):
                if strip is None or x > x2 or end <= x1:
                    continue
                if x2 > x >= x1 and end <= x2:
                    pieces[y, x] = strip.render(console)  # (kept on the strip for below)
                else:
                    pieces.pop((y, x), None)  # sent in part: its place shows something of both
        # Textual ends each line of the frame but the last with a line feed, though every
        # piece it writes begins with a move of the cursor to its place: harmless while
        # each line wrote something, not for the lines left out here. A frame whose first
        # lines were all shown already began with their line feeds, which moved the
        # cursor down from wherever the last frame had left it (the focused widget's
        # place, near the bottom after the chat was closed): at the last line each one
        # scrolled the whole terminal up a line, under the server's notice. A line of a
        # frame holds no line feed of its own (the chat's text is cleaned of them), so
        # every one in the frame is such a separator: none is sent.
        return super().render_segments(console).replace("\n", "")


class ShownLayout(LayoutUpdate):
    """Textual's full update, which records every piece it sends (all of them)."""

    def __init__(self, update: LayoutUpdate, app: App, compositor: Compositor,
                 cuts) -> None:
        super().__init__(update.strips, update.region)
        self.app = app
        self.compositor = compositor
        self.cuts = cuts

    def render_segments(self, console: Console) -> str:
        shown = self.app._shown_pieces = Shown(self.compositor, self.cuts)  # type: ignore[attr-defined]
        pieces = shown.pieces
        # Each line's pieces by their first column (the compositor's own dict), each
        # rendered here as Textual renders it just after (the strip keeps its text).
        for y, line in enumerate(self.strips, self.region.y):
            for x, strip in line.mapping.items():  # type: ignore[attr-defined]
                if strip is not None:
                    pieces[y, x] = strip.render(console)
        return super().render_segments(console)


def _leave_out_shown(update: ChopsUpdate, compositor: Compositor) -> ChopsUpdate | None:
    """``update`` without the pieces its terminal shows already; None if none is left."""
    app = _app_of(compositor)
    if app is None:
        return update
    cuts = compositor._cuts
    pieces = _shown(app, compositor, cuts).pieces
    chops, chop_ends = update.chops, update.chop_ends
    if pieces:
        # Each piece's text as it would be written (a strip keeps it: written, it is
        # not rendered again), compared with what its place shows.
        console = app.console
        left = False
        for y, x1, x2 in update.spans:
            line = chops[y]
            for end, (x, strip) in zip(chop_ends[y], line.items()):
                if strip is None or x >= x2 or end <= x1:
                    continue  # (one that begins at a span's end sends a cursor move alone)
                shown = pieces.get((y, x))
                if shown is not None and strip.render(console) == shown:
                    line[x] = None  # shown already, whole: nothing of it to send
                else:
                    left = True
        if not left:
            return None
    return ShownChops(chops, update.spans, chop_ends, app, compositor, cuts)


def send_only_changed_pieces() -> None:
    """Make every compositor of this process leave out of its partial frames what its
    terminal shows already, and record what its frames show (idempotent)."""
    gather = Compositor.render_partial_update
    if getattr(gather, "_leaves_out_shown", False):
        return

    def render_partial_update(self: Compositor) -> ChopsUpdate | None:
        update = gather(self)
        if update is None:
            return None
        return _leave_out_shown(update, self)

    render_partial_update._leaves_out_shown = True  # type: ignore[attr-defined]
    full = Compositor.render_full_update

    def render_full_update(self: Compositor, simplify: bool = False):
        app = _app_of(self)
        if app is not None:
            forget_shown(app)  # (until it is written, if it is: a screenshot is not)
        update = full(self, simplify=simplify)
        if simplify or app is None:
            return update  # (for a screenshot: its lines are joined, never written)
        return ShownLayout(update, app, self, self._cuts)

    update = Compositor.render_update

    def render_update(self: Compositor, full: bool = False, screen_stack=None,
                      simplify: bool = False):
        # Textual makes a full update of a frame whose changes cover the whole screen;
        # one asked for as such (``full``: an export) stays one.
        if not full and not simplify and self.size.region in self._dirty_regions:
            app = _app_of(self)
            shown = app.__dict__.get("_shown_pieces") if app is not None else None
            if shown is not None and shown.pieces and _holds(shown, self, self.cuts):
                visible_screen_stack.set([] if screen_stack is None else screen_stack)
                return self.render_partial_update()  # every line, less what is shown
        return update(self, full=full, screen_stack=screen_stack, simplify=simplify)

    Compositor.render_partial_update = render_partial_update  # type: ignore[method-assign]
    Compositor.render_full_update = render_full_update  # type: ignore[method-assign]
    Compositor.render_update = render_update  # type: ignore[method-assign]


__all__ = ["ShownChops", "forget_shown", "send_only_changed_pieces"]
