"""Waiting for widgets to be mounted without a task for each of them.

A widget that composes others, and anything that mounts widgets, waits until all of them
are mounted (Textual's ``AwaitMount``). Textual made an asyncio task for each widget, to
wait on the event that says it is mounted, then waited for all those tasks: each task
takes a turn of the event loop to start, another when its event is set, and the wait a
third once the last is done. A table's screen composes five levels deep (the screen, its
columns, the main column, the rows in it, their parts), so a seat's app took about 30
turns of the event loop to show its table, each behind whatever every other session on
the server had ready: under load, that was what kept people waiting for seconds as they
joined, while the cards of those already playing (three turns each) kept time.

Here the wait goes through the widgets' events in turn: an event already set costs no
turn at all, and one not yet set one turn when it is. What is waited for is the same
(every widget mounted, then the parent laid out again), and a wait cancelled leaves no
task behind.

Textual waits twice on the widgets of each mount: the caller's wait (a composing widget
awaits its children), and a copy it hands the parent as its next callback, for callers
that do not wait. Both asked the parent for a layout once the widgets were mounted. The
tasks made them finish together, before the screen's next layout; waits this quick let
the copy finish after it, and its layout of the screen was one more for every seat (the
final scores, at a game's end). Only the first of the two to finish asks now. Nor does a
widget ask for its own layout once the children it composes are mounted (it is not
mounted yet itself): asked then, the request reached the screen only when the widget's
own loop was next idle, which now came after the screen had laid it out, with them, as
the mount of the widget itself asked.

``AwaitMount.__await__`` is Textual's: this relies on the pinned minor version of
Textual.
"""

from __future__ import annotations

from collections.abc import Generator

from textual.dom import NoScreen
from textual.widget import AwaitMount


def _await_mount(self: AwaitMount) -> Generator[None, None, None]:
    async def await_mount() -> None:
        if self._widgets:
            for widget in self._widgets:
                # Returns at once when the widget is mounted already.
                await widget._mounted_event.wait()
            if self.__dict__.get("_laid_out") or not self._parent._is_mounted:
                # The other of the two waits on these widgets asked already; or the
                # parent is composing them, not mounted yet: whatever mounts the parent
                # asks for the layout that places it, with them, once it is mounted.
                return
            self._laid_out = True
            self._parent.refresh(layout=True)
            try:
                self._parent.app._update_mouse_over(self._parent.screen)
            except NoScreen:
                pass

    return await_mount().__await__()


def wait_for_mounts_in_turn() -> None:
    """Make every wait for widgets to be mounted in this process go through their events
    in turn, without a task each (idempotent)."""
    AwaitMount.__await__ = _await_mount  # type: ignore[method-assign]


__all__ = ["wait_for_mounts_in_turn"]
