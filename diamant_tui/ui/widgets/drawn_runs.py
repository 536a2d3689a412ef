"""Lines drawn from runs of text directly, as Textual draws the same text.

Textual draws a widget's text by making a Content of it and rendering that: for a line
of a few runs, most of what the line costs. The player list (about ten lines drawn per
card at a table of five, each seat's own row its own) and the cave's path build their
lines as runs (a text and a Rich style each) and draw them here, cell for cell as
Textual would (the tests compare them), without the mouse's selection offsets: those
widgets allow no selection.
"""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
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
        # In the line's own style (its first run's), as a Rich Text's base style.
        ellipsis = _run_style(base, runs[0][1]) if runs else base.rich_style
        strip = Strip(list(strip.crop(0, width - 1)) + [Segment("…", ellipsis)])
    return strip
