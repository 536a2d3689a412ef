"""Text people typed, shown exactly as typed: never read as markup, never as a terminal command.

Names, chat lines and table names reach the screen through these helpers (or inside a
``rich.text.Text``, which is literal too): ``[bold]x[/bold]`` is shown as those fifteen
characters, and a control character becomes a space instead of reaching the terminal.
The catalogues hold no markup either, so nothing on screen is ever parsed as markup.
"""

from __future__ import annotations

import unicodedata

from textual.content import Content


def printable(text: object) -> str:
    """``text`` with every control or format character, except a line break, as a space.

    The table cleans names and chat lines already; this also covers what reaches a
    screen by another way, such as a table name typed in a command or a resume code.
    """
    return "".join(
        ch if ch == "\n" or unicodedata.category(ch)[0] != "C" else " " for ch in str(text)
    )


def literal(text: object) -> Content:
    """``text`` as content shown as written: brackets stay brackets."""
    return Content(printable(text))
