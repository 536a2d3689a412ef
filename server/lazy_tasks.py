"""Tasks on the server's loop start when the loop comes to them, as asyncssh expects.

From Python 3.12 on, Textual's ``App.run_async`` sets asyncio's eager task factory on the
running loop: a new task then runs at once, inside ``create_task``, up to its first wait.
For one app in a loop of its own that saves a turn of the loop. On the server every
session's app and asyncssh share one loop, and asyncssh's authentication does not survive
eager tasks: once a first app had started, the next person's key was never answered, so
nobody else could log in (Python 3.12 and 3.13; 3.11 has no eager tasks).

:func:`keep_tasks_lazy` has the server's loop refuse that factory while the server runs.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable


def keep_tasks_lazy(loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """Make ``loop`` refuse asyncio's eager task factory (and drop it if set); returns
    what undoes that. (Python 3.11 has no such factory: then nothing is refused.)"""
    set_factory = type(loop).set_task_factory.__get__(loop)

    def is_eager(factory: Any) -> bool:
        return factory is not None and factory is getattr(asyncio, "eager_task_factory", None)

    def set_task_factory(factory: Any) -> None:
        if not is_eager(factory):  # an app asks for it, made for a loop of its own
            set_factory(factory)

    if is_eager(loop.get_task_factory()):
        set_factory(None)
    loop.set_task_factory = set_task_factory  # type: ignore[method-assign]
    return lambda: loop.__dict__.pop("set_task_factory", None)
