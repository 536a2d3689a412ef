"""Hurrying the late, as the people at the table see it: whoever is done with a turn that
has waited long is told they may (h), and the person hurried hears the bell and sees
their time run."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.engine.view import Decision
from diamant_tui.table import Table, TableSettings, TableStatus, clock
from diamant_tui.ui import DiamantApp
from ui_helpers import screen_text, until

WAIT = 0.3
"""Seconds a turn waits here before the late may be hurried (20 s at a real table)."""


GIVEN = 1.0
"""Seconds the hurried have here (30 s at a real table)."""


@pytest.fixture(autouse=True)
def short_wait(monkeypatch):
    monkeypatch.setattr(clock, "HURRY_AFTER", WAIT)


def ann_and_bob(lang: str):
    """A table of ann, bob and a computer player, with an app each for ann and bob,
    bob's bell counted: (table, ann, bob, ann's app, bob's app, bob's bells)."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:9",), pace=0, seed=7))
    ann, bob = table.sit("ann", "k-ann"), table.sit("bob", "k-bob")
    anns, bobs = DiamantApp(lang=lang, member=ann), DiamantApp(lang=lang, member=bob)
    rung: list[bool] = []
    bobs.bell = lambda: rung.append(True)
    return table, ann, bob, anns, bobs, rung


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_whoever_is_done_may_hurry_the_late_who_hears_the_bell_and_sees_a_timer(lang):
    """ann has chosen; bob (away from his keyboard, without leaving) has not. ann's
    note line says who is still choosing and that h gives them 30 s; h tells the whole
    table who hurried whom, bob's terminal rings and his panel counts down."""
    table, ann, bob, anns, bobs, rung = ann_and_bob(lang)
    async with anns.run_test(size=(80, 24)) as pilot, bobs.run_test(size=(80, 24)) as bob_pilot:
        t = anns.t
        told = t("decision.hurry_one", name="bob", seconds="30")
        await until(pilot, lambda: anns.screen.view is not None and anns.screen.view.decision_due)
        ann.decide(Decision.CONTINUE)
        await until(pilot, lambda: " ".join(told.split()[:2]) in screen_text(anns), timeout=10)
        assert "h" in told and "30" in told
        assert not rung
        await pilot.press("h")
        hurried = t("event.hurried", name="ann", late="bob", seconds="30")
        await until(pilot, lambda: hurried[:30] in screen_text(anns), timeout=10)
        await until(bob_pilot, lambda: hurried[:30] in screen_text(bobs), timeout=10)
        assert rung == [True]
        await until(bob_pilot, lambda: t("decision.timer", seconds=29) in screen_text(bobs)
                    or t("decision.timer", seconds=30) in screen_text(bobs), timeout=10)
        await until(pilot, lambda: " ".join(told.split()[:2]) not in screen_text(anns))
    await table.close()


async def test_h_does_nothing_before_the_turn_has_waited(monkeypatch):
    """Pressed before the turn has waited, h neither hurries nor says anything: the note
    line is unchanged and nobody's time runs."""
    monkeypatch.setattr(clock, "HURRY_AFTER", 3600.0)
    table = Table(TableSettings(name="den", seats=3, bots=("cards:9",), pace=0, seed=7))
    ann = table.sit("ann", "k-ann")
    table.sit("bob", "k-bob")  # who never chooses
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.view is not None and app.screen.view.decision_due)
        ann.decide(Decision.CONTINUE)
        await until(pilot, lambda: "You chose" in screen_text(app))
        await pilot.press("h")
        await pilot.pause()
        assert "hurries" not in screen_text(app)
        assert "You chose" in screen_text(app)
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
@pytest.mark.parametrize("late", [1, 2])
async def test_the_hurry_note_reads_whole_at_80x24_with_the_longest_names(lang, late):
    """The note's two lines beside the buttons hold it whole, in every language, for one
    person of the longest name (16 characters) or a count of people."""
    names = ["Wwwwwwwwwwwwwwww", "Mmmmmmmmmmmmmmmm"][:late]
    table = Table(TableSettings(name="den", seats=2 + late, bots=("cards:9",), pace=0, seed=7))
    ann = table.sit("ann", "k-ann")
    for name in names:
        table.sit(name, f"k-{name}")
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        t = app.t
        note = (t("decision.hurry_one", name=names[0], seconds="30") if late == 1
                else t("decision.hurry_many", count=late, seconds="30"))
        await until(pilot, lambda: app.screen.view is not None and app.screen.view.decision_due)
        ann.decide(Decision.LEAVE)  # back in camp: waiting on the others all the same
        flowing = lambda: " ".join(screen_text(app).split())  # noqa: E731
        await until(pilot, lambda: " ".join(note.split()) in flowing(), timeout=10)
    await table.close()


async def finish(table: Table, *members) -> None:
    """Play the game out, every person going home at their first choice (through the
    table, not keys: the apps keep their own listeners)."""
    while table.status is not TableStatus.FINISHED:
        for member in members:
            view = table.game.view_for(member.seat)
            if view.decision_due and view.my_decision is None:
                member.decide(Decision.LEAVE)
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_at_the_final_scores_who_asked_for_a_rematch_may_hurry_who_has_not_answered(
        lang, monkeypatch):
    """bob walked away as the game ended; ann asked for a rematch. Her final scores
    offer h once bob has been waited on; pressed, bob's terminal rings and he reads that
    the rematch starts soon, under the chat, and then it starts, his seat played for him."""
    monkeypatch.setattr(clock, "HURRY_TIME", GIVEN)
    table, ann, bob, anns, bobs, rung = ann_and_bob(lang)
    async with anns.run_test(size=(80, 24)) as pilot, bobs.run_test(size=(80, 24)) as bob_pilot:
        t = anns.t
        await finish(table, ann, bob)
        await until(pilot, lambda: t("final.title") in screen_text(anns))
        await pilot.press("r")
        offer = t("final.hurry_one", name="bob", seconds=f"{GIVEN:g}")
        await until(pilot, lambda: offer in screen_text(anns), timeout=10)
        assert offer not in screen_text(bobs)
        await pilot.press("h")
        told = t("final.hurried", name="ann", seconds=f"{GIVEN:g}")
        await until(bob_pilot, lambda: " ".join(told.split()) in " ".join(screen_text(bobs).split()),
                    timeout=10)
        assert rung == [True]
        await until(pilot, lambda: table.status is TableStatus.PLAYING, timeout=60)
        assert table.seats[bob.seat].away
    await table.close()


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_who_comes_back_while_a_rematch_is_hurried_reads_when_it_starts(lang, monkeypatch):
    """bob went back to the lobby at the final scores; ann asked for a rematch and
    hurried cle, who had not answered. bob comes back before cle's time is up: the
    rematch starts with him too, a computer playing for him until he presses a key, so
    his terminal rings and he reads where the rematch's question is answered that it
    starts soon, as cle does. He was told nothing, and found a game begun under him."""
    monkeypatch.setattr(clock, "HURRY_TIME", 5.0)
    table = Table(TableSettings(name="den", seats=4, bots=("cards:9",), pace=0, seed=7))
    ann, bob, cle = (table.sit(name, f"k-{name}") for name in ("ann", "bob", "cle"))
    anns = DiamantApp(lang=lang, member=ann)
    async with anns.run_test(size=(80, 24)) as pilot:
        await finish(table, ann, bob, cle)
        bob.leave()
        await until(pilot, lambda: anns.t("final.title") in screen_text(anns))
        await pilot.press("r")
        await until(pilot, lambda: anns.screen.update_.may_hurry, timeout=10)
        await pilot.press("h")
        back = table.sit("bob", "k-bob")
        bobs = DiamantApp(lang=lang, member=back)
        rung: list[bool] = []
        bobs.bell = lambda: rung.append(True)
        async with bobs.run_test(size=(80, 24)) as bob_pilot:
            told = bobs.t("final.hurried", name="ann", seconds="§").split("§")[0]
            await until(bob_pilot, lambda: " ".join(told.split())
                        in " ".join(screen_text(bobs).split()), timeout=10)
            assert rung == [True]
            await until(bob_pilot, lambda: table.status is TableStatus.PLAYING, timeout=60)
            assert table.seats[back.seat].away
    await table.close()
