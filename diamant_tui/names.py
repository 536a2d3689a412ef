"""Text that people type: display names and chat lines, cleaned the same way everywhere.

Names are normalised with NFKC, so that look-alike forms of the same letters (full-width
``ａｎｎ``, ligatures, superscript digits) become their plain form. That frees the
superscript digits to mark a second person under the same name (``ann²``): nobody can
type a name that passes as that mark.
"""

from __future__ import annotations

import itertools
import unicodedata
from typing import Iterable

NAME_MAX_CHARS = 16
"""A display name's length at most (a column of the players' list)."""
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def clean_text(text: str, limit: int) -> str:
    """``text`` without control characters, whitespace collapsed, cut to ``limit`` characters."""
    kept = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in str(text))
    return " ".join(kept.split())[:limit]


def clean_name(name: str, fallback: str = "player") -> str:
    """A typed name as shown to everyone: NFKC-normalised, no control characters, at most
    16 characters; ``fallback`` when nothing is left."""
    return clean_text(unicodedata.normalize("NFKC", str(name)), NAME_MAX_CHARS) or fallback


def distinct_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` with a superscript number (``ann²``, ``ann³``…) when another
    person already shows under it; cut so that the mark always fits."""
    taken = set(taken)
    if name not in taken:
        return name
    for n in itertools.count(2):
        mark = str(n).translate(_SUPERSCRIPT)
        candidate = name[: NAME_MAX_CHARS - len(mark)] + mark
        if candidate not in taken:
            return candidate
    raise AssertionError("unreachable")


__all__ = ["NAME_MAX_CHARS", "clean_name", "clean_text", "distinct_name"]
