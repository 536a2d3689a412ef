"""A terminal screen that keeps only the characters, for load generators of many clients.

The load generator's clients read their screens through pyte, a full terminal emulator:
at 100 seats they took about as much CPU as the server they measured, so on a machine
of two cores the load generator, not the server, set how many seats could be measured.
The server's output is Textual's: absolute cursor moves, colours and text. This screen
follows the cursor and writes the text, and skips every colour and mode, which is all a
client needs to read what its screen says (its turn, the round bar, the final scores).
``tests/test_load_generator.py`` checks that it reads a real game's output as pyte does.
"""

from __future__ import annotations

import codecs
import re

from wcwidth import wcwidth  # pyte's own measure of a character's cells

_SEQUENCE = re.compile(
    r"\x1b\[([0-9;?<>=]*)([ -/]*)([@-~])"  # CSI: parameters, intermediates, final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC (links, titles), ended by BEL or ST
    r"|\x1b[()][0-9A-Za-z]"  # character set choices
    r"|\x1b[^\[\]()]"  # other two-byte escapes
    r"|[\x00-\x1f\x7f]"  # control characters
)
_UNFINISHED = re.compile(r"\x1b(?:\[[0-9;?<>= -/]*|\][^\x07\x1b]*\x1b?|[()])?\Z")
"""An escape sequence cut at the end of a chunk: kept for the next one."""


def _width(char: str) -> int:
    """Cells ``char`` takes: 0 for what takes none (combining marks, selectors)."""
    return max(0, wcwidth(char))


class LightScreen:
    """``columns`` x ``lines`` characters and a cursor; :meth:`feed` takes the bytes."""

    def __init__(self, columns: int, lines: int) -> None:
        self.columns, self.lines = columns, lines
        self._rows = [[" "] * columns for _ in range(lines)]
        self.x = self.y = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""

    def feed(self, data: bytes) -> None:
        """Take what the terminal received."""
        text = self._pending + self._decoder.decode(data)
        cut = _UNFINISHED.search(text)
        if cut is not None and cut.group():
            self._pending, text = text[cut.start():], text[:cut.start()]
        else:
            self._pending = ""
        position = 0
        for match in _SEQUENCE.finditer(text):
            if match.start() > position:
                self._draw(text[position:match.start()])
            position = match.end()
            self._control(match)
        if position < len(text):
            self._draw(text[position:])

    def line(self, y: int) -> str:
        """Line ``y`` of the screen as text."""
        return "".join(self._rows[y])

    @property
    def display(self) -> list[str]:
        """Every line of the screen as text (as pyte's ``Screen.display``)."""
        return ["".join(row) for row in self._rows]

    def _draw(self, text: str) -> None:
        row = self._rows[self.y]
        for char in text:
            width = _width(char)
            if width == 0:
                continue  # drawn with the character before it, which keeps its cell
            if self.x + width > self.columns:
                continue  # Textual never writes past the edge: nothing to wrap
            row[self.x] = char
            if width == 2:
                row[self.x + 1] = ""  # the cell a wide character covers (as pyte has it)
            self.x += width

    def _control(self, match: re.Match[str]) -> None:
        text = match.group()
        if text == "\n":
            self.y = min(self.lines - 1, self.y + 1)
            return
        if text == "\r":
            self.x = 0
            return
        if text == "\b":
            self.x = max(0, self.x - 1)
            return
        final = match.group(3)
        if final is None or match.group(2):
            return  # not a CSI, or one with intermediates: nothing that moves or erases
        params = match.group(1)
        if params.startswith(("?", "<", ">", "=")):
            return  # private modes (cursor shown, mouse, synchronised output)
        numbers = [int(p) if p else 0 for p in params.split(";")] if params else []
        first = numbers[0] if numbers else 0
        if final in "Hf":
            row = numbers[0] if numbers and numbers[0] else 1
            column = numbers[1] if len(numbers) > 1 and numbers[1] else 1
            self.y = min(self.lines, max(1, row)) - 1
            self.x = min(self.columns, max(1, column)) - 1
        elif final == "A":
            self.y = max(0, self.y - (first or 1))
        elif final == "B":
            self.y = min(self.lines - 1, self.y + (first or 1))
        elif final == "C":
            self.x = min(self.columns - 1, self.x + (first or 1))
        elif final == "D":
            self.x = max(0, self.x - (first or 1))
        elif final == "G":
            self.x = min(self.columns, max(1, first or 1)) - 1
        elif final == "d":
            self.y = min(self.lines, max(1, first or 1)) - 1
        elif final == "K":
            row = self._rows[self.y]
            start, end = {0: (self.x, self.columns), 1: (0, self.x + 1)}.get(first, (0, self.columns))
            row[start:end] = [" "] * (end - start)
        elif final == "J":
            if first == 0:
                self._rows[self.y][self.x:] = [" "] * (self.columns - self.x)
                rows = range(self.y + 1, self.lines)
            elif first == 1:
                self._rows[self.y][:self.x + 1] = [" "] * (self.x + 1)
                rows = range(0, self.y)
            else:
                rows = range(self.lines)
            for y in rows:
                self._rows[y] = [" "] * self.columns
