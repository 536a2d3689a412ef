"""Every player at the table: in the cave or in camp, carried rubies, chest, relics.

The columns are as wide as their words and numbers; the name column takes what is
left, so a name is shortened (with "…") only when the line cannot hold it whole.
Where the screen lets the list be as wide as its rows (``width: auto``, a wide
terminal), it takes the width of its widest rows, within the room its neighbours leave.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Region, Size, Spacing
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...engine.view import Phase, PlayerView, SeatView
from ..cells import cell, cell_len, widest
from ..describe import RUBY
from ..literal import printable
from .component_styles import KeptComponentStyles
from .direct_repaint import RepaintedDirectly
from .drawn_runs import Run, drawn_runs
from .one_layout import SizedInOneLayout
from .shared_lines import KeptBackgrounds, KeptRow, RowsKept, app_of, look_key

MIN_NAME = 8
"""Cells a name keeps at least, however narrow the list: longer ones are shortened (…)."""
AWAY_MARK = "☾"
"""The turn column's mark of a seat a computer plays for its person now."""
DECIDED_MARK = "✓"
"""The turn column's mark of a player who has chosen this turn."""
NUMBER_CELLS = 5
"""Cells a column of numbers is given at least where the list is as wide as its rows:
enough for a chest of three digits and relics worth two ("◈2:15"), so that the list
keeps its width all game long."""


def marked_words(t) -> tuple[str, str]:
    """The turn column's words, away and decided, each after its mark and a space: the
    same shape in every language."""
    return f"{AWAY_MARK} {t('players.away')}", f"{DECIDED_MARK} {t('players.decided')}"


@dataclass(frozen=True)
class PlayersState:
    """What the player list shows: the view and which seats are away (played by a computer,
    or their person not connected)."""

    view: PlayerView
    away: frozenset[int] = frozenset()
    people: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Layout:
    """Where the list's columns lie for one state at one width."""

    widths: tuple[int, ...]
    """Name, place, carried, chest, relics."""
    gap: int
    status_room: int
    """Cells left for the turn column."""
    width: int


ROWS_KEPT = 256
"""Lines kept for the process though no list shows them: the last ones drawn. A line a
list shows is kept while it does (each list holds its own), for every other app at its
table: kept by the thousand whether shown or not, lines of states long gone (some 2 KB
each) were most of what the lists cost a server."""


_ROWS = RowsKept(ROWS_KEPT)
"""The lists' lines, kept while a list shows one (the list holds it)."""

LAYOUTS_KEPT = 256
"""Lists' columns kept for the process (by language, width and the players' words)."""
_LAYOUTS: LRUCache[tuple, Layout] = LRUCache(LAYOUTS_KEPT)


class PlayerList(RepaintedDirectly, SizedInOneLayout, KeptBackgrounds, KeptComponentStyles,
                 Widget):
    """One line per player; it shows that a player has decided, never what."""

    ALLOW_SELECT = False  # its lines are drawn without the offsets selecting needs

    COMPONENT_CLASSES = {
        "players--header",
        "players--me",
        "players--camp",
        "players--decided",
        "players--away",
    }

    DEFAULT_CSS = """
    PlayerList {
        width: 1fr;
        height: auto;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .players--header { text-style: bold underline; }
        & > .players--me { text-style: bold; }
        & > .players--camp { color: $text-muted; }
        & > .players--decided { color: $success; }
        & > .players--away { color: $warning; text-style: italic; }
    }
    """

    state: reactive[PlayersState | None] = reactive(None, repaint=False)
    """Set: only the lines that change are drawn again (:meth:`watch_state`)."""
    _layout_of: tuple[PlayersState, Layout] | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown_rows: dict[int, KeptRow] = {}
        """The line this list shows at each y, as kept for the process."""

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1 + (len(self.state.view.players) if self.state else 0)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        # Asked only where the list is as wide as its rows (width: auto): as wide as its
        # widest rows may be this game, short of the room its neighbours (the deck's
        # panel) leave in the row, where the names give way as on a narrow screen.
        beside = sum(self._outer_width(widget) for widget in self.parent.children
                     if widget is not self and widget.display)
        return max(1, min(self._rows_width(), container.width - beside))

    @staticmethod
    def _outer_width(widget: Widget) -> int:
        """The cells a neighbour of a fixed width takes (0 for any other)."""
        width = widget.styles.width
        cells = width.cells if width is not None else None
        return 0 if cells is None else cells + widget.styles.margin.width

    def _rows_width(self) -> int:
        """The cells the widest rows of the list may take this game, with two spaces
        between columns and the turn column in words, "(computer)" included: the names
        and the words of the language, the numbers at their widest likely."""
        state = self.state
        if state is None:
            return 0
        t = self.app.t
        heads = self._heads()
        widths = [max(MIN_NAME, widest([heads[0]] + [p.name for p in state.view.players])),
                  widest((heads[1], t("place.cave"), t("place.camp")))]
        widths += [max(NUMBER_CELLS, cell_len(head)) for head in heads[2:]]
        turn = (widest((*marked_words(t), t("players.status")))
                + cell_len(" " + t("players.computer")))
        return 2 + sum(width + 2 for width in widths) + turn

    def watch_state(self, old: PlayersState | None, new: PlayersState | None) -> None:
        # The height changes only with the number of players, and the width (where it is
        # the rows') with their names: then (only) a new layout.
        if (old and len(old.view.players)) != (new and len(new.view.players)) or (
                old and new and self.styles.width is not None and self.styles.width.is_auto
                and [p.name for p in old.view.players] != [p.name for p in new.view.players]):
            self.refresh(layout=True)
            return
        changed = self._changed_lines(old, new)
        if changed is None:
            self.refresh()
        elif changed:
            self.refresh(*changed)

    def _changed_lines(self, old: PlayersState | None,
                       new: PlayersState | None) -> list[Region] | None:
        """The lines (regions of the widget) that show something else in ``new`` than in
        ``old``; None for all of them. A player deciding changes one row: the others were
        drawn and sent again with it, for every seat at the table."""
        kept = self._layout_of
        if old is None or new is None or kept is None or kept[0] is not old:
            return None  # not drawn yet in the old state
        layout = self._layout(kept[1].width)
        if layout != kept[1]:
            return None  # the columns moved: every line changes
        width = layout.width  # (the content's; the padding beside it does not change)
        return [Region(0, y, width, 1) for y in range(1, len(new.view.players) + 1)
                if _line_key(old, y, layout) != _line_key(new, y, layout)]

    def _layout(self, width: int | None = None) -> Layout:
        """The columns of the list for the state on show, worked out once per state and
        width (``width``: the content's, when the caller has it)."""
        state = self.state
        kept = self._layout_of
        if width is None:
            width = self.size.width
        if kept is not None and kept[0] is state and kept[1].width == width:
            return kept[1]
        app = self.app
        view = state.view
        # The same for every seat at a table in one language (but for hidden chests).
        key = (app.translator.lang, width, tuple((p.name, p.in_cave, p.carried, p.chest,
                                                  p.relics) for p in view.players))
        layout = _LAYOUTS.get(key)
        if layout is None:
            layout = _LAYOUTS[key] = self._worked_out_layout(width)
        self._layout_of = (state, layout)
        return layout

    def _worked_out_layout(self, width: int) -> Layout:
        """The columns of the list for the state on show at ``width`` cells."""
        t = self.app.t
        view = self.state.view
        numbers = [self._numbers(p) for p in view.players]
        heads = self._heads()
        places = (t("place.cave"), t("place.camp"))
        widths = [widest([heads[0]] + [p.name for p in view.players]),
                  widest((heads[1],) + places)]
        widths += [widest([heads[2 + i]] + [row[i] for row in numbers]) for i in range(3)]
        status_head = t("players.status")
        statuses = (*marked_words(t), status_head)
        # Two spaces between columns where every name and word fits with them, else one.
        gap = 2
        if 2 + sum(w + 2 for w in widths) + widest(statuses) > width:
            gap = 1
        fixed = 2 + sum(w + gap for w in widths[1:])
        room = width - fixed
        # The name column gives way first, down to MIN_NAME; the turn column keeps its header.
        widths[0] = max(MIN_NAME, min(widths[0], room - gap - cell_len(status_head)))
        return Layout(tuple(widths), gap, max(1, room - widths[0] - gap), width)

    _kept_gutter: Spacing | None = None

    @property
    def _gutter(self) -> Spacing:
        """The padding and border around the content, as last worked out since the CSS
        was applied (Textual works it out at every asking)."""
        gutter = self._kept_gutter
        if gutter is None:
            gutter = self._kept_gutter = self.styles.gutter
        return gutter

    def notify_style_update(self) -> None:
        self._kept_gutter = None
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        # Each line once for the process: the seats at a table see the same rows but
        # their own (their chest, their mark), and a player who decides changes one row
        # of every seat's list. What else decides a line's look is the same for all of
        # its lines, so it is worked out once here.
        state = self.state
        look = look_key(app_of(self))
        if state is None or look is None:
            return super().render_lines(crop)
        # The outer size the last layout gave (``size`` finds the widget in its screen's
        # map at every asking), less the gutter, is the content's.
        outer = self._size
        gutter = self._gutter
        frame = _ROWS.frame_number((look, outer, gutter, crop.x, crop.width, self.classes,
                                    self.mouse_hover, self.background_colors))
        layout = self._layout(max(0, outer.width - gutter.width))
        top = gutter.top
        # At a card, every row of the first list at a table to draw it is new.
        return _ROWS.lines(crop, lambda y: _line_key(state, y - top, layout), frame,
                           self._shown_rows, super().render_lines)

    def render_line(self, y: int) -> Strip:
        state = self.state
        width = self.size.width
        if state is None or not 0 <= y <= len(state.view.players):
            return Strip.blank(width, self.visual_style.rich_style)
        runs = self._header() if y == 0 else self._row(state.view.players[y - 1])
        return drawn_runs(runs, self.visual_style, width)

    def _heads(self) -> tuple[str, ...]:
        """The columns' headings but the turn column's: name, place, carried, chest, relics."""
        t = self.app.t
        return (t("players.name"), t("players.place"), t("players.carried"),
                t("players.chest"), t("players.relics"))

    def _header(self) -> list[Run]:
        layout = self._layout()
        space = " " * layout.gap
        return [(
            "  " + "".join(cell(h, w, right=i >= 2) + space
                           for i, (h, w) in enumerate(zip(self._heads(), layout.widths)))
            + self.app.t("players.status"),
            self.component_style("players--header"),
        )]

    def _row(self, p: SeatView) -> list[Run]:
        t = self.app.t
        layout = self._layout()
        widths, space = layout.widths, " " * layout.gap
        me = p.seat == self.state.view.seat
        style = self.component_style("players--me") if me else Style()
        if not p.in_cave:
            style = self.component_style("players--camp") + style
        place = t("place.cave") if p.in_cave else t("place.camp")
        # Drawn as segments, not through a Content that would drop control characters:
        # the table has cleaned the name already, this keeps it so whatever reached here.
        line = ("▶ " if me else "  ") + cell(printable(p.name), widths[0]) + space
        line += cell(place, widths[1]) + space
        for text, width in zip(self._numbers(p), widths[2:]):
            line += cell(text, width, right=True) + space
        runs: list[Run] = [(line, style)]
        self._status(runs, style, p, layout.status_room)
        return runs

    @staticmethod
    def _numbers(p: SeatView) -> tuple[str, str, str]:
        """A player's numbers as shown: carried, chest, relics (count:points)."""
        chest = "?" if p.chest is None else f"{RUBY}{p.chest}"
        relics = f"◈{len(p.relics)}:{p.relic_points}" if p.relics else "—"
        carried = f"{RUBY}{p.carried}" if p.in_cave else "—"
        return (carried, chest, relics)

    def _status(self, runs: list[Run], style: Style, p: SeatView, room: int) -> None:
        """The turn column (after the row's ``runs``, drawn in ``style``): away, decided or
        not yet; in words where every line has room for them (the same choice on each
        line, so nothing jumps as players decide)."""
        t = self.app.t
        view = self.state.view
        away, decided = marked_words(t)
        computer = " " + t("players.computer")
        words = widest((away, decided)) <= room
        tell_computers = words and widest((away, decided)) + cell_len(computer) <= room
        if p.seat in self.state.away:
            # A computer plays the seat now: that matters more than the tick.
            runs.append((away if words else AWAY_MARK,
                         style + self.component_style("players--away")))
        elif view.phase is Phase.DECISION and p.in_cave:
            if p.decided:
                runs.append((decided if words else DECIDED_MARK,
                             style + self.component_style("players--decided")))
            else:
                runs.append(("…", style))
        if tell_computers and p.seat not in self.state.people and p.seat not in self.state.away:
            runs.append((computer, style))


def _line_key(state: PlayersState, y: int, layout: Layout) -> Hashable:
    """All that line ``y`` of a list's content shows in ``state`` (the header is line 0),
    and where its columns lie (``layout``, the list's for that state)."""
    if not 0 <= y <= len(state.view.players):
        return ("blank", y)
    if y == 0:
        return layout
    p = state.view.players[y - 1]
    return (layout, p, p.seat == state.view.seat, p.seat in state.away,
            p.seat in state.people, state.view.phase is Phase.DECISION)
