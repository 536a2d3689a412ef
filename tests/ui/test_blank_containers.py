"""The table screen's containers, which draw nothing but their background, are drawn once
for every app showing the table, exactly as Textual draws them for one."""

from contextlib import AsyncExitStack

from textual.geometry import Region
from textual.widget import Widget

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from ui_helpers import FixedTable, drawn_lines, mid_round, settled

CONTAINERS = ("#table-columns", "#table-main", "#path-scroll", "#table-middle")


async def test_seats_at_a_table_share_the_lines_of_its_containers():
    """Two players at a table, at 80x24: the screen's background and its containers'
    lines are the same lines in both apps, not a copy each (with the pieces the
    compositor cuts them into), and they are the lines Textual would draw for one."""
    forget_shared_lines()
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = []
        for seat in (0, 1):
            app = DiamantApp(lang="en", member=table.member(seat))
            pilots.append(await stack.enter_async_context(app.run_test(size=(80, 24))))
        for pilot in pilots:
            await settled(pilot)
        ana, bruno = (pilot.app.screen for pilot in pilots)
        pairs = [(ana, bruno)] + [(ana.query_one(c), bruno.query_one(c)) for c in CONTAINERS]
        for mine, theirs in pairs:
            assert mine.size == theirs.size and mine.size.area, mine
            lines = drawn_lines(mine)
            assert all(a is b for a, b in zip(lines, drawn_lines(theirs), strict=True)), mine
            # What stock Textual draws for that widget alone.
            own = Widget.render_lines(mine, Region(0, 0, *mine.size))
            assert [line.text for line in lines] == [line.text for line in own], mine
            assert [list(line) for line in lines] == [list(line) for line in own], mine
