"""Textual's terminal parser, without a cache that keeps every app that ever typed a key.

Textual caches what each key sequence means in a cache of the process (``lru_cache`` on the
method ``XTermParser._parse_extended_key``, 1,024 entries) whose keys hold the parser
itself: every parser that ever read a key stayed referenced, and with it its generator's
last key event and that event's sender, the person's whole app (about 0.7 MB), long
after the person had gone, until a thousand others had typed. A server that runs for days
for people who come and go grew by that much for each of them.

:class:`KeyParser` looks sequences up in a cache of its own keyed by the sequence alone,
whose key events are made outside any app (their sender is none): a cached event never
reaches an app, since the parser hands out copies made in the app's own context. What a
sequence means, and what a key costs, are as before.
"""

from __future__ import annotations

import contextvars
from functools import lru_cache

from textual import events
from textual._xterm_parser import XTermParser  # private API: Textual's minor version is pinned

_parse_uncached = XTermParser._parse_extended_key.__wrapped__
"""Textual's parsing of one sequence, without its cache."""


class KeyParser(XTermParser):
    """Textual's parser, its cache of extended keys shared by sequence, not by parser."""

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        return _extended_key(sequence)


_NEUTRAL = XTermParser(debug=False)
"""A parser that never reads anything: what the parsing of a sequence is given as ``self``
(it reads no state of it)."""


@lru_cache(maxsize=1024)
def _extended_key(sequence: str) -> list[events.Key] | None:
    # In a context of its own: a key event made inside an app's would name that app as
    # its sender, and the cache would keep the app.
    return contextvars.Context().run(_parse_uncached, _NEUTRAL, sequence)
