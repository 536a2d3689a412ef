"""A screen's chain of key bindings worked out once for each place of the focus.

Textual works out a screen's binding chain (the focused widget's bindings, then its
parents', up to the screen's and the app's) every time it is asked: each node's bindings
copied, the keys a widget would take as typed text (a text box's letters) taken out of
its parents' copies, the keymap applied. It is asked twice for every key a person presses
(the priority bindings from the app down, then the others from the focused widget up),
and once more whenever the key bar looks at which keys are offered, that is twice a turn
for everyone in the cave: about 2 % of a server's CPU in play (py-spy at 100 seats).

The chain changes only with what it is made of, so here it is kept with the focused
widget it starts from, the bindings of that widget and of each of its parents (a node is
given new bindings when its words change language: see :mod:`.bindings`) and the app's
keymap, and made again when any of them is another. It is the same list each time, read
and never changed by Textual (``_check_bindings``, ``active_bindings`` and
``_modal_binding_chain``, which slices it). Bindings added to a node in place
(``App.bind``, which nothing here calls) would not be seen until the focus moves.
Headless, in ``benchmarks/bench_frames.py --apps 5 --games 2``: 585 chains, 34-40 µs each
worked out, 10-13 µs kept. ``Screen._binding_chain`` is private: this relies on the
pinned minor version of Textual.
"""

from __future__ import annotations

from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen

_textual_binding_chain = Screen._binding_chain.fget  # Textual's own (tests compare)


def _bindings_up_from(node: DOMNode) -> tuple[BindingsMap, ...]:
    """The bindings of ``node`` and of each of its parents, up to the app."""
    found = []
    while node is not None:
        found.append(node._bindings)
        node = node._parent
    return tuple(found)


def _kept_binding_chain(self: Screen) -> list[tuple[DOMNode, BindingsMap]]:
    focused = self.focused
    if focused is not None and focused.loading:
        focused = None  # as Textual: a widget loading takes no keys
    # (Textual gives the app a new keymap dict, never changes one in place.)
    source = (focused, _bindings_up_from(self if focused is None else focused),
              self.app._keymap)
    kept = self.__dict__.get("_kept_binding_chain")
    if kept is not None and kept[0] == source:
        return kept[1]
    chain = _textual_binding_chain(self)
    self.__dict__["_kept_binding_chain"] = (source, chain)
    return chain


def keep_binding_chains() -> None:
    """Make every screen of this process keep its binding chain while the focus stays
    (idempotent)."""
    Screen._binding_chain = property(_kept_binding_chain)  # type: ignore[assignment]


__all__ = ["keep_binding_chains"]
