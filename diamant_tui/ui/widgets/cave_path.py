"""The cave path: this round's cards in a row that wraps as it grows, and under them
the round's earlier events (the feed), so the reveal sequence stays readable.

The path and its feed are one widget that fills the cave's area. As two, the path's
height changed with every row it grew, and the feed under it took another height: a
layout of the whole screen (a full redraw) for every seat at a table: 11 of the 31
layouts a game asked for, 4 of them in frames not laid out for anything else. One widget
of the area's height only redraws its lines; it grows past the area (and a scroll bar
comes) only when the path alone needs more.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...engine.cards import Hazard, Relic, Rules, Treasure, relic_value_in_relics
from ...engine.view import PathCard, PlayerView
from ..cells import wrap
from ..describe import RUBY
from .blank_containers import SharedBlank
from .component_styles import KeptComponentStyles
from .drawn_runs import Run, drawn_runs
from .focus_look import FocusDrawnByItself
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines

CARD_WIDTH = 9
INNER = CARD_WIDTH - 2
CARD_ROWS = 3
BIG_WIDTH = 11
BIG_INNER = BIG_WIDTH - 2
BIG_ROWS = 5
BIG_LEAST_ROOM = 14
"""The rows of the cave's area from which its cards are drawn big: not at 80x24, whose
area has about ten rows, and whose feed needs them."""
FEED_ROOM = 4
"""The rows big cards leave for the feed under them, where the feed is drawn."""
GAP = 1
BOLD = Style(bold=True)
PLAIN = Style()
# Treasure, hazard and relic cards differ by their border, not only by colour.
BORDERS = {
    "treasure": "╭─╮││╰─╯",
    "hazard": "╔═╗║║╚═╝",
    "relic": "┏━┓┃┃┗━┛",
    "disaster": "█▀█▌▐█▄█",
}


def shown_path(view: PlayerView) -> tuple[PathCard, ...]:
    """The path as the person sees it: in the ``relics`` edition, where a relic has no
    printed value, each relic lying on the path shows what it is worth if taken now.
    It is worth that when taken in this round: only one person leaving alone takes
    relics, all those on the path at once, counted in the order they lie (5 for the
    game's first three relics taken, 10 for the next two); they leave the game with the
    round otherwise. At a table the relic tokens left show it; here the card does."""
    if view.rules is not Rules.RELICS:
        return view.path
    shown, before = [], view.relics_taken
    for pc in view.path:
        if isinstance(pc.card, Relic) and pc.card.value is None and not pc.taken:
            pc = PathCard(Relic(relic_value_in_relics(before)), pc.rubies)
            before += 1
        shown.append(pc)
    return tuple(shown)


class CavePath(SizedInOneLayout, SharedLines, KeptComponentStyles, Widget):
    """Draws ``path`` as boxed cards (the second hazard of a type stands out), and under
    them the newest lines of ``feed`` that fit in the rows left, oldest first, then, for
    a few seconds, ``refusal``: why this person's chat line was refused (a toast stood
    over the round's newest lines, the banner under the players).

    In a tall area (from :data:`BIG_LEAST_ROOM` rows) the cards are drawn big, five rows
    each, with what kind of card each is, while the whole path fits so (leaving the feed
    :data:`FEED_ROOM` rows); a round too long for that goes on in small cards. Three
    rows a card left most of a tall terminal's cave empty.

    A feed line too long for the width goes on over the next row; a line that does not
    fit whole is left out, never cut. On a wide screen the log has its own column and
    already tells the round's story: the feed is not drawn there (the refusal is).
    """

    ALLOW_SELECT = False  # its lines are drawn without the offsets selecting needs

    COMPONENT_CLASSES = {
        "path--treasure",
        "path--hazard",
        "path--relic",
        "path--disaster",
        "path--rubies",
        "path--taken",
        "path--empty",
        "path--feed",
        "path--refusal",
    }

    DEFAULT_CSS = """
    CavePath {
        /* The whole area, whatever the path's rows (see the module's docstring). */
        height: auto;
        min-height: 100%;
        text-wrap: nowrap;
        & > .path--treasure { color: $warning; }
        & > .path--hazard { color: $error; }
        & > .path--relic { color: $accent; text-style: bold; }
        & > .path--disaster { color: $error; text-style: bold reverse; }
        & > .path--rubies { color: $text; text-style: bold; }
        & > .path--taken { color: $text-muted; }
        & > .path--empty { color: $text-muted; }
        & > .path--feed { color: $text-muted; }
        & > .path--refusal { color: $warning; }
    }
    """

    # Redrawn by their watchers, only the rows they change: Textual sends the lines of
    # what is marked dirty, and the whole area for every card would be more bytes than
    # the path and the feed cost as two widgets.
    path: reactive[tuple[PathCard, ...]] = reactive((), repaint=False)
    empty_text: reactive[str] = reactive("")
    feed: reactive[tuple[str, ...]] = reactive((), repaint=False)
    refusal: reactive[str | None] = reactive(None, repaint=False)
    """Why a chat line of this person's was refused, while it is told (under the feed)."""
    _runs: list[list[Run]] | None = None
    """The lines of the drawing under way (see :meth:`render_line`)."""

    def per_row(self, width: int, big: bool = False) -> int:
        """How many cards (``big`` or not) fit on one line of ``width`` cells."""
        return max(1, (width + GAP) // ((BIG_WIDTH if big else CARD_WIDTH) + GAP))

    def get_content_height(self, container, viewport, width: int) -> int:
        # The area's height as this layout gives it (the parent's size is the last one's).
        return self._cards(self.path, width, container.height)[1]

    def _height(self, path: tuple[PathCard, ...], width: int) -> int:
        return self._cards(path, width, self._room())[1]

    def _cards(self, path: tuple[PathCard, ...], width: int, room: int) -> tuple[bool, int]:
        """Whether ``path`` is drawn in big cards in an area ``width`` cells wide and
        ``room`` rows tall, and the rows its cards take."""
        if not path:
            return False, 1
        if room >= BIG_LEAST_ROOM:
            rows = -(-len(path) // self.per_row(width, big=True)) * BIG_ROWS
            if rows + (FEED_ROOM if self._feed_shown else 0) <= room:
                return True, rows
        return False, -(-len(path) // self.per_row(width)) * CARD_ROWS

    def changes_height(self, path: tuple[PathCard, ...]) -> bool:
        """Whether showing ``path`` instead of the path on show gives the widget another
        height (only when the path needs more rows than the area has, or no longer)."""
        return self._heights_differ(self.path, path)

    def _heights_differ(self, old: tuple[PathCard, ...], new: tuple[PathCard, ...]) -> bool:
        width = self.size.width
        room = self._room()
        return (max(room, self._cards(old, width, room)[1])
                != max(room, self._cards(new, width, room)[1]))

    def _room(self) -> int:
        """The rows the area shows (its scrolling parent's; the path's own container is
        its whole height once taller)."""
        parent = self.parent
        return parent.size.height if isinstance(parent, Widget) else self.size.height

    def watch_path(self, old: tuple[PathCard, ...], new: tuple[PathCard, ...]) -> None:
        # A new layout (a full redraw of the screen) only when the widget changes height.
        if self._heights_differ(old, new):
            self.refresh(layout=True)
            return
        width = self.size.width
        room = self._room()
        big, old_rows = self._cards(old, width, room)
        big_now, new_rows = self._cards(new, width, room)
        if not old or not new or big != big_now:
            # The "no cards yet" line, or back to it; or the cards drawn in another size.
            self.refresh()
            return
        # From the row of the first card that changed (a new card, or the rubies left on
        # a card taken by those who left); the feed too when the path took another row.
        first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b),
                     min(len(old), len(new)))
        top = first // self.per_row(width, big) * (BIG_ROWS if big else CARD_ROWS)
        if old_rows == new_rows:
            bottom = new_rows
        else:
            bottom = max(self.size.height, new_rows)
        if bottom > top:
            self.refresh(Region(0, top, width, bottom - top))

    def watch_feed(self) -> None:
        if self._feed_shown:
            self._refresh_under_path()

    def watch_refusal(self) -> None:
        self._refresh_under_path()

    def _refresh_under_path(self) -> None:
        """Draw again the rows under the path (the feed's and the refusal's), only them."""
        top = self._height(self.path, self.size.width)
        if self.size.height > top:
            self.refresh(Region(0, top, self.size.width, self.size.height - top))

    @property
    def _feed_shown(self) -> bool:
        return not self.screen.has_class("-wide")

    def shared_key(self):
        shown = self._feed_shown  # (the cards' size depends on it too)
        return (self.path, self.empty_text, shown, self.feed if shown else (), self.refusal)

    def render(self) -> Text:
        return Text("\n").join(Text.assemble(*runs) for runs in self._lines())

    def render_lines(self, crop: Region) -> list[Strip]:
        self._runs = None  # worked out again for this drawing, if it is not kept
        try:
            return super().render_lines(crop)
        finally:
            self._runs = None

    def render_line(self, y: int) -> Strip:
        # Each line from its runs of text (drawn_runs), as Textual would draw the text
        # render() gives, without a Content made and rendered for the whole area.
        if self._runs is None:
            self._runs = self._lines()
        width = self.size.width
        if 0 <= y < len(self._runs):
            return drawn_runs(self._runs[y], self.visual_style, width)
        return Strip.blank(width, self.visual_style.rich_style)

    def _lines(self) -> list[list[Run]]:
        """Every line of the area: the path's rows of cards, then the feed, then the
        refusal (whole in the rows left, the feed's oldest lines giving way to it)."""
        lines = self._path_lines()
        room = self.size.height - len(lines)
        told = self._refusal_lines(room)
        if self._feed_shown:
            lines += self._feed_lines(room - len(told))
        return lines + told

    def fits_under_path(self, text: str) -> bool:
        """Whether ``text`` fits whole in the rows under the path (none once the path
        fills the area, late in a long round with many players)."""
        width = self.size.width
        return len(wrap(text, width)) <= self.size.height - self._height(self.path, width)

    def _refusal_lines(self, room: int) -> list[list[Run]]:
        """The refusal's rows, if it fits whole in ``room`` rows (else none)."""
        if not self.refusal:
            return []
        rows = wrap(self.refusal, self.size.width)
        if len(rows) > room:
            return []
        style = self.component_style("path--refusal")
        return [[(row, style)] for row in rows]

    def _path_lines(self) -> list[list[Run]]:
        if not self.path:
            return [[(self.empty_text, self.component_style("path--empty"))]]
        width = self.size.width
        big = self._cards(self.path, width, self._room())[0]
        per_row = self.per_row(width, big)
        seen: set = set()
        boxes = []
        for pc in self.path:
            second = isinstance(pc.card, Hazard) and pc.card in seen
            seen.add(pc.card)
            boxes.append(self._big_box(pc, second) if big else self._box(pc, second))
        lines: list[list[Run]] = []
        for start in range(0, len(boxes), per_row):
            row = boxes[start : start + per_row]
            for i in range(BIG_ROWS if big else CARD_ROWS):
                line: list[Run] = []
                for n, box in enumerate(row):
                    if n:
                        line.append((" " * GAP, PLAIN))
                    line += box[i]
                lines.append(line)
        return lines

    def _feed_lines(self, room: int) -> list[list[Run]]:
        """The newest feed lines that fit whole in ``room`` rows, oldest first."""
        width = self.size.width
        rows: list[str] = []
        for line in reversed(self.feed):
            wrapped = wrap(line, width)
            if len(rows) + len(wrapped) > room:
                break
            rows[:0] = wrapped
        style = self.component_style("path--feed")
        return [[(row, style)] for row in rows]

    def _box(self, pc: PathCard, second: bool) -> tuple[list[Run], ...]:
        """A card in three rows: its name or value, and on its lower edge the rubies
        left on it, a relic's value or that it was taken, or a disaster's mark."""
        t = self.app.t
        card = pc.card
        bottom_text = ""
        if isinstance(card, Treasure):
            kind, label = "treasure", str(card.value)
            bottom_text = f"{RUBY}{pc.rubies}" if pc.rubies else ""
        elif isinstance(card, Hazard):
            kind = "disaster" if second else "hazard"
            label = t(f"hazard_short.{card.type.value}")
            bottom_text = "✖✖✖" if second else ""
        else:
            kind, label = "relic", t("card.relic_short")
            bottom_text = str(card.value) if card.value is not None else ""
            if pc.taken:
                bottom_text = t("card.taken_short")
        return self._boxed(pc, kind, [label], bottom_text, INNER)

    def _big_box(self, pc: PathCard, second: bool) -> tuple[list[Run], ...]:
        """A card in five rows: its value or name, a blank row, the kind of card it is,
        and on its lower edge what the small card shows there."""
        t = self.app.t
        card = pc.card
        if isinstance(card, Treasure):
            kind, label, word = "treasure", str(card.value), t("card.kind_treasure")
            bottom_text = f"{RUBY}{pc.rubies}" if pc.rubies else ""
        elif isinstance(card, Hazard):
            kind = "disaster" if second else "hazard"
            label = t(f"hazard.{card.type.value}").capitalize()
            if len(label) > BIG_INNER:
                label = t(f"hazard_short.{card.type.value}")
            word, bottom_text = t("card.kind_hazard"), "✖✖✖" if second else ""
        else:
            kind, word = "relic", t("card.kind_relic")
            bottom_text = t("card.taken_short") if pc.taken else ""
            if card.value is None:  # its worth not known yet: the kind alone, in the middle
                return self._boxed(pc, kind, ["", word, ""], bottom_text, BIG_INNER, bold=1)
            label = str(card.value)
        return self._boxed(pc, kind, [label, "", word], bottom_text, BIG_INNER)

    def _boxed(self, pc: PathCard, kind: str, rows: list[str], bottom_text: str,
               inner: int, bold: int = 0) -> tuple[list[Run], ...]:
        """A card's box ``inner`` cells wide inside its border: ``rows`` centred (the
        one at ``bold`` in bold), ``bottom_text`` in the middle of its lower edge."""
        style = self.component_style(f"path--{kind}")
        if isinstance(pc.card, Relic) and pc.taken:
            style = self.component_style("path--taken")
        b = BORDERS[kind]
        bottom_text = bottom_text[:inner]
        fill = inner - len(bottom_text)
        edge_style = style if kind == "disaster" else self.component_style("path--rubies")
        return (
            [(b[0] + b[1] * inner + b[2], style)],
            *([(b[3], style), (row[:inner].center(inner), style + BOLD if n == bold else style),
               (b[4], style)] for n, row in enumerate(rows)),
            [(b[5] + b[6] * (fill // 2), style), (bottom_text, edge_style),
             (b[6] * (fill - fill // 2) + b[7], style)],
        )


class PathScroll(SharedBlank, SizedInOneLayout, FocusDrawnByItself, VerticalScroll):
    """The scrolling area of the cave path (it shows no focus of its own); its own
    blank lines, under the path, are shared by every app (:class:`SharedBlank`)."""
