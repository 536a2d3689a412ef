"""Lines wrapped where a reader expects them to be: a mark stays with its word.

Rich (which wraps every text of the interface, Textual's too) breaks a line at any
space. French writes a space before ``:``, ``;``, ``!``, ``?``, ``»`` and ``%`` and
after ``«``, and every language here writes a number of seconds as ``30 s`` (``30
с``): at the end of a line the mark went to the next line alone (``: vous y êtes``, ``? Place
libérée``), or the unit did (``give them 30`` then ``s to decide``). Printed French
keeps them together with a no-break space; the catalogues keep plain spaces (what the
terminal shows and what the tests read stay as they are), and the wrapping treats those
spaces as no-break ones instead.

Rich finds the words of a line with ``rich._wrap.re_word``, a module global read at
every call: this replaces it with a pattern whose words carry the marks and units that
follow them. It relies on the Rich version that Textual's pinned minor version brings.
"""

from __future__ import annotations

import re

from rich import _wrap

_GLUED = r"[ \u00a0](?:[:;!?»%]|(?<=\d[ \u00a0])(?:s|с|min|хв)(?![^\W\d_]))\S*"
"""A space before a mark (French ``:``, ``;``, ``!``, ``?``, ``»``, ``%``), or between a
number and its unit of time (not a word that begins as one does), and what follows the
mark or the unit up to the next space (``s.``, ``?»``)."""
KEPT_TOGETHER = re.compile(rf"\s*(?:«[ \u00a0])?\S+(?:{_GLUED})*\s*")
"""A word with the opening guillemet before it and the marks and units after it, and
the spaces around it (as Rich's own pattern takes them)."""
_RICH_WORD = _wrap.re_word
"""Rich's own pattern (tests compare)."""


def keep_marks_with_their_words() -> None:
    """Make every wrap in this process keep marks and units with their words
    (idempotent)."""
    _wrap.re_word = KEPT_TOGETHER


__all__ = ["KEPT_TOGETHER", "keep_marks_with_their_words"]
