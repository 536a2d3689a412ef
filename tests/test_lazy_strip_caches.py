"""A strip makes each of its caches on first use, and caches what Textual's would."""

from __future__ import annotations

import gc

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import Monochrome
from textual.strip import Strip

import diamant_tui.ui  # noqa: F401  (the interface sets strips up as it loads)
from diamant_tui.ui.lazy_strip_caches import CACHE_SIZES


def strip() -> Strip:
    return Strip([Segment("Round 1/5 ", Style(bold=True)), Segment("card 3", Style(italic=True))])


def _has_own(line: Strip, name: str) -> bool:
    """Whether the strip has made that cache (without making it by asking)."""
    try:
        object.__getattribute__(line, name)
    except AttributeError:
        return False
    return True


def test_a_new_strip_holds_no_cache_for_the_collector_to_follow():
    line = strip()
    assert not any(type(ref).__name__ == "FIFOCache" for ref in gc.get_referents(line))
    assert not any(_has_own(line, name) for name in CACHE_SIZES)


def test_a_cache_is_made_on_first_use_with_textuals_size_and_kept():
    line = strip()
    cropped = line.crop(0, 5)
    assert cropped.text == "Round"
    assert line.crop(0, 5) is cropped  # the second crop comes from the cache
    cache = object.__getattribute__(line, "_crop_cache")
    assert cache._maxsize == CACHE_SIZES["_crop_cache"] and len(cache) == 1


def test_every_cache_textual_uses_is_one_it_can_make():
    line = strip()
    line.crop(1, 4)
    line.divide([3, line.cell_length])
    line.apply_style(Style(italic=True))
    line.adjust_cell_length(30)
    line.crop_extend(2, 20, None)
    line.apply_offsets(1, 2)
    line.apply_filter(Monochrome(), Color(0, 0, 0))
    made = [name for name in CACHE_SIZES if _has_own(line, name)]
    assert made == list(CACHE_SIZES)
    assert line.text == "Round 1/5 card 3" and line.cell_length == 16


def test_other_missing_attributes_are_still_errors():
    with pytest.raises(AttributeError, match="no attribute 'colour'"):
        strip().colour  # noqa: B018
