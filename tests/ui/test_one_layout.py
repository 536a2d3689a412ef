"""The table screen's layouts, counted. A card that gives the path another row lays the
screen out only when the path needs more than the cave's area (below that it redraws the
path's own lines); a widget given another size by a layout asks for no second one; the
game's end is one layout, the first time too."""

from contextlib import asynccontextmanager
from dataclasses import replace

from diamant_tui.table import Table, TableSettings, TableUpdate

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.cave_path import CavePath
from diamant_tui.ui.widgets.deck_info import DeckInfo
from diamant_tui.ui.widgets.round_summary import RoundSummary
from ui_helpers import (FixedTable, FrameCounter, H, T, final_shown, mid_round,
                        screen_layouts, screen_text, settled, summary_shown, until,
                        whole_game)


async def test_the_path_taking_another_row_lays_nothing_out_until_it_fills_the_area(monkeypatch):
    """Cards are revealed until the path is taller than its area. Each row it took
    within the area cost no layout (the path and the feed under it used to be two
    widgets, and the screen was laid out again whenever the path took a row), and the
    round's earlier lines stayed under the cards; the row past the area made the path
    taller and scrollable, scrolled to its end."""
    layouts = screen_layouts(monkeypatch)
    table = mid_round(FixedTable())
    table.decide(Ana="continue")
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        path = app.screen.query_one(CavePath)
        area = path.size.height
        within: list[int] = []
        past: list[int] = []
        cards = [T(v) for v in (1, 3, 4, 14, 15, 17, 5, 7, 9, 11)]
        for card in cards:
            rows = path.get_content_height(path.size, app.size, path.size.width)
            layouts.clear()
            table.reveal(card)
            await until(pilot, lambda card=card: len(path.path) and path.path[-1].card == card)
            await settled(pilot)
            if path.get_content_height(path.size, app.size, path.size.width) != rows:
                within.append(len([s for s in layouts if s is app.screen]))
                # The feed: the round's earlier lines, under the path's last row.
                feed = screen_text(app).split("╯")[-1].split("────")[0]
                assert "Continue: Ana" in feed or "Round 2 begins" in feed, feed
            table.everyone("continue")
            await settled(pilot)
        assert path.size.height == area
        assert within == [0, 0], within
        # The stacked deck holds too few cards for a path taller than the area: the same
        # cards twice over stand for one.
        layouts.clear()
        view = table.game.view_for(0)
        longer = replace(view, path=view.path * 2)
        for _, callback in table.subscribers:
            callback(TableUpdate(longer, (), table.seats, table.status, (), seat=0))
        await until(pilot, lambda: path.path == longer.path)
        await settled(pilot)
        assert path.size.height > area
        assert [s for s in layouts if s is app.screen]
        scroll = app.screen.query_one("#path-scroll")
        assert scroll.scroll_y == scroll.max_scroll_y > 0


async def test_a_card_that_grows_the_deck_panel_lays_the_screen_out_once(monkeypatch):
    """Hazard types seen make the deck panel take lines (the middle row and the cave's
    area change size with it). One layout places them all: the widgets' new sizes asked
    for a second one, a frame later, for every seat at the table."""
    layouts = screen_layouts(monkeypatch)
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        deck = app.screen.query_one(DeckInfo)
        grown: list[int] = []
        for hazard in ("spiders", "snakes", "lava", "boulders"):
            height = deck.size.height
            layouts.clear()
            table.reveal(H(hazard))
            await until(pilot, lambda hazard=hazard: hazard in str(deck.state.hazards_showing).lower())
            await settled(pilot)
            if deck.size.height != height:
                grown.append(len([s for s in layouts if s is app.screen]))
            table.everyone("continue")
            await settled(pilot)
        assert grown and set(grown) == {1}, grown
        # Laid out right in that one layout: the panel has the lines it needs.
        assert deck.size.height == deck._line_count(deck.size.width)


async def test_the_first_round_summary_lays_nothing_out(monkeypatch):
    """The summary's box took the size of its words in the layout that showed the game
    (every summary of a game has as many lines, most within the box's least width): the
    first summary lays nothing out (it was one layout for every seat), and no whole
    screen is sent for it."""
    layouts = screen_layouts(monkeypatch)
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        table.reveal(T(9))
        table.everyone("continue")
        await settled(pilot)
        layouts.clear()
        frames = FrameCounter(app)
        table.reveal(T(5))
        table.everyone("leave")
        await until(pilot, lambda: summary_shown(app))
        await settled(pilot)
        assert [s for s in layouts if s is app.screen] == [], layouts
        assert frames.frames and frames.full == 0
        box = app.screen.query_one("#summary-box")
        # The whole summary fits its box: a title, three lines, a blank, a heading and
        # four players, a blank and the hint.
        assert box.size.height == box.get_content_height(box.size, app.size, box.size.width) == 11
        # Nor does the next.
        await pilot.press("enter")
        await settled(pilot)
        table.reveal(T(11))
        table.everyone("continue")
        table.reveal(T(13))
        table.everyone("leave")
        await until(pilot, lambda: summary_shown(app))
        await settled(pilot)
        assert "Round 2 of 5 is over" in screen_text(app)
        assert [s for s in layouts if s is app.screen] == [], layouts


async def test_the_games_end_lays_the_screen_out_once_the_scores_are_made(monkeypatch):
    """The final scores lie over the cave, under a veil. At the first game's end they are
    made, veiled, and shown in the one layout that places them (made as the cave was
    hidden, they took two or three: the scores placed, then their parts, then their
    sizes). After a rematch the next game's end lays out nothing: the veil comes off
    with the new scores (hiding the cave for them laid the screen out twice a game).
    Each game's end reaches the terminal as one frame, the Rematch button focused in it
    (Textual's focus() waits for the app's pending messages: the focused look came a
    frame after the scores)."""
    layouts = screen_layouts(monkeypatch)
    table = whole_game(FixedTable(), last_card=False)
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        counts, frames = [], []
        for game in range(2):
            await settled(pilot)
            layouts.clear()
            counter = FrameCounter(app)
            table.reveal(H("boulders"))  # the second: the fifth round, and the game, end
            await until(pilot, lambda: final_shown(app))
            await settled(pilot)
            counts.append(len([s for s in layouts if s is app.screen]))
            frames.append(counter.frames)
            app._display = counter._display  # (the next game's end is counted afresh)
            text = screen_text(app)
            assert "Final scores" in text and "Ana" in text and "Rematch" in text
            assert app.focused.id == "rematch"
            table.rematch()
            await until(pilot, lambda: not final_shown(app))
            await settled(pilot)
            assert "Final scores" not in screen_text(app)
            whole_game(table, last_card=False)
        assert counts == [1, 0], counts
        assert frames == [1, 1], frames


@asynccontextmanager
async def _ann_waiting(seats: int):
    """Ann alone at a waiting table of ``seats`` (one computer player), her screen
    settled: yields the table, her app and its pilot."""
    table = Table(TableSettings(name="den", seats=seats, bots=("cards:3",), pace=0.05, seed=5))
    app = DiamantApp(lang="en", member=table.sit("Ann", "key-ann"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Ann" in screen_text(app))
            await settled(pilot)
            yield table, app, pilot
    finally:
        await table.close()


async def test_a_game_beginning_at_a_waiting_table_lays_the_screen_out_once(monkeypatch):
    """The game's parts are mounted as the game begins, where the waiting panel stood.
    One layout places and sizes them all. The buttons, the note, the banner and the
    player list, given their first size, each asked for a second layout; so did the
    waiting panel as it was hidden, and Textual's second wait for the mount: each a
    frame later, for every seat at the table."""
    layouts = screen_layouts(monkeypatch)
    async with _ann_waiting(seats=3) as (table, app, pilot):
        layouts.clear()
        table.sit("Bob", "key-bob")  # the last seat: the game begins
        await until(pilot, lambda: app.screen.view is not None
                    and app.screen.view.decision_due)
        await settled(pilot)
        assert len([s for s in layouts if s is app.screen]) == 1, layouts
        text = screen_text(app)
        assert "Continue [c]" in text and "Bob" in text and "Deck" in text


async def test_a_seat_taken_at_a_waiting_table_lays_nothing_out(monkeypatch):
    """The waiting panel fills the column whatever it says: a person sitting down
    redraws its words, and lays the screen out for no one already waiting."""
    layouts = screen_layouts(monkeypatch)
    async with _ann_waiting(seats=4) as (table, app, pilot):
        layouts.clear()
        frames = FrameCounter(app)
        table.sit("Bob", "key-bob")
        await until(pilot, lambda: "Bob" in screen_text(app))
        await settled(pilot)
        assert [s for s in layouts if s is app.screen] == []
        assert frames.frames and frames.full == 0


async def test_the_round_summary_is_fitted_to_the_terminal_before_its_first_layout(
        monkeypatch):
    """The summary stands over the table down to the footer's line. Fitted only once the
    first layout had given it a size, it asked every joining seat for another layout;
    fitted as it is mounted, the first layout finds it at its height already."""
    heights = []  # the summary's height as each size given by a layout finds it
    size_updated = RoundSummary._size_updated

    def sized(self, size, *args, **kwargs):
        heights.append(self.styles.height and self.styles.height.value)
        return size_updated(self, size, *args, **kwargs)

    monkeypatch.setattr(RoundSummary, "_size_updated", sized)
    table = FixedTable()
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        summary = app.screen.query_one(RoundSummary)
        assert heights and heights[0] == 23
        assert summary.size.height == 23

