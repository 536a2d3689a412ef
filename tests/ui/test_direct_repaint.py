"""The table screen's widgets hand their changes to the screen at once, and what changes
together is still drawn together, in one frame."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.players import PlayerList, PlayersState
from diamant_tui.ui.widgets.round_bar import BarState, RoundBar

from ui_helpers import FixedTable, FrameCounter, H, T, mid_round, settled, summary_shown

ESCAPES = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


async def test_a_changed_widget_is_among_the_screens_next_drawing_at_once():
    """No message to the widget's own loop and back to the screen first: the screen
    knows as soon as the widget's state is set."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = app.screen
        players = screen.query_one(PlayerList)
        assert players not in screen._dirty_widgets
        view = screen.view
        players.state = PlayersState(view, frozenset({1}), players.state.people)
        assert players in screen._dirty_widgets
        await settled(pilot)
        assert "☾" in "".join(  # drawn: the away mark on Bruno's row
            segment.text for strip in players.render_lines(players.size.region)
            for segment in strip)


async def test_a_round_ending_is_drawn_with_its_summary_in_one_frame():
    """The last card of a round, the path, the players, the deck and the summary laid
    over them: one frame, not the card and then the summary (the deck's panel, a line
    shorter, is laid out again after it, as Textual does)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        table.decide(Ana="continue")
        await settled(pilot)
        frames = FrameCounter(app)
        table.reveal(H("lava"))  # the second lava: a disaster ends the round
        await settled(pilot)
        assert summary_shown(app)
        first = ESCAPES.sub("", frames.sent[0])
        assert "Round 2 of 5 is over" in first and "DISASTER!" in first
        frames.reset()
        await pilot.press("enter")  # closed: the table again, in one frame
        await settled(pilot)
        assert not summary_shown(app) and frames.frames == 1
        frames.reset()
        table.reveal(T(5))  # the next round's first card
        await settled(pilot)
        assert frames.frames == 1


async def test_a_widget_drawn_again_whole_asks_its_screen_nothing_of_its_size(monkeypatch):
    """Marking a whole widget for drawing empties its cache of lines: Textual also asked
    for its size, through the screen's map, at every change of every widget. Asked
    nothing, the widget is still drawn again, whole, with its new state."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        screen = app.screen
        bar = screen.query_one(RoundBar)
        asked = []
        find_widget = type(screen).find_widget
        monkeypatch.setattr(type(screen), "find_widget",
                            lambda self, widget: (asked.append(widget), find_widget(self, widget))[1])
        bar.state = BarState.of(replace(screen.view, step=screen.view.step + 10))
        assert asked == [] and bar in screen._dirty_widgets
        assert bar._repaint_regions == {bar.outer_size.region}
        await settled(pilot)
        drawn = "".join(segment.text for strip in bar.render_lines(bar.size.region)
                        for segment in strip)
        assert f"card {bar.state.step}" in drawn


async def _frames_reach(frames: FrameCounter, count: int) -> None:
    """Wait until ``count`` frames are written, then a few of the screen's timer periods
    more. (The pilot's own waits post to the screen, and the screen leaves an update
    whose handling finds messages waiting to be drawn at its idle, with them.)"""
    for _ in range(400):
        if frames.frames >= count:
            break
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.1)


async def test_a_table_update_is_drawn_as_it_is_handled_not_at_the_screens_timer(monkeypatch):
    """A table's update is drawn at the end of its handling: the screen's update timer
    (a turn of the event loop, and its sleep another) never wakes for it, and the
    screen handles no other message for it (no prompt to go idle). Updates that wait for
    the screen together are still drawn in one frame."""
    from textual.timer import Timer

    ticks: list[str] = []
    tick = Timer._tick

    async def counted(self, **kwargs):
        ticks.append(self.name)
        return await tick(self, **kwargs)

    monkeypatch.setattr(Timer, "_tick", counted)
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        handled: list[str] = []
        app.screen.message_signal.subscribe(
            app.screen, lambda message: handled.append(type(message).__name__), immediate=True)
        frames = FrameCounter(app)
        ticks.clear()
        table.decide(Ana="continue")  # her own choice
        await _frames_reach(frames, 1)
        table.reveal(T(4))  # a card
        await _frames_reach(frames, 2)
        assert frames.frames == 2 and "4" in ESCAPES.sub("", frames.sent[-1])
        assert "screen_update" not in ticks, ticks
        assert handled == ["TableUpdated", "TableUpdated"], handled
        frames.reset()
        table.everyone("continue")
        table.reveal(T(7))  # two updates waiting together
        await _frames_reach(frames, 1)
        assert frames.frames == 1 and "7" in ESCAPES.sub("", frames.sent[0])
        assert "screen_update" not in ticks, ticks
