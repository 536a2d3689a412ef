"""Message pumps keep their queue and events in lists: the same order, less memory."""

from __future__ import annotations

import asyncio
import tracemalloc
from collections import deque

from textual._queue import Queue
from textual.message_pump import MessagePump

from diamant_tui.ui import DiamantApp
from ui_helpers import FixedTable, mid_round, settled


def pump_holdings(pump: MessagePump) -> list:
    """What a pump's queue and events keep their values and waiters in."""
    queue = pump._message_queue
    return [queue.values, queue.ready_event._waiters, pump._mounted_event._waiters]


async def test_every_widget_of_a_seat_queues_its_messages_in_no_deque():
    """A player's app during a round: no widget's queue or event holds a deque, and the
    app plays (a key pressed reaches the table)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        pumps = [app, *app.screen.walk_children(with_self=True)]
        assert len(pumps) > 15
        for pump in pumps:
            assert not any(isinstance(held, deque) for held in pump_holdings(pump)), pump
        await pilot.press("l")
        await settled(pilot)
        assert table.submitted and table.submitted[-1][1].value == "leave"


async def test_a_queue_hands_out_its_messages_in_order_and_wakes_its_reader():
    pump = MessagePump()
    queue = pump._message_queue
    got = []

    async def read(count: int) -> None:
        for _ in range(count):
            got.append(await queue.get())

    reader = asyncio.create_task(read(3))
    await asyncio.sleep(0)  # the reader waits on the empty queue
    for value in ("a", "b", "c"):
        queue.put_nowait(value)
    await asyncio.wait_for(reader, 1)
    assert got == ["a", "b", "c"] and queue.empty() and not queue.ready_event.is_set()


def weight(make, count: int = 300) -> float:
    """Bytes allocated, on average, by one call of ``make``."""
    [make() for _ in range(10)]  # warm up
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        made = [make() for _ in range(count)]
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert len(made) == count
    return sum(s.size_diff for s in after.compare_to(before, "filename")) / count


def test_a_pumps_queue_and_events_weigh_a_fraction_of_stock_ones():
    """Textual's queue and asyncio's events, with a deque each, were about 2.3 KB for
    every widget; with lists, a third of that or less.

    What the pump's own properties make is weighed, not the pump: storing them on it can
    also grow its ``__dict__`` (by whether Python still shares its keys with other pumps),
    which depends on the tests that ran before in the process, not on the queues."""
    pump = MessagePump()
    make_queue = vars(MessagePump)["_message_queue"].func
    make_mounted = vars(MessagePump)["_mounted_event"].func
    light = weight(lambda: (make_queue(pump), make_mounted(pump)))
    stock = weight(lambda: (Queue(), asyncio.Event()))
    assert isinstance(make_queue(pump).values, list)
    assert light < stock / 3, (light, stock)
