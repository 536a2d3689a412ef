"""The table screen's containers, which draw nothing but their background, are drawn once
for every app showing the table, exactly as Textual draws them for one."""

from contextlib import AsyncExitStack

from textual.geometry import Region
from textual.widget import Widget

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from diamant_tui.ui.widgets.round_summary import RoundSummary
from ui_helpers import (FixedTable, after_disaster, drawn_lines, final_shown, mid_round, settled,
                        summary_shown, until, whole_game)

CONTAINERS = ("#table-columns", "#table-main", "#path-scroll", "#table-middle")


async def test_seats_at_a_table_share_the_lines_of_its_containers():
    """Two players at a table, at 80x24: the screen's background and its containers'
    lines are the same lines in both apps, not a copy each (with the pieces the
    compositor cuts them into), and they are the lines Textual would draw for one."""
    forget_shared_lines()
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = await _two_players(stack, table)
        ana, bruno = (pilot.app.screen for pilot in pilots)
        _same_lines_as_textual_draws(ana, bruno)
        for container in CONTAINERS:
            _same_lines_as_textual_draws(ana.query_one(container), bruno.query_one(container))


async def test_seats_share_the_blank_lines_of_the_round_summary_and_the_final_scores():
    """Around the round summary's box (over the whole table at every round's end) and in
    the final scores, the containers draw nothing but their background: two players at
    a table are given the same lines, not a copy each, as Textual draws them for one."""
    forget_shared_lines()
    table = FixedTable()
    async with AsyncExitStack() as stack:
        pilots = await _two_players(stack, table)
        after_disaster(table)
        for pilot in pilots:
            await until(pilot, lambda app=pilot.app: summary_shown(app))
            await settled(pilot)
        ana, bruno = (pilot.app.screen for pilot in pilots)
        _same_lines_as_textual_draws(ana.query_one(RoundSummary), bruno.query_one(RoundSummary))
        table.rematch()
        whole_game(table)
        for pilot in pilots:
            await until(pilot, lambda app=pilot.app: final_shown(app))
            await settled(pilot)
        for part in ("#final", "#final-box", "#final-buttons"):
            _same_lines_as_textual_draws(ana.query_one(part), bruno.query_one(part))


async def _two_players(stack: AsyncExitStack, table: FixedTable) -> list:
    """Ana's and Bruno's apps at ``table``, at 80x24, settled: their pilots."""
    pilots = []
    for seat in (0, 1):
        app = DiamantApp(lang="en", member=table.member(seat))
        pilots.append(await stack.enter_async_context(app.run_test(size=(80, 24))))
    for pilot in pilots:
        await settled(pilot)
    return pilots


def _same_lines_as_textual_draws(mine: Widget, theirs: Widget) -> None:
    """The two widgets' lines are the same lines, not a copy each, and they are what
    stock Textual draws for that widget alone."""
    assert mine.size == theirs.size and mine.size.area, mine
    lines = drawn_lines(mine)
    assert all(a is b for a, b in zip(lines, drawn_lines(theirs), strict=True)), mine
    own = Widget.render_lines(mine, Region(0, 0, *mine.size))
    assert [line.text for line in lines] == [line.text for line in own], mine
    assert [list(line) for line in lines] == [list(line) for line in own], mine
