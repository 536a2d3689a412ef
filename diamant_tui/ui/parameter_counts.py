"""A callback's parameters counted once for each function, not at every call.

Textual calls its callbacks with as many arguments as they take, and counts them with
``inspect.signature``, keeping the count on the function. Most callbacks never keep it:
``call_later``, ``call_next`` and ``call_after_refresh`` wrap every callback in a new
``functools.partial`` (the count is kept on the partial, then thrown away with it), a
widget's mount waits on a new ``AwaitMount`` and a closure of its own, and every
signature costs 15 to 50 µs. A game's beginning made about twenty such counts for every
seat, a join about as many.

Here a partial's count is that of the function it wraps, less what it binds (the
function keeps its own), a callable object's is kept for its class, and a plain
function's for its code: every closure made by the same ``def`` takes the same
parameters. What ``inspect.signature`` would read elsewhere (a ``__signature__`` or a
``__wrapped__`` function) is left to Textual's own count. ``textual._callback`` and
``textual.reactive`` are private modules of Textual: this relies on its pinned minor
version.
"""

from __future__ import annotations

from functools import partial
from inspect import CO_VARARGS, CO_VARKEYWORDS
from types import FunctionType, MethodType
from typing import Callable

from textual import _callback, reactive

_textual_count_parameters = _callback.count_parameters
"""Textual's own count (tests compare), which keeps it on what it counted."""
_textual_signature_count = _callback._count_parameters
"""Textual's count from the signature alone."""

_BY_CODE: dict = {}
"""A plain function's parameters by its code (which lives as long as its module)."""
_BY_CLASS: dict[type, int] = {}
"""A callable object's parameters by its class."""


def _plain(func: object) -> bool:
    """Whether ``inspect.signature`` reads nothing of ``func`` but its code."""
    return (getattr(func, "__signature__", None) is None
            and getattr(func, "__wrapped__", None) is None)


def _own_call(kind: type) -> FunctionType | None:
    """The ``__call__`` a class's objects are called through, if it is a plain method
    (not a static or class method, not a wrapper)."""
    for base in kind.__mro__:
        call = base.__dict__.get("__call__")
        if call is not None:
            return call if type(call) is FunctionType and _plain(call) else None
    return None


def _of_code(func: FunctionType) -> int:
    code = func.__code__
    count = _BY_CODE.get(code)
    if count is None:
        flags = code.co_flags
        count = _BY_CODE[code] = (code.co_argcount + code.co_kwonlyargcount
                                  + bool(flags & CO_VARARGS) + bool(flags & CO_VARKEYWORDS))
    return count


def _count(func: Callable) -> int | None:
    """``len(inspect.signature(func).parameters)`` from what is kept, if ``func`` is a
    plain function, method or callable object (None otherwise)."""
    kind = type(func)
    if kind is MethodType:
        inner = func.__func__
        if type(inner) is FunctionType and _plain(inner):
            return _of_code(inner) - 1
    elif kind is FunctionType:
        if _plain(func):
            return _of_code(func)
    elif kind is not partial and not isinstance(func, type) and _plain(func):
        count = _BY_CLASS.get(kind)
        if count is None:
            call = _own_call(kind)
            if call is not None:
                count = _BY_CLASS[kind] = _of_code(call) - 1
        return count
    return None


def count_parameters(func: Callable) -> int:
    """How many parameters ``func`` takes, as Textual's ``count_parameters`` says."""
    try:
        return func._param_count  # type: ignore[attr-defined]
    except AttributeError:
        pass
    if type(func) is partial:
        inner = _count(func.func)
        if inner is None:
            inner = _textual_signature_count(func.func)
        return inner - (len(func.args) + len(func.keywords))
    count = _count(func)
    return _textual_count_parameters(func) if count is None else count


def count_parameters_once() -> None:
    """Make Textual count a callback's parameters as :func:`count_parameters` does
    (idempotent)."""
    _callback.count_parameters = count_parameters
    reactive.count_parameters = count_parameters


__all__ = ["count_parameters", "count_parameters_once"]
