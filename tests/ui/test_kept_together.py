"""Lines wrapped where a reader expects them: French marks stay with their words, and a
number of seconds with its unit (``kept_together``)."""

from __future__ import annotations

import pytest
from rich import _wrap
from rich.console import Console
from rich.text import Text

from diamant_tui.engine.view import Decision
from diamant_tui.i18n import CATALOGUES
from diamant_tui.table import Table, TableSettings, clock
from diamant_tui.ui import DiamantApp, kept_together
from ui_helpers import screen_text, until


def wrapped(text: str, width: int) -> list[str]:
    """``text`` as Rich wraps it ``width`` cells wide (as every widget here does)."""
    lines = Text(text).wrap(Console(width=200), width)
    return [line.plain.rstrip() for line in lines]


def french_texts() -> list[str]:
    """Every French text of the interface, each plural form apart."""
    return [form for text in CATALOGUES["fr"].values() for form in text.split("|")]


def test_french_marks_stay_with_the_word_before_them():
    """French writes a space before : ; ! ? » and %, and after «: wrapped 20 cells wide or more,
    no line of any French text begins with such a mark or ends with «. (Before, "Partir
    ? Place libérée" and the like, at one width or another.)"""
    marks = (":", ";", "!", "?", "»", "%")
    broken = [(width, text) for text in french_texts() for width in range(20, 61)
              if any(line.lstrip().startswith(marks) or line.endswith("«")
                     for line in wrapped(text, width)[1:])]
    assert not broken, broken[:5]


def test_text_without_such_marks_wraps_as_rich_wraps_it():
    """Only marks and units are kept together: every English text wraps as Rich's own
    pattern wraps it, at every width."""
    ours = kept_together.KEPT_TOGETHER
    for text in (form for text in CATALOGUES["en"].values() for form in text.split("|")):
        if " s" in text:
            continue  # a number of seconds: kept with its unit, on purpose
        for width in range(12, 61, 7):
            kept = wrapped(text, width)
            try:
                _wrap.re_word = kept_together._RICH_WORD
                assert wrapped(text, width) == kept, (text, width)
            finally:
                _wrap.re_word = ours


@pytest.mark.parametrize(("lang", "length"),
                         [("en", 2), ("fr", 1), ("fr", 2), ("es", 5), ("uk", 14), ("en", 9)])
async def test_the_hurry_note_keeps_its_seconds_with_their_unit(monkeypatch, lang, length):
    """The note beside the buttons ("bob is still choosing. h: give them 30 s to
    decide.") broke between 30 and its s at 80 columns, for names of some lengths in
    each language."""
    monkeypatch.setattr(clock, "HURRY_AFTER", 0.2)
    name = "W" * length
    table = Table(TableSettings(name="den", seats=3, bots=("cards:9",), pace=0, seed=7))
    ann = table.sit("ann", "k-ann")
    table.sit(name, "k-late")
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        note = app.t("decision.hurry_one", name=name, seconds="30")
        await until(pilot, lambda: app.screen.view is not None and app.screen.view.decision_due)
        ann.decide(Decision.LEAVE)
        flowing = lambda: " ".join(screen_text(app).split())  # noqa: E731
        await until(pilot, lambda: " ".join(note.split()) in flowing(), timeout=10)
        lines = screen_text(app).splitlines()
        assert not any(line.rstrip().endswith(" 30") for line in lines), "\n".join(lines)
    await table.close()
