"""A seat's table shows in few turns of the event loop, in one frame.

On a server every session's app shares one event loop: each turn an app waits for, it
waits behind whatever every other session has ready, so the turns a join takes are what
made people wait seconds as they joined a busy server, while the cards of those already
playing (three turns each) kept time. Turns are counted here, not seconds.
"""

from __future__ import annotations

import asyncio
from asyncio import base_events

from textual.app import App
from textual.widget import AwaitMount
from textual.widgets import Static

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.waiting import WaitingPanel


async def _turns_to_the_waiting_table(monkeypatch) -> tuple[int, list[bool]]:
    """The turns of the event loop from an app's start to its first frame showing the
    waiting table, and each frame drawn meanwhile (whether it showed the table's state)."""
    turns = [0]
    run_once = base_events.BaseEventLoop._run_once

    def counted(loop):
        turns[0] += 1
        return run_once(loop)

    frames: list[bool] = []
    display = App._display

    def displayed(app, screen, renderable):
        if renderable is not None:
            panels = screen.query(WaitingPanel)
            frames.append(bool(panels) and panels.first().state is not None)
        return display(app, screen, renderable)

    monkeypatch.setattr(base_events.BaseEventLoop, "_run_once", counted)
    monkeypatch.setattr(App, "_display", displayed)
    table = Table(TableSettings(name="t", seats=3, bots=("ev",), pace=0.05, seed=3),
                  creator="zoe")
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    start = turns[0]
    running = asyncio.create_task(app.run_async(headless=True, size=(80, 24)))
    try:
        for _ in range(1000):
            await asyncio.sleep(0)
            if any(frames):
                break
        shown_at = turns[0] - start
    finally:
        app.exit()
        await running
        await table.close()
    assert any(frames), "the waiting table was never shown"
    return shown_at, frames


async def test_a_seat_sees_its_waiting_table_in_a_few_turns_and_one_frame(monkeypatch):
    """Textual waited for every widget it mounted with a task of its own, three turns a
    level of the screen's widgets: 30 turns to show a table. And the first frame showed
    the table with its state: the table's first update is shown before it, not as a
    message after it (a frame without it, then one with it)."""
    turns, frames = await _turns_to_the_waiting_table(monkeypatch)
    assert turns <= 15, turns
    assert frames == [True]


async def test_a_mount_waited_for_lays_its_parent_out_once_and_leaves_nothing_behind():
    """The caller's wait and the copy Textual hands the parent both end once the widgets
    are mounted; only one asks for the parent's layout. A wait cancelled before the
    widgets are mounted leaves no task waiting."""

    class Probe(App):
        def compose(self):
            yield Static("first", id="first")

    app = Probe()
    async with app.run_test() as pilot:
        screen = app.screen
        asked: list[bool] = []
        refresh = screen.refresh

        def counting_refresh(*regions, layout: bool = False, **kwargs):
            asked.append(layout)
            return refresh(*regions, layout=layout, **kwargs)

        screen.refresh = counting_refresh  # type: ignore[method-assign]
        mounting = screen.mount(Static("second"))
        await mounting
        await pilot.pause()
        assert asked.count(True) == 1
        assert len(screen.query(Static)) == 2
        tasks_before = len(asyncio.all_tasks())
        waiting = asyncio.ensure_future(_wait(screen))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.sleep(0)
        assert len(asyncio.all_tasks()) <= tasks_before


async def _wait(screen) -> None:
    """Wait for a widget that is never mounted."""
    await AwaitMount(screen, [Static("never mounted")])
