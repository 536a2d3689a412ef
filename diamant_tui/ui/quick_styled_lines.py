"""A widget's content lines styled without working out its look again for every line.

Textual's style cache makes each line of a widget from its content line: it pads it,
puts the side borders on, and applies tint, opacity, hatching and outlines. For that it
reads the widget's border, outline, gutter, tint and hatch from its styles, builds the
border's colours and two closures, and asks the app for its colour theme: for every
line, though none of these change from one line to the next. On a server every seat's
app draws the lines nobody has drawn yet at every change at its table, and this was
a fifth to a half of what drawing a widget cost (the deck's panel 248 → 153 µs, the
round bar 181 → 88 µs, measured with this in place).

Here what a widget's lines have in common is worked out once for as long as its styles,
size and background stay the same (:class:`_Plan`). A line of content between side
borders and padding, on a widget with no outline, tint, hatch or transparency, is then
made from the plan alone, segment for segment as Textual makes it (a test compares them
on every widget of the table screen). Every other line (a top or bottom border, a line
of padding, a widget with any of those effects) is Textual's own. The style cache's
``render_line`` is private: this relies on the pinned minor version of Textual.
"""

from __future__ import annotations

from textual._border import get_box
from textual._segment_tools import line_pad
from textual._styles_cache import StylesCache
from textual.geometry import Size, Spacing
from textual.strip import Strip
from textual.style import Style

_textual_render_line = StylesCache.render_line  # Textual's own (tests compare)


class _Plan:
    """What every content line of one widget shares while its styles, size, padding and
    background stay the same."""

    __slots__ = ("key", "quick", "top", "bottom", "gutter_top", "content_width",
                 "content_height", "pad_left", "pad_right", "inner", "left", "right",
                 "width")

    def __init__(self, cache: StylesCache, key: tuple, styles, size: Size,
                 content_size: Size, padding: Spacing, base_background, background,
                 opacity: float) -> None:
        self.key = key
        gutter = styles.gutter
        (top, _), (right, right_color), (bottom, _), (left, left_color) = styles.border
        outline = styles.outline
        hatched = styles.has_rule("hatch") and styles.hatch != "none"
        # Lines that are not content between side borders and padding are Textual's.
        self.quick = (opacity == 1.0 and not styles.tint.a and styles.text_opacity == 1.0
                      and not hatched and not any(edge for edge, _ in outline))
        pad_top, pad_right, pad_bottom, pad_left = padding
        height = size.height
        # The first and last lines made here (a border or padding above or below: not).
        self.top = max(1 if top else 0, gutter.top if pad_top else 0)
        self.bottom = min(height - 1 if bottom else height,
                          height - gutter.bottom if pad_bottom else height)
        self.gutter_top = gutter.top
        self.content_width, self.content_height = content_size
        self.pad_left, self.pad_right = pad_left, pad_right
        inner, outer = cache.get_inner_outer(base_background, background)
        self.inner = inner.rich_style
        self.left = self.right = None
        if left:
            self.left = get_box(left, inner, outer, Style(
                foreground=base_background + left_color.multiply_alpha(opacity)))[1][0]
        if right:
            self.right = get_box(right, inner, outer, Style(
                foreground=base_background + right_color.multiply_alpha(opacity)))[1][2]
        self.width = size.width


def _render_line(self: StylesCache, styles, y: int, size: Size, content_size: Size,
                 padding: Spacing, base_background, background, render_content_line,
                 border_title, border_subtitle, opacity: float, ansi_theme,
                 native_ansi: bool) -> Strip:
    """Textual's ``StylesCache.render_line``, a content line made from the plan."""
    key = (styles._cache_key, size, content_size, padding, base_background, background,
           opacity)
    plan: _Plan | None = self.__dict__.get("_quick_plan")
    if plan is None or plan.key != key:
        plan = self._quick_plan = _Plan(self, key, styles, size, content_size, padding,
                                        base_background, background, opacity)
    if not plan.quick or not plan.top <= y < plan.bottom:
        return _textual_render_line(self, styles, y, size, content_size, padding,
                                    base_background, background, render_content_line,
                                    border_title, border_subtitle, opacity, ansi_theme,
                                    native_ansi)
    inner = plan.inner
    content_y = y - plan.gutter_top
    if content_y < plan.content_height:
        line = render_content_line(content_y).adjust_cell_length(plan.content_width, inner)
    else:
        line = Strip.blank(plan.content_width, inner)
    if plan.pad_left or plan.pad_right:
        line = line_pad(line, plan.pad_left, plan.pad_right, inner)
    left, right = plan.left, plan.right
    if left is not None:
        line = [left, *line, right] if right is not None else [left, *line]
    elif right is not None:
        line = [*line, right]
    return Strip(line, plan.width)


def style_lines_quickly() -> None:
    """Make every widget of this process style its content lines from a plan (idempotent)."""
    StylesCache.render_line = _render_line  # type: ignore[method-assign]


__all__ = ["style_lines_quickly"]
