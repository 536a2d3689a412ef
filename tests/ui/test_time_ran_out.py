"""A table with a decision timer: when a person's time runs out, a computer chooses for
them, and the whole table reads so among the round's lines (and in the log)."""

from __future__ import annotations

import pytest

from diamant_tui.engine.view import Decision
from diamant_tui.table import Table, TableSettings
from diamant_tui.ui import DiamantApp
from ui_helpers import screen_text, until


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_whose_time_ran_out_is_told_to_them_and_to_the_others(lang):
    """ann chooses at once, bob never does: at zero both screens say, in their language,
    that bob's time ran out and a computer chooses for him. Before, bob's seat turned
    "away" and his choice was read with the others' as if he had made it."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:40",), pace=0.5, seed=5,
                                timer=1.0))
    ann, bob = table.sit("ann", "k-ann"), table.sit("bob", "k-bob")
    anns, bobs = DiamantApp(lang=lang, member=ann), DiamantApp(lang=lang, member=bob)
    async with anns.run_test(size=(80, 24)) as pilot, bobs.run_test(size=(80, 24)) as bob_pilot:
        told = anns.t("event.time_ran_out", late="bob")
        await until(pilot, lambda: anns.screen.view is not None and anns.screen.view.decision_due)
        ann.decide(Decision.CONTINUE)
        await until(pilot, lambda: told in screen_text(anns), timeout=10)
        await until(bob_pilot, lambda: told in screen_text(bobs), timeout=10)
        assert anns.t("event.time_ran_out", late="ann") not in screen_text(anns)
    await table.close()


async def test_opening_the_chat_or_typing_in_it_is_being_back_at_the_keyboard():
    """bob's time ran out while he read the table: a computer plays his seat, shown away,
    until he presses a key. The t that opens the chat box, and the letters typed in it,
    are keys too: before, they left him away, and the computer kept choosing for him at
    every card, at once, while he was there typing."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:40", "cards:40"), pace=0.1,
                                seed=5, timer=1.0))
    bob = table.sit("bob", "k-bob")
    app = DiamantApp(lang="en", member=bob)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table.seats[bob.seat].away, timeout=10)
        await pilot.press("t")
        await until(pilot, lambda: not table.seats[bob.seat].away, timeout=2)
        # The chat box open, his time runs out again (he writes, not chooses).
        await until(pilot, lambda: table.seats[bob.seat].away, timeout=10)
        await pilot.press("h")
        await until(pilot, lambda: not table.seats[bob.seat].away, timeout=2)
    await table.close()
