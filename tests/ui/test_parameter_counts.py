"""A callback's parameters are counted as Textual counts them, and once per function:
a game's beginning, once one has been seen, reads no signature."""

from __future__ import annotations

import inspect
from functools import partial, wraps

import pytest
from textual import _callback, reactive

from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp, parameter_counts
from diamant_tui.ui.parameter_counts import count_parameters
from diamant_tui.ui.widgets.waiting import WaitingPanel
from ui_helpers import until


def _function(a, b, *more, c, **named):
    """Four kinds of parameter."""


@wraps(_function)
def _wrapper(*args, **kwargs):
    """Its signature is the wrapped function's."""


class _Callable:
    def __call__(self, x):
        """A callable object."""

    def method(self, a, b=1):
        """A method with a default."""

    @staticmethod
    def static(a):
        """No self."""

    @classmethod
    def of_class(cls, a, b):
        """A class bound."""


class _StaticCall:
    __call__ = staticmethod(lambda a, b: None)


def _callables() -> list:
    thing = _Callable()

    def closure(one, two, three):
        """A closure, as Textual makes them in its methods."""

    return [
        _function, _wrapper, closure, thing, _StaticCall(), thing.method, _Callable.static,
        _Callable.of_class, _Callable, lambda: None, lambda x=1: None,
        partial(_function, 1), partial(thing.method, 1), partial(thing.method, b=2),
        partial(partial(_function, 1), 2), partial(partial(_function, b=1), 2),
        partial(_wrapper, 1), partial(thing, 1), partial(closure, 1, 2),
    ]


@pytest.mark.parametrize("index", range(len(_callables())))
def test_every_kind_of_callback_counts_as_textual_counts_it(index):
    ours = count_parameters(_callables()[index])
    textuals = parameter_counts._textual_count_parameters(_callables()[index])
    assert ours == textuals


def test_textual_counts_with_it():
    assert _callback.count_parameters is count_parameters
    assert reactive.count_parameters is count_parameters


async def _begin_a_game(index: int) -> None:
    """A waiting table's first person, then a second sits and the game begins, until
    the first person's choice is due (as ``benchmarks/join_costs.py``)."""
    table = Table(TableSettings(name=f"t{index}", seats=3, bots=("ev",), pace=0.05, seed=3),
                  creator="zoe")
    app = DiamantApp(lang="en", member=table.sit("Zoe", "zoe"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: bool(app.screen.query(WaitingPanel))
                        and app.screen.query_one(WaitingPanel).state is not None)
            table.sit("Max", "max")
            await until(pilot, lambda: getattr(app.screen, "view", None) is not None
                        and app.screen.view.decision_due)
    finally:
        await table.close()


async def _signatures_read(monkeypatch, index: int) -> int:
    read = []

    def counted(func, *args, **kwargs):
        read.append(func)
        return inspect.signature(func, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(_callback, "signature", counted)
        await _begin_a_game(index)
    return len(read)


async def test_a_game_beginning_reads_no_signature_once_one_has_been_seen(monkeypatch):
    await _begin_a_game(0)
    # Textual's own count reads one for every callback a call_later wraps, every time.
    with monkeypatch.context() as patch:
        patch.setattr(_callback, "count_parameters", parameter_counts._textual_count_parameters)
        assert await _signatures_read(monkeypatch, 1) > 10
    assert await _signatures_read(monkeypatch, 2) == 0
