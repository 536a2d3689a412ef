"""The key bar: a click presses the key drawn under it."""

from rich.cells import cell_len

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.key_bar import KeyBar, KeyGroup, KeyHint
from replay_helpers import den_meta, played_game, recorded
from ui_helpers import FixedTable, mid_round, screen_text, settled


def check_spans(app) -> None:
    """Each key's span (what a click on it presses, what is redrawn when it is dimmed)
    covers that key as the bar's line shows it, its words too when they are its own, and
    no two spans overlap."""
    bar = app.screen.query_one(KeyBar)
    line = screen_text(app).splitlines()[-1]
    assert cell_len(line) == len(line)  # one cell a character: columns index the text
    grouped = {id(h) for item in bar.keys if isinstance(item, KeyGroup) for h in item.keys}
    end_before = 0
    for start, end, hint in bar._spans:
        assert start >= end_before, bar._spans
        shown = line[start:end]
        assert shown.strip().startswith(hint.display), (shown, hint)
        if id(hint) not in grouped:
            assert shown == f" {hint.display} {hint.words} ", (shown, hint)
        end_before = end
    hints = [h for item in bar.keys for h in ((item,) if isinstance(item, KeyHint) else item.keys)]
    assert [hint for _, _, hint in bar._spans] == hints


async def test_the_keys_lie_where_they_are_drawn_at_a_table():
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        check_spans(app)


async def test_the_keys_lie_where_they_are_drawn_in_a_replay_whose_step_keys_are_a_group():
    app = DiamantApp(lang="en", replay=recorded(played_game(), den_meta()))
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        assert any(isinstance(item, KeyGroup) for item in app.screen.query_one(KeyBar).keys)
        check_spans(app)
