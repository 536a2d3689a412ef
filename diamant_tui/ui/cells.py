"""Text measured in terminal cells: a wide character (CJK, full-width) takes two."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

from ..names import MARKS

ELLIPSIS = "…"


def shorten(text: str, width: int, *, name: bool = True) -> str:
    """``text`` as it is if it fits in ``width`` cells, else cut to fit with an ellipsis
    (before a name's mark, ``ann²``, which is kept, unless ``name`` is False: a text of
    several names, whose last one's mark would stand after another's cut)."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    # A name's mark is what tells two people under one name apart: it stays, and the
    # name before it is cut (``山田太郎…²``), when there is room for more than the mark.
    base = text.rstrip(MARKS) if name else text
    mark = text[len(base):] if len(text) - len(base) < width - 1 else ""
    # set_cell_size never splits a wide character: it pads with a space instead.
    kept = set_cell_size(base if mark else text, width - 1 - len(mark)).rstrip()
    return kept + ELLIPSIS + mark


def cell(text: str, width: int, right: bool = False) -> str:
    """``text`` shortened to ``width`` cells and padded to exactly that width."""
    text = shorten(text, width)
    pad = " " * (width - cell_len(text))
    return pad + text if right else text + pad


def widest(texts) -> int:
    """The width in cells of the widest of ``texts`` (0 for none)."""
    return max((cell_len(t) for t in texts), default=0)


def wrap(text: str, width: int) -> list[str]:
    """``text`` on lines of at most ``width`` cells, broken between words; a word wider
    than a whole line (a long name in wide characters) is broken where it must."""
    width = max(1, width)
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if cell_len(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while cell_len(word) > width:
            head = set_cell_size(word, width).rstrip()
            head = head or word[0]
            lines.append(head)
            word = word[len(head):]
        line = word
    lines.append(line)
    return lines


__all__ = ["ELLIPSIS", "cell", "cell_len", "shorten", "widest", "wrap"]
