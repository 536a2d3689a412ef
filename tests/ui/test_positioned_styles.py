"""A run of text's style in its place is made once: the same Rich style as Textual makes,
given again for the same style and place."""

from __future__ import annotations

from textual.color import Color
from textual.geometry import Region
from textual.style import Style

import diamant_tui.ui  # noqa: F401  (the interface sets its styles up as it loads)
from diamant_tui.ui import DiamantApp
from diamant_tui.ui import positioned_styles
from diamant_tui.ui.widgets.event_banner import EventBanner
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from ui_helpers import FixedTable, mid_round, screen_segments, settled


def test_the_same_style_in_the_same_place_is_the_same_rich_style_as_textuals():
    style = Style(background=Color.parse("#121212"), foreground=Color.parse("#ffa62b"),
                  bold=True)
    made = style.rich_style_with_offset(3, 1)
    assert made == positioned_styles._rich_style_with_offset(style, 3, 1)
    assert made.meta["offset"] == (3, 1) and made.bold
    same = Style(background=Color.parse("#121212"), foreground=Color.parse("#ffa62b"),
                 bold=True)  # another object, equal
    assert same.rich_style_with_offset(3, 1) is made
    assert style.rich_style_with_offset(4, 1) is not made
    assert style.rich_style_with_offset(4, 1).meta["offset"] == (4, 1)


async def test_a_banner_drawn_again_from_kept_styles_reads_as_drawn_anew():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        banner = app.screen.query_one(EventBanner)
        whole = Region(0, 0, *banner.size)
        first = [list(line) for line in banner.render_lines(whole)]
        screen = screen_segments(app)
        forget_shared_lines()
        banner._styles_cache.clear()
        banner.refresh()  # drawn anew, its runs' styles taken from those kept
        await settled(pilot)
        again = [list(line) for line in banner.render_lines(whole)]
        assert screen_segments(app) == screen
    assert again == first and again[1][0] is not first[1][0]
    offsets = [seg.style.meta["offset"] for line in again for seg in line
               if seg.style is not None and "offset" in seg.style.meta]
    assert offsets  # their places are kept, for selecting text with the mouse
