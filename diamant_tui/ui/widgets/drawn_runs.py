"""Lines drawn from runs of text directly, as Textual draws the same text.

Textual draws a widget's text by making a Content of it and rendering that: for a line
of a few runs, most of what the line costs. The player list (about ten lines drawn per
card at a table of five, each seat's own row its own) and the cave's path build their
lines as runs (a text and a Rich style each) and draw them here, cell for cell as
Textual would (the tests compare them), without the mouse's selection offsets: those
widgets allow no selection. The round bar (a new line at every card, at every table),
the deck panel and the round summary, whose text is Rich Text, have it cut into runs
(:class:`DrawnFromText`).
"""

from __future__ import annotations

from functools import lru_cache

from rich.console import Group
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as VisualStyle

Run = tuple[str, Style]
"""A run of a line's text, in a Rich style of its own over the widget's."""


@lru_cache(maxsize=1024)
def _run_style(base: VisualStyle, style: Style) -> Style:
    """The Rich style of a run drawn in ``style`` over a widget's ``base`` style, as
    Textual's Content draws it."""
    return (base + VisualStyle.from_rich_style(style)).rich_style


def drawn_runs(runs: list[Run], base: VisualStyle, width: int) -> Strip:
    """A line of ``runs`` over the ``base`` style, as Textual draws a line of text without
    wrapping (an ellipsis where it is cut), without making a Content of it. No offsets
    for selecting text with the mouse are attached. No room at all (a terminal narrower
    than the widget's padding): an empty line."""
    if width <= 0:
        return Strip.blank(0, base.rich_style)
    segments = [Segment(text, _run_style(base, style)) for text, style in runs if text]
    strip = Strip(segments)
    if strip.cell_length > width:
        kept = list(strip.crop(0, width - 1))
        ellipsis = _run_style(base, _style_at(runs, sum(len(s.text) for s in kept)))
        strip = Strip(kept + [Segment("…", ellipsis)])
    return strip


def _style_at(runs: list[Run], index: int) -> Style:
    """The style of the character at ``index`` of the runs' text, the one an ellipsis
    takes the place of: Textual's ellipsis keeps the styles that cover it (the last
    run's past the end)."""
    for text, style in runs:
        if index < len(text):
            return style
        index -= len(text)
    return runs[-1][1]


def text_runs(text: Text) -> list[Run]:
    """The runs of a line of Rich ``text``: each stretch of its text between the edges
    of its spans, in the text's own style with the spans' over it (in their order, as
    Rich combines them)."""
    own = _style(text.style)
    plain = text.plain
    spans = text.spans
    if not spans:
        return [(plain, own)]
    runs: list[Run] = []
    edges = sorted({0, len(plain), *(s.start for s in spans), *(s.end for s in spans)})
    for start, end in zip(edges, edges[1:]):
        if start >= len(plain):
            break
        over = [_style(s.style) for s in spans if s.start <= start and end <= s.end]
        runs.append((plain[start:end], Style.combine([own, *over]) if over else own))
    return runs


def _style(style: str | Style) -> Style:
    """A Rich style named or given (an empty name: no style)."""
    if isinstance(style, Style):
        return style
    return Style.parse(style) if style else _NO_STYLE


_NO_STYLE = Style()


class DrawnFromText:
    """Mixin for a widget whose text does not wrap: each line of what it renders (a
    Rich Text) is drawn from its runs (:func:`text_runs`, :func:`drawn_runs`), as
    Textual would draw it, without a Content made and rendered for the whole widget.
    The lines are :meth:`drawn_texts`; the text is worked out once per drawing."""

    _drawn: tuple[list[list[Run]], int, VisualStyle] | bool | None = None
    """This drawing's runs line by line, its width and style (False: left to Textual;
    None: not worked out)."""

    def drawn_texts(self) -> list[Text] | None:
        """The widget's lines of text: by default what it renders, line by line. None:
        this drawing is left to Textual (text that would wrap, say)."""
        return self.render().split("\n", allow_blank=True)  # type: ignore[attr-defined]

    def render_lines(self, crop: Region) -> list[Strip]:
        self._drawn = None  # worked out again for this drawing
        try:
            return super().render_lines(crop)  # type: ignore[misc]
        finally:
            self._drawn = None

    def render_line(self, y: int) -> Strip:
        drawn = self._drawn
        if drawn is None:
            texts = self.drawn_texts()
            # With the width and style of the drawing (each found through the screen).
            drawn = self._drawn = False if texts is None else (
                [text_runs(t) for t in texts], self.size.width,  # type: ignore[attr-defined]
                self.visual_style)  # type: ignore[attr-defined]
        if drawn is False:
            return super().render_line(y)  # type: ignore[misc]
        lines, width, style = drawn
        if 0 <= y < len(lines):
            return drawn_runs(lines[y], style, width)
        return Strip.blank(width, style.rich_style)


def group_lines(group: Group, width: int) -> list[Text] | None:
    """The lines of a Rich Group of Texts as Rich draws it ``width`` cells wide (a
    centred text padded on both sides in its own style, as Rich pads it); None if any
    line is wider (Rich would fold it) or a part is not a Text justified left or
    centred."""
    lines: list[Text] = []
    for part in group.renderables:
        if not isinstance(part, Text) or part.justify not in (None, "default", "left", "center"):
            return None
        for line in part.split("\n", allow_blank=True):
            if line.cell_len > width:
                return None
            if part.justify == "center":
                line.rstrip()
                line.pad_left((width - line.cell_len) // 2)
                line.pad_right(width - line.cell_len)
            lines.append(line)
    return lines
