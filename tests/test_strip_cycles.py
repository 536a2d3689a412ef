"""A frame's strips are freed with it: none is kept alive by a cache of its own."""

from __future__ import annotations

import sys

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

import diamant_tui.ui  # noqa: F401  (the interface sets strips up as it loads)


def strip() -> Strip:
    return Strip([Segment("Round 1/5 ", Style(bold=True)), Segment("card 3")])


def test_dividing_a_strip_at_its_end_keeps_no_reference_to_it():
    line = strip()
    held = sys.getrefcount(line)
    assert line.divide([line.cell_length]) == [line]  # what Textual gives, unchanged
    assert line.divide([line.cell_length, line.cell_length + 5]) == [line]
    assert sys.getrefcount(line) == held


def test_cropping_a_strip_to_itself_keeps_no_reference_to_it():
    line = strip()
    held = sys.getrefcount(line)
    assert line.crop_extend(0, line.cell_length, None) is line
    assert sys.getrefcount(line) == held


def test_other_divisions_and_crops_are_textuals():
    line = strip()
    left, right = line.divide([5, line.cell_length])
    assert (left.text, right.text) == ("Round", " 1/5 card 3")
    assert line.divide([5, line.cell_length]) == [left, right]  # still cached
    wider = line.crop_extend(2, line.cell_length + 3, None)
    assert wider.text == "und 1/5 card 3   " and wider.cell_length == line.cell_length + 1
    assert line.crop_extend(2, 4, None).text == "un"
