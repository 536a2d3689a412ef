"""A strip's escape codes are worked out once per colour depth, and never given to a
terminal of another depth: strips drawn once for the process are shared by every app,
whatever each client's terminal."""

from __future__ import annotations

from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from diamant_server import console as console_module
from diamant_server.console import _console, share_strips_safely

YELLOW = Style(color="#e0c020", bold=True)


def strip() -> Strip:
    return Strip([Segment("7 ", YELLOW), Segment("rubies")])


def test_a_strip_is_turned_into_codes_once_per_colour_depth(monkeypatch):
    share_strips_safely()
    calls: list[ColorSystem] = []
    render_style = console_module._render_style

    def counted(style, text, color_system):
        calls.append(color_system)
        return render_style(style, text, color_system)

    monkeypatch.setattr(console_module, "_render_style", counted)
    truecolor = _console({"TERM": "xterm", "COLORTERM": "truecolor"}, "truecolor")
    sixteen = _console({"TERM": "xterm"}, "standard")
    line = strip()

    first = line.render(truecolor)
    assert len(calls) == 1  # one styled segment
    assert line.render(truecolor) == first
    assert len(calls) == 1, "the same depth again is not worked out again"

    other = line.render(sixteen)
    assert len(calls) == 2
    assert "38;2;" in first and "38;2;" not in other  # each terminal its own codes
    assert other.endswith("rubies") and first.endswith("rubies")
    assert line.render(truecolor) == first and line.render(sixteen) == other


def test_strips_joined_after_being_drawn_are_drawn_for_each_depth():
    share_strips_safely()
    truecolor = _console({"TERM": "xterm", "COLORTERM": "truecolor"}, "truecolor")
    sixteen = _console({"TERM": "xterm"}, "standard")
    left, right = strip(), Strip([Segment(" ✦", Style(color="red"))])
    left.render(truecolor)
    right.render(truecolor)

    joined = Strip.join([left, right])

    assert joined.render(sixteen) == left.render(sixteen) + right.render(sixteen)
    assert joined.render(truecolor) == left.render(truecolor) + right.render(truecolor)


def test_a_strip_drawn_before_the_codes_were_kept_per_depth_is_drawn_again():
    """A strip kept for the process, turned into codes by Textual's own rendering before
    the codes were kept per depth (an app of the same process that is not the server's,
    as in the tests), is drawn again for each depth rather than failing every frame that
    holds it."""
    truecolor = _console({"TERM": "xterm", "COLORTERM": "truecolor"}, "truecolor")
    sixteen = _console({"TERM": "xterm"}, "standard")

    def blue() -> Strip:
        return Strip([Segment("3 ", Style(color="#30a0e0", italic=True)), Segment("relics")])

    line = blue()
    console_module._TEXTUAL_RENDER(line, truecolor)  # one rendering, for a depth unsaid
    share_strips_safely()
    assert line.render(sixteen) == blue().render(sixteen)
    assert line.render(truecolor) == blue().render(truecolor)
    assert "38;2;" in line.render(truecolor) and "38;2;" not in line.render(sixteen)
