"""Message pumps whose queue and events keep their waiters in lists, not deques.

Every Textual widget, screen and app is a message pump, and each makes three
``collections.deque`` on starting: its message queue's values, the event that says the
queue has something, and the event that says it is mounted. An empty deque is about
760 bytes (it allocates a block of 64 slots at once); an empty list is 56. Those queues
hold a message or two at a time, and the events a waiter or none, so the deques were
about 2 KiB per widget for nothing: some 45 KiB of every playing seat's app.

Here a pump's queue (:class:`LightQueue`) and both events (:class:`LightEvent`) keep
them in lists, with the same order and the same behaviour. Textual makes the queue and
the mounted event in ``MessagePump`` (its ``Queue`` name and ``_mounted_event``
property) and asyncio's ``Event`` keeps its waiters in ``_waiters``: this relies on the
pinned minor version of Textual and on asyncio's ``Event`` as Python 3.11 to 3.13 have it.
"""

from __future__ import annotations

import asyncio

from textual import message_pump
from textual._compat import cached_property
from textual._queue import Queue
from textual.message_pump import MessagePump


class _Values(list):
    """A list with the one deque method Textual's queue uses to take a value."""

    def popleft(self):
        """Remove and return the first value (a queue holds one or two at a time)."""
        return self.pop(0)


class LightEvent(asyncio.Event):
    """An asyncio ``Event`` whose waiters are a list (it appends, removes and goes
    through them in order, as with the deque)."""

    def __init__(self) -> None:
        super().__init__()
        self._waiters = []  # type: ignore[assignment]


class LightQueue(Queue):
    """Textual's message queue, with its values in a list and a :class:`LightEvent`."""

    def __init__(self) -> None:
        # Not Queue.__init__: its deque and Event are what this saves.
        self.values = _Values()  # type: ignore[assignment]
        self.ready_event = LightEvent()


def _mounted_event(self: MessagePump) -> asyncio.Event:
    return LightEvent()


def use_light_pump_queues() -> None:
    """Make every message pump of this process use :class:`LightQueue` and
    :class:`LightEvent` (idempotent)."""
    message_pump.Queue = LightQueue  # type: ignore[misc]
    mounted = cached_property(_mounted_event)
    mounted.__set_name__(MessagePump, "_mounted_event")
    MessagePump._mounted_event = mounted  # type: ignore[assignment]


__all__ = ["LightEvent", "LightQueue", "use_light_pump_queues"]
