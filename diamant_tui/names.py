"""Text that people type: display names and chat lines, cleaned the same way everywhere.

Names are normalised with NFKC, so that look-alike forms of the same letters (full-width
``ａｎｎ``, ligatures, superscript digits) become their plain form. That frees the
superscript digits to mark a second person under the same name (``ann²``): nobody can
type a name that passes as that mark.

Names that only look alike (Cyrillic ``аnn`` and Latin ``ann``, ``I`` and ``l``, mixed
scripts) count as the same name at a table: :func:`look_alike_key` is their common form,
after the confusables table of Unicode's security mechanisms (UTS #39).
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from typing import Iterable

from confusable_homoglyphs.confusables import confusables_data

NAME_MAX_CHARS = 16
"""A display name's length at most (a column of the players' list)."""
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
MARKS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
"""The superscript digits a table adds to a second person under a name (``ann²``): no
typed name holds them (NFKC), so a text that ends in them ends in such a mark."""
_BRACKETS = ("(", ")")
_INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
    "\U000e0100-\U000e01ef]")
"""Unicode's default-ignorable characters that are not control or formatting characters
(those become spaces anyway): blank Hangul fillers, Khmer's invisible vowels, variation
selectors, the grapheme joiner. A terminal draws nothing for them, so ``ann`` with one
added would pass for ``ann``."""
_BLANK = "\u2800"
"""Braille's empty pattern: a symbol, yet drawn as a blank cell, so taken for a space."""


def clean_text(text: str, limit: int) -> str:
    """``text`` without control characters, whitespace collapsed, cut to ``limit`` characters."""
    kept = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in str(text))
    return " ".join(kept.split())[:limit]


def clean_name(name: str, fallback: str = "player") -> str:
    """A typed name as shown to everyone: NFKC-normalised, no control characters, no
    round brackets, no characters a terminal draws as nothing, at most 16 characters;
    ``fallback`` when nothing is left.

    Round brackets (and their look-alikes) are the table's own: a spectator's chat lines
    read ``vic (watching)``, and a player must not be able to call themselves that."""
    text = _visible(unicodedata.normalize("NFKC", str(name)))
    text = "".join(ch for ch in text if _map(ch) not in _BRACKETS)
    return clean_text(text, NAME_MAX_CHARS) or fallback


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables table mapped to one member of its group
    of look-alikes (the same member for the whole group).

    The table comes from ``confusable-homoglyphs``, a maintained package that ships
    UTS #39's confusables data; it offers no skeleton function of its own, so the groups
    are made here: every pair the table lists joins one group. A group's member that is
    several ASCII characters wins (``m`` becomes ``rn``, so both spellings meet), then the
    smallest ASCII one, then the smallest of all. Joining groups through shared members
    can only make more names count as alike, which at worst adds a mark to a name.
    """
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for glyph, alikes in confusables_data.items():
        for alike in alikes:
            # The table wraps right-to-left letters in direction marks: not part of a glyph.
            a, b = find(glyph.replace("\u200e", "")), find(alike["c"].replace("\u200e", ""))
            if a != b:
                parent[a] = b
    groups: dict[str, list[str]] = {}
    for member in list(parent):
        groups.setdefault(find(member), []).append(member)
    prototypes: dict[str, str] = {}
    for members in groups.values():
        chosen = min(members, key=lambda m: (not m.isascii(), -len(m) if m.isascii() else 0, m))
        for member in members:
            if len(member) == 1 and member != chosen:
                prototypes[member] = chosen
    return prototypes


def _visible(text: str) -> str:
    """``text`` without the characters drawn as nothing, Braille's blank as a space."""
    return _INVISIBLE.sub("", text).replace(_BLANK, " ")


def _map(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(ch, ch) for ch in text)


def look_alike_key(name: str) -> str:
    """What ``name`` looks like, the same for every name that looks like it: NFKC, each
    look-alike character replaced by its group's member, case folded (``Аnn``, ``ann``,
    ``ａｎｎ`` and ``ANN`` all give ``ann``; ``Ian`` and ``lan`` meet too)."""
    name = str(name)
    # A trailing mark (``ann²``) is the table's own and stays as it is: ``ann2`` is told
    # apart from it at a glance, and no name can be typed with it (NFKC).
    base = name.rstrip(MARKS)
    text = " ".join(_visible(unicodedata.normalize("NFKC", base)).split())
    # Before case folding (``I`` looks like ``l``, not like ``i``) and after it (a capital
    # of another script folds to a small letter that still has a Latin look-alike).
    return _map(_map(text).casefold()) + name[len(base):]


def distinct_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` with a superscript number (``ann²``, ``ann³``…) when another
    person already shows under it or under a name that looks like it (see
    :func:`look_alike_key`); cut so that the mark always fits."""
    keys = {look_alike_key(t) for t in taken}
    if look_alike_key(name) not in keys:
        return name
    for n in itertools.count(2):
        mark = str(n).translate(_SUPERSCRIPT)
        candidate = name[: NAME_MAX_CHARS - len(mark)] + mark
        if look_alike_key(candidate) not in keys:
            return candidate
    raise AssertionError("unreachable")


__all__ = ["MARKS", "NAME_MAX_CHARS", "clean_name", "clean_text", "distinct_name",
           "look_alike_key"]
