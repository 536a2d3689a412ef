"""Lines of text in columns for the host's command-line tools, measured in terminal
cells: a CJK or full-width letter takes two, so padding by letters (``str.ljust``) put
every column after a table's or a person's name in wide letters out of line."""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len


def aligned(rows: Sequence[Sequence[str]], right: int = 0) -> list[str]:
    """Each row as one line, its columns two spaces apart and as wide as their widest
    cell; the last column unpadded; the first ``right`` columns aligned right (numbers)."""
    count = max(map(len, rows), default=0)
    widths = [max(cell_len(row[i]) for row in rows) for i in range(count - 1)]
    lines = []
    for row in rows:
        cells = []
        for i, (text, width) in enumerate(zip(row, widths)):
            pad = " " * (width - cell_len(text))
            cells.append(pad + text if i < right else text + pad)
        lines.append("  ".join(cells + list(row[count - 1:])))
    return lines


__all__ = ["aligned"]
