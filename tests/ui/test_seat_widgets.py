"""A seat's app mounts no widget that draws nothing a player sees: every widget is a
message pump of its own (a task, a queue, styles, caches and lines), some 25 KiB each."""

from diamant_tui.ui import DiamantApp
from ui_helpers import FixedTable, mid_round, settled

PLAYING_WIDGETS = 20
"""The widgets of a playing seat's table screen at 80x24, the screen included."""


async def test_a_playing_seat_holds_only_the_widgets_its_table_needs():
    """A player at 80x24 during a round: the round bar, the path (in its scrolling area),
    the players, the deck, the banner, the decision, the chat box, the key bar, and the
    hidden summary and waiting panel; no box around the path, no game log until it is
    opened, no size overlay until the terminal is too small."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        widgets = list(app.screen.walk_children(with_self=True))
        assert len(widgets) <= PLAYING_WIDGETS, [type(w).__name__ for w in widgets]
