"""The decision panel draws its note and its timer itself, cell for cell as two labels in
their place would draw them (the widgets they were), and seats with the same note share
its lines."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from dataclasses import replace

import pytest
from textual.widgets import Label

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.decision import DecisionPanel
from diamant_tui.ui.widgets.shared_lines import forget_shared_lines
from ui_helpers import FixedTable, drawn_lines, mid_round, screen_segments, settled


class WithLabels(DiamantApp):
    """The app, and the CSS of the two labels the note and the timer were."""

    CSS = """
    DecisionPanel > #label-note {
        width: 1fr;
        height: 2;
        padding: 0 1;
        color: $text-muted;
    }
    DecisionPanel > #label-timer {
        width: 9;
        padding: 0 1;
        &.-urgent {
            text-style: bold reverse;
            color: $warning;
        }
    }
    """


def panel_cells(app, panel: DecisionPanel) -> list[list[tuple[str, str]]]:
    """Each cell of the panel's area on the screen: its character and look."""
    rows: list[list[tuple[str, str]]] = [[]]
    for segment in screen_segments(app):
        if segment.control:
            continue
        for index, part in enumerate(segment.text.split("\n")):
            if index:
                rows.append([])
            look = str(segment.style.clear_meta_and_links()) if segment.style else ""
            rows[-1].extend((char, look) for char in part)
    region = panel.region
    return [row[region.x:region.right] for row in rows[region.y:region.bottom]]


LONG = "Вы сказали: «un message bien trop long pour une seule ligne [b]ni deux[/b] » 漢字 " * 2

STEPS = {
    "due": (0, None),
    "chosen": (0, "c"),
    "urgent": (0, 3.2),
    "said": (0, LONG),
    "timer": (0, 30.0),
    "watching": (None, None),
}


@pytest.mark.parametrize("size", [(80, 24), (56, 24)])
@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
@pytest.mark.parametrize("step", list(STEPS))
async def test_the_note_and_the_timer_are_drawn_as_labels_draw_them(step, lang, size):
    seat, what = STEPS[step]
    app = WithLabels(lang=lang, member=mid_round(FixedTable()).member(seat))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        panel = app.screen.query_one(DecisionPanel)
        if what == "c":
            await pilot.press("c")
        elif isinstance(what, float):
            deadline = asyncio.get_running_loop().time() + what
            panel.state = replace(panel.state, deadline=deadline)
        elif what:
            panel.said(what)
        await settled(pilot)
        assert panel.note
        assert bool(panel.timer) == isinstance(what, float)
        ours = panel_cells(app, panel)
        await panel.mount(
            Label(panel.note, id="label-note", markup=False),
            Label(panel.timer, id="label-timer", markup=False,
                  classes="-urgent" if panel.urgent else ""))
        await settled(pilot)
        assert app.screen.query_one("#label-note").region.x > 0 or seat is None
        assert ours == panel_cells(app, panel)


async def test_seats_with_the_same_note_share_the_panel_lines():
    """Two spectators: the same lines, drawn once; one of them says something (shown on
    their note line) and their panel draws other lines, the other's stays as it was."""
    forget_shared_lines()
    table = mid_round(FixedTable())
    async with AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(
            DiamantApp(lang="en", member=table.member(None)).run_test(size=(80, 24)))
            for _ in range(2)]
        for pilot in pilots:
            await settled(pilot)
        ana, bruno = (pilot.app.screen.query_one(DecisionPanel) for pilot in pilots)

        assert ana.note == bruno.note
        assert all(a is b for a, b in zip(drawn_lines(ana), drawn_lines(bruno), strict=True))
        before = drawn_lines(bruno)
        ana.said("You said: hello")
        await settled(pilots[0])
        assert ana.note != bruno.note
        assert [line.text for line in drawn_lines(ana)] != [line.text for line in before]
        assert all(a is b for a, b in zip(drawn_lines(bruno), before, strict=True))


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_back_at_a_seat_a_computer_played_the_note_says_the_computer_chose(lang):
    """"If your connection drops, a computer player decides for you": back before the
    turn ends, the person reads that the computer chose, not that they did; once they
    choose themselves, the note is theirs again."""
    from diamant_tui.engine.view import Decision
    from diamant_tui.i18n import Translator
    from diamant_tui.table import Table, TableSettings
    from ui_helpers import screen_text, until

    table = Table(TableSettings(seats=3, bots=("cards:40",), pace=0, seed=5))
    first = table.sit("me", "me")
    ann = table.sit("ann", "ann")  # the last seat: the game begins
    for _ in range(500):
        if table.game is not None and table.game.view_for(ann.seat).decision_due:
            break
        await asyncio.sleep(0.01)
    first.leave()  # the connection drops: a computer decides for the seat
    for _ in range(500):
        if first.seat in table.game.pending:
            break
        await asyncio.sleep(0.01)
    chosen = table.game.pending[first.seat]
    back = table.sit("me", "me")  # ann has not chosen: the turn waits
    t = Translator(lang)
    app = DiamantApp(lang=lang, member=back)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = lambda: app.screen.query_one(DecisionPanel)  # noqa: E731
        word = t(f"decision.{chosen.value}")
        await until(pilot, lambda: app.screen.query(DecisionPanel)
                    and panel().note == t("decision.chosen_for_you", choice=word))
        # Whole on the note's two lines at 80 columns: the words flow from one to the other.
        flowing = " ".join(" ".join(screen_text(app).split()).split())
        assert " ".join(panel().note.split()) in flowing, screen_text(app)
        other = Decision.LEAVE if chosen is Decision.CONTINUE else Decision.CONTINUE
        back.decide(other)  # the person's own choice now
        await until(pilot, lambda: panel().note == t(
            "decision.chosen", choice=t(f"decision.{other.value}")))
        ann.decide(Decision.CONTINUE)
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_back_while_the_turn_waits_on_others_the_computers_choice_is_told_first(
        lang, monkeypatch):
    """Back at a seat a computer chose for, once the turn has waited long enough to
    hurry the late: the note says the computer chose (the offer to hurry stood in its
    place, and the choice shown, ✔, read as the person's own); once they choose
    themselves, the offer to hurry is theirs."""
    from diamant_tui.engine.view import Decision
    from diamant_tui.i18n import Translator
    from diamant_tui.table import Table, TableSettings, clock
    from ui_helpers import until

    monkeypatch.setattr(clock, "HURRY_AFTER", 0.2)
    table = Table(TableSettings(seats=3, bots=("cards:40",), pace=0, seed=5))
    first = table.sit("me", "me")
    ann = table.sit("ann", "ann")  # the last seat: the game begins
    for _ in range(500):
        if table.game is not None and table.game.view_for(ann.seat).decision_due:
            break
        await asyncio.sleep(0.01)
    first.leave()  # the connection drops: a computer decides for the seat
    for _ in range(500):
        if first.seat in table.game.pending:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)  # ann may be hurried now
    chosen = table.game.pending[first.seat]
    back = table.sit("me", "me")
    t = Translator(lang)
    app = DiamantApp(lang=lang, member=back)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = lambda: app.screen.query_one(DecisionPanel)  # noqa: E731
        word = t(f"decision.{chosen.value}")
        await until(pilot, lambda: app.screen.query(DecisionPanel)
                    and panel().note == t("decision.chosen_for_you", choice=word))
        back.decide(chosen)  # kept, as their own choice now
        await until(pilot, lambda: panel().note == t(
            "decision.hurry_one", name="ann", seconds=f"{clock.HURRY_TIME:g}"))
        ann.decide(Decision.CONTINUE)
    await table.close()
