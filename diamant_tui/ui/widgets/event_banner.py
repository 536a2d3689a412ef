"""The status line: the latest events as they arrive; a disaster is unmistakable."""

from __future__ import annotations

from functools import lru_cache

from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from ..cells import wrap
from ..literal import literal
from .one_layout import SizedInOneLayout
from .shared_lines import SharedLines

SHOWN = 2
"""How many lines the banner holds; earlier lines of the round go to the feed under the path (CavePath)."""


class EventBanner(SizedInOneLayout, SharedLines, Static):
    """Shows the texts of the latest update; ``show(..., disaster=True)`` for a disaster.

    Each text keeps a line of its own. One too long for the width (long names in wide
    characters) continues on the next line, and then only the newest texts that fit
    whole are shown: a text is never cut, nor pushed half out by the one after it.
    """

    DEFAULT_CSS = """
    EventBanner {
        height: 2;
        padding: 0 1;
        background: $boost;
        &.-disaster {
            background: $error;
            color: $text;
            text-style: bold;
        }
        &.-disaster:nocolor {
            /* Its red background is gone: reverse video marks the disaster instead. */
            text-style: bold reverse;
        }
    }
    """

    class Refitted(Message):
        """The banner, at a new width, holds another count of its texts: ``shown``,
        counted from the last (the feed under the path takes the others)."""

        def __init__(self, shown: int) -> None:
            super().__init__()
            self.shown = shown

    _latest: tuple[str, ...] = ()
    _shown: tuple[str, ...] | None = None
    _count = 0

    def show(self, lines: list[str], disaster: bool = False) -> int:
        """Show the last lines of an update (as many as fit) and mark a disaster.

        Returns how many of ``lines`` are shown, counted from the last.
        """
        self._latest = tuple(lines[-SHOWN:])
        self.set_class(disaster, "-disaster")
        return self._fit()

    def shared_key(self):
        return (self._shown,)

    def on_resize(self) -> None:
        before = self._count
        if self._fit() != before:
            self.post_message(self.Refitted(self._count))

    def _fit(self) -> int:
        shown, count = fitted(self._latest, self.content_region.width)
        if shown != self._shown:
            self._shown = shown
            # Its height is fixed (two lines): no new layout needed.
            self.update(_words(shown), layout=False)
        self._count = count
        return count


# Every seat at a table is given the same lines at each card, at the same width: each
# banner fitted them and made their words anew.
@lru_cache(maxsize=512)
def fitted(latest: tuple[str, ...], width: int) -> tuple[tuple[str, ...], int]:
    """The banner's lines for the texts ``latest`` (oldest first) at ``width`` cells:
    the newest texts that fit whole on its lines, each wrapped on lines of its own, and
    how many texts they are."""
    rows: list[str] = []
    count = 0
    for text in reversed(latest):
        # Before the first layout the width is unknown: keep every line then.
        wrapped = wrap(text, width) if width > 0 else [text]
        if rows and len(rows) + len(wrapped) > SHOWN:
            break
        rows[:0] = wrapped
        count += 1
    return tuple(rows), count


@lru_cache(maxsize=256)
def _words(shown: tuple[str, ...]) -> Content:
    """The banner's lines as content shown as written: names typed by people must never
    be read as markup."""
    return literal("\n".join(shown))
