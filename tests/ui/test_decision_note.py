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
