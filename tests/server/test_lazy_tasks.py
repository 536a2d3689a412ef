"""The server's one loop keeps lazy tasks although each app asks for eager ones: asyncssh's
authentication does not survive eager tasks, and from Python 3.12 on, a first app running
left the next person's key unanswered."""

from __future__ import annotations

import asyncio

import pytest


def stand_in_factory(loop, coro, **options):
    """Takes the place of asyncio's eager task factory before Python 3.12 (which has none):
    an ordinary task, so that the test sees only whether the loop took the factory."""
    return asyncio.Task(coro, loop=loop, **options)


@pytest.fixture
def eager_factory(monkeypatch):
    """The factory Textual's ``App.run_async`` sets on the running loop: asyncio's own
    from Python 3.12 on, the stand-in before (Textual sets it whenever asyncio has one)."""
    if hasattr(asyncio, "eager_task_factory"):
        return asyncio.eager_task_factory
    monkeypatch.setattr(asyncio, "eager_task_factory", stand_in_factory, raising=False)
    return stand_in_factory


async def test_a_second_person_logs_in_while_a_first_app_runs(server, players, make_key,
                                                               eager_factory):
    """Ann's app runs (and asks the loop for eager tasks); Bea can still log in and play,
    and the loop's task factory is the one it had."""
    loop = asyncio.get_running_loop()
    ann, bea = players("ann"), players("bea")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3")
    await ann.wait_for("den")
    assert loop.get_task_factory() is not eager_factory
    await bea.connect(server.port, key=make_key(), command="play den")
    await bea.wait_for("bea")
    await ann.wait_for("bea")
    assert loop.get_task_factory() is not eager_factory


async def test_the_loop_takes_any_factory_again_once_the_server_stops(server, eager_factory):
    """Only while the server runs, and only the eager factory, is refused."""
    loop = asyncio.get_running_loop()
    loop.set_task_factory(eager_factory)
    assert loop.get_task_factory() is None

    def other_factory(loop, coro, **options):
        return asyncio.Task(coro, loop=loop, **options)

    loop.set_task_factory(other_factory)
    assert loop.get_task_factory() is other_factory
    loop.set_task_factory(None)
    await server.stop()
    try:
        loop.set_task_factory(eager_factory)
        assert loop.get_task_factory() is eager_factory
    finally:
        loop.set_task_factory(None)
