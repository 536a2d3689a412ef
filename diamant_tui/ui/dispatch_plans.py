"""Which methods handle a message, looked up once per kind of widget and message.

Every message a widget or screen handles (a refresh, a resize, a key, a table's update)
is dispatched by Textual to the handlers found along the class's whole method
resolution order: two dictionary look-ups and a walk over the message's own classes for
each of the dozen classes of a screen, at every message. A seat's app handles about
twenty messages a frame, and that walk was about 3 % of a server's CPU under load.

What it finds depends only on the class, the message's class and the handler's name, so
here it is found once and kept as a plan: for each class that has something, its
decorated handlers (``@on``) for the message and its handler by name. The plan is then
carried out as Textual carries out its walk, at every message, with what depends on the
message itself: a handler that ``prevent_default()`` stops the classes after it, an
``@on`` handler with selectors is matched against the message's widgets, and a decorated
method is called once. ``MessagePump._get_dispatch_methods`` is private: this relies on
the pinned minor version of Textual. Handlers are looked up on the classes as they stand
when a kind of message is first dispatched to a kind of widget; the interface never adds
or replaces a handler on a class afterwards.
"""

from __future__ import annotations

from typing import Callable, Iterable

from textual.css.match import match
from textual.message import Message
from textual.message_pump import MessagePump, OnNoWidget
from textual.widget import Widget

_TEXTUAL_GET_DISPATCH_METHODS = MessagePump._get_dispatch_methods
"""Textual's own walk, kept for comparison (tests)."""

_Plan = tuple[tuple[type, tuple[tuple[Callable, dict], ...], Callable | None], ...]
_PLANS: dict[tuple[type, type, str], _Plan] = {}


def _plan(pump_class: type, message_class: type, method_name: str) -> _Plan:
    """For each class of ``pump_class``'s MRO with a handler: its decorated handlers for
    ``message_class`` (in the order Textual tries them) and its handler by name."""
    message_mro = [c for c in message_class.__mro__ if issubclass(c, Message)]
    steps = []
    for cls in pump_class.__mro__:
        decorated_handlers = cls.__dict__.get("_decorated_handlers")
        decorated: list[tuple[Callable, dict]] = []
        if decorated_handlers:
            for kind in message_mro:
                decorated.extend(decorated_handlers.get(kind, ()))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and getattr(method, "_textual_on", None):
            method = None  # decorated: called as such, not by its name
        if decorated or method is not None:
            steps.append((cls, tuple(decorated), method))
    return tuple(steps)


def _get_dispatch_methods(self: MessagePump, method_name: str,
                          message: Message) -> Iterable[tuple[type, Callable]]:
    key = (type(self), type(message), method_name)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _plan(type(self), type(message), method_name)
    if not plan:
        return
    dispatched: set[Callable] = set()
    for cls, decorated, method in plan:
        if message._no_default_action:
            break
        for handler, selectors in decorated:
            if handler in dispatched:
                continue
            if not selectors:
                yield cls, handler.__get__(self, cls)
                dispatched.add(handler)
                continue
            if not message._sender:
                continue
            for attribute, selector in selectors.items():
                node = getattr(message, attribute)
                if node is None:
                    break
                if not isinstance(node, Widget):
                    raise OnNoWidget(
                        f"on decorator can't match against {attribute!r} as it is not a widget."
                    )
                if not match(selector, node):
                    break
            else:
                yield cls, handler.__get__(self, cls)
                dispatched.add(handler)
        if method is not None:
            yield cls, method.__get__(self, cls)


def plan_dispatches() -> None:
    """Make every message pump of this process look its handlers up once per kind of
    pump and message (idempotent)."""
    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]


__all__ = ["plan_dispatches"]
