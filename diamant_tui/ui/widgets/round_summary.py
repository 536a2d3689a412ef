"""After a round: how it ended and what each player banked."""

from __future__ import annotations

from collections.abc import Hashable

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.scalar import Unit
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from ...engine.view import PlayerView, RoundResult
from ..cells import cell, widest
from ..describe import RUBY, hazard_name
from ..veils import veil
from .blank_containers import SharedBlank
from .direct_repaint import RepaintedDirectly
from .drawn_runs import DrawnFromText, group_lines, text_runs
from .one_layout import SizedInOneLayout
from .shared_lines import KeptBackgrounds, KeptRow, RowsKept, app_of, look_key


def summary_text(t, view: PlayerView, result: RoundResult) -> Text:
    """The summary's body: one line per player, best banked first, with the rubies and
    the relic points of the round apart (a relic's points are not rubies)."""
    relics = result.relics or tuple(0 for _ in view.players)
    order = sorted(view.players, key=lambda p: (-(result.banked[p.seat] or 0), p.seat))
    rows = []
    for p in order:
        banked = result.banked[p.seat]
        rubies = "?" if banked is None else f"+{banked - relics[p.seat]}{RUBY}"
        points = f"+{relics[p.seat]}" if relics[p.seat] else "—"
        total = "?" if p.chest is None else str(p.chest + p.relic_points)
        mark = "▶ " if p.seat == view.seat else "  "
        rows.append((mark + p.name, rubies, points, total))
    heads = (t("players.name"), t("summary.banked"), t("summary.relics"), t("summary.score"))
    widths = [widest([row[i] for row in rows] + [heads[i]]) for i in range(4)]
    gap = "   "

    def line(row) -> str:
        return cell(row[0], widths[0]) + "".join(
            gap + cell(text, width, right=True) for text, width in zip(row[1:], widths[1:])
        )

    return Text("\n").join([Text(line(heads), style="bold")] + [Text(line(row)) for row in rows])


LINES_KEPT = 64
"""Summary lines kept for the process though no summary shows them: the last ones drawn."""
_LINES = RowsKept(LINES_KEPT)
"""The summaries' lines, kept while a summary shows one (the summary holds it)."""


class SummaryBox(RepaintedDirectly, SizedInOneLayout, KeptBackgrounds, DrawnFromText, Static):
    """The summary's framed words (drawn with the table's other changes, see
    :class:`~.direct_repaint.RepaintedDirectly`; sized in one layout, see
    :mod:`.one_layout`; each line drawn from its runs, see :class:`.DrawnFromText`,
    unless a line would wrap on a narrow terminal).

    Each line is drawn once for the process (:class:`~.shared_lines.RowsKept`): every
    seat at a table sums up the same round, but for the mark on its own row, and each
    seat's app drew the whole box (a round's end makes 6 % fewer calls without that)."""

    ALLOW_SELECT = False  # its lines are drawn without the offsets selecting needs

    words: tuple[int, int] | None = None
    """How many lines its words take and the widest, as the summary gave them."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown_rows: dict[int, KeptRow] = {}
        """The line this box shows at each y, as kept for the process."""

    def render_lines(self, crop: Region) -> list[Strip]:
        look = look_key(app_of(self))
        texts = self.drawn_texts() if look is not None else None
        if texts is None:
            return super().render_lines(crop)  # Textual's drawing (words that wrap)
        # All that decides how a line looks besides its own words (its width among them,
        # through the box's outer size and gutter), worked out once for all its lines.
        gutter = self.styles.gutter
        frame = _LINES.frame_number((look, self._size, gutter, crop.x, crop.width,
                                     self.classes, self.mouse_hover,
                                     self.background_colors))
        rows = [tuple(text_runs(text)) for text in texts]
        top = gutter.top

        def key(y: int) -> Hashable:
            # A line of words by its runs; the frame's lines (border, padding, blank) by
            # their place in the box.
            row = y - top
            return rows[row] if 0 <= row < len(rows) else y

        return _LINES.lines(crop, key, frame, self._shown_rows, super().render_lines)

    def taken(self, words: tuple[int, int]) -> tuple[int, int]:
        """The lines and the width the box gives ``words`` (lines, widest): at least
        what its least width leaves inside its frame."""
        least = self.styles.min_width
        inside = int(least.value) - self.styles.gutter.width \
            if least is not None and least.unit is Unit.CELLS else 0
        return words[0], max(inside, words[1])

    def drawn_texts(self) -> list[Text] | None:
        content = self.content
        return group_lines(content, self.size.width) if isinstance(content, Group) else None

    def get_content_height(self, container, viewport, width: int) -> int:
        # The words' lines when they fit the width: Textual would draw them all to count
        # them, at the layout that begins a game (the box is sized then), for every seat.
        words = self.words
        if words is not None and 0 < words[1] <= width:
            return words[0]
        return super().get_content_height(container, viewport, width)


class RoundSummary(SharedBlank, Vertical):
    """How the round that just ended went, over the table (not the last round: the final
    scores sum up the game instead); Enter, Space or Escape closes it (the table screen's
    keys).

    A part of the table screen rather than a screen of its own: showing a screen and
    going back lays out and sends the whole terminal six to eight times for every seat
    at every round's end, where showing and hiding this costs one frame each. Its words
    are one widget's content. It is always laid out, and shown and hidden by a veil
    (:mod:`~diamant_tui.ui.veils`): by its display style each cost a layout of the whole
    screen, and a CSS class would restyle it and everything in it. Its box takes its size
    in one layout (:mod:`.one_layout`); the summary itself does not: so sized, its first
    showing sent every seat the whole screen. Its blank lines around the box, which
    the compositor asks for at every round's end, are drawn once for every app
    (:class:`~.blank_containers.SharedBlank`).
    """

    # Over the table down to the footer (its height is set to leave the footer's line, see
    # fit), in the screen's overlay layer, so that it lays out nothing beneath it.
    DEFAULT_CSS = """
    RoundSummary {
        layer: overlay;
        dock: top;
        width: 100%;
        align: center middle;
        & > #summary-box {
            /* Framed as the screens' dialogs are (.dialog in diamant.tcss). As wide as
               its longest line (long names), never wider than the screen. */
            width: auto;
            min-width: 60;
            max-width: 100%;
            height: auto;
            border: round $primary;
            background: $surface;
            padding: 0 2;
        }
        & > .summary--title { text-style: bold; }
        & > .summary--disaster { text-style: bold reverse; color: $error; }
        & > .summary--next { color: $text-muted; }
    }
    """
    COMPONENT_CLASSES = {"summary--title", "summary--disaster", "summary--next"}

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: PlayerView | None = None
        """The view whose last round is summed up; None while hidden."""
        veil(self)  # hidden from the first frame on

    def compose(self) -> ComposeResult:
        box = SummaryBox("", id="summary-box")
        veil(box)
        yield box

    @property
    def shown(self) -> bool:
        """Whether the summary is on the screen."""
        return self.view is not None

    def show(self, view: PlayerView) -> None:
        """Sum up the last round of ``view`` (the table screen's Enter, Space or Escape
        closes it: the keyboard's focus stays where it was, for a move of the focus
        restyles what loses it and what gains it, and draws both again, twice a round)."""
        self.view = view
        veil(self, False)
        self._fill(self.body(view))
        self.fit(self.app.size.height)  # (the terminal may have changed under another screen)

    def reserve(self, view: PlayerView) -> None:
        """Size the box for the summaries of ``view``'s game before the game's parts are
        laid out (with them): every summary of a game has as many lines, and most fit
        the box's least width, so the first summary of a game lays nothing out (it was
        a layout of the whole screen for every seat)."""
        if self.query(SummaryBox):  # (composed)
            self._fill(self.body(view, RoundResult(view.round, None, 0,
                                                   tuple(0 for _ in view.players))))

    def _fill(self, body: Group) -> None:
        # The box takes the size of its words (at least its least width): laid out again
        # only when that size changes (a longer name, a wider number or line).
        box = self.query_one("#summary-box", SummaryBox)
        lines = [line for part in body.renderables for line in part.plain.split("\n")]
        before, box.words = box.words, (len(lines), max(map(cell_len, lines)))
        box.update(body, layout=before is None or box.taken(before) != box.taken(box.words))

    def body(self, view: PlayerView, result: RoundResult | None = None) -> Group:
        """What the box says about the last round of ``view`` (or of ``result``)."""
        t = self.app.t
        result = result or view.round_results[-1]
        style = self.get_component_rich_style
        if result.disaster is not None:
            how = Text("✖ " + t("summary.disaster", hazard=hazard_name(t, result.disaster)),
                       style=style("summary--disaster"))
        else:
            how = Text("✔ " + t("summary.safe"))
        return Group(
            Text(t("summary.title", round=result.round, rounds=view.rounds),
                 style=style("summary--title"), justify="center"),
            how,
            Text(t("summary.cards", cards=result.cards)),
            Text(""),
            summary_text(t, view, result),
            Text(""),
            Text(t("summary.next"), style=style("summary--next")),
        )

    def on_mount(self) -> None:
        # Fitted to the terminal before the screen's first layout, which then places it:
        # fitted only once it had a size, it asked every joining seat for another.
        self.fit(self.app.size.height)

    def fit(self, screen_height: int) -> None:
        """Cover everything but the footer's line on a screen ``screen_height`` lines
        high (CSS cannot say "100% less one line" for a docked widget, and docks in one
        layer do not make room for another's). The table screen calls it as the terminal
        changes size: the summary's own size changes only with the width."""
        height = max(1, screen_height - 1)
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height

    def hide(self) -> None:
        """Take the summary off the screen (nothing happens when it is not shown)."""
        if self.view is None:
            return
        self.view = None
        veil(self)
