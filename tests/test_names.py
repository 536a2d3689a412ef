"""Names that look alike count as one name at a table; brackets are the table's own."""

from __future__ import annotations

import pytest

from diamant_tui.names import clean_name, distinct_name, look_alike_key
from diamant_tui.table import Table, TableSettings


@pytest.mark.parametrize("name, alike", [
    ("\u0430nn", "ann"),          # Cyrillic а
    ("\u0410NN", "ann"),          # Cyrillic А, capitals
    ("ａｎｎ", "ann"),              # full width
    ("\u03b1nn", "ann"),          # Greek α
    ("b\u043eb", "bob"),          # a Cyrillic о among Latin letters
    ("Ian", "lan"),               # capital I and small l
    ("rnary", "mary"),            # rn and m
])
def test_look_alike_names_have_one_key(name, alike):
    assert look_alike_key(name) == look_alike_key(alike)


@pytest.mark.parametrize("name, other", [("ann", "anna"), ("ann", "bob"), ("ann2", "ann²"),
                                         ("ian", "lan")])
def test_different_looking_names_keep_their_keys(name, other):
    assert look_alike_key(name) != look_alike_key(other)


def test_a_look_alike_of_a_name_taken_gets_the_mark():
    assert distinct_name("\u0430nn", {"ann"}) == "\u0430nn²"
    assert distinct_name("ANN", {"ann", "\u0430nn²"}) == "ANN³"
    assert distinct_name("bob", {"ann"}) == "bob"


def test_round_brackets_and_their_look_alikes_leave_names():
    for typed in ("vic (watching)", "vic ❨watching❩", "vic （watching）", "vic ⁽watching⁾"):
        assert clean_name(typed) == "vic watching"
    assert clean_name("[bold]") == "[bold]"
    assert clean_name("()") == "player"


@pytest.mark.parametrize("typed", [
    "ann\u3164", "ann\uffa0", "\u115fann", "a\u1160nn",  # Hangul fillers: blank letters
    "ann\u17b4", "a\u17b5nn",                               # Khmer invisible vowels
    "a\u034fnn", "ann\ufe0f", "ann\U000e0100",             # invisible marks
    "ann\u2800",                                            # Braille's blank pattern
])
def test_invisible_letters_leave_names_so_nobody_passes_as_another(typed):
    """SASLprep keeps these (they are letters, marks or symbols, not formatting
    characters), and a terminal draws nothing or a blank for them: ``ann`` plus one of
    them sat as a second ``ann`` at the same table."""
    assert clean_name(typed) == "ann"
    assert distinct_name(clean_name(typed), {"ann"}) == "ann²"
    assert look_alike_key(typed) == look_alike_key("ann")
    assert clean_name("\u3164\u2800") == "player"


async def test_at_a_table_players_and_spectators_never_look_alike():
    table = Table(TableSettings(name="t", seats=3))
    ann = table.sit("ann", "k1")
    cyrillic = table.sit("\u0430nn", "k2")
    watcher = table.watch("ＡＮＮ", "k3")
    impostor = table.sit("vic (watching)", "k4")
    assert (ann.name, cyrillic.name, watcher.name) == ("ann", "\u0430nn²", "ANN³")
    assert impostor.name == "vic watching"
    blank = table.watch("ann\u3164", "k5")
    assert blank.name == "ann⁴"
    await table.close()
