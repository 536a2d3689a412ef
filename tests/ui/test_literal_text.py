"""What people typed is shown as typed, on every screen: never read as markup, no control
character reaching the terminal, wide and combining characters kept in their columns.

Random names, chat lines and table names (with markup such as ``[/bold]``, control and
wide characters among them) go through a real table: the waiting room, the chat (log and
the foot of the waiting seats), the players, the events, the round summary and the final scores.
"""

from __future__ import annotations

import unicodedata

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from textual.widgets import RichLog

from diamant_tui.table import ChatRejected, Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.event_banner import EventBanner
from diamant_tui.ui.widgets.players import PlayerList
from diamant_tui.ui.widgets.score_table import ScoreTable
from diamant_tui.ui.widgets.waiting import WaitingPanel
from diamant_tui.engine.view import Decision
from ui_helpers import final_shown, FixedTable, T, screen_text, summary_shown, until

TRICKY = [
    "[/bold]", "[bold]x[/bold]", "[@click=app.quit]", "[link=https://x]y[/link]", "[red]",
    "\\[b]", "[b", "]", "a\x1b[31mred", "\x1b]0;title\x07", "\x07\x08\r\x0b", "tab\there",
    "漢字かな漢字", "ｆｕｌｌ", "e\u0301\u0302x", "\u0301lead", "🙂🎉", "zw\u200bj",
    "\u202eevil", "{name}", "%s", "   ", "", "$(rm)",
]
texts = st.one_of(st.sampled_from(TRICKY), st.text(max_size=24))


def as_shown(text: str) -> str:
    """``text`` as the screen should show it: each control or format character a space."""
    return "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)


def squash(text: str) -> str:
    """``text`` without whitespace: lines may wrap, columns are padded."""
    return "".join(text.split())


def crop(line: str, start: int, end: int) -> str:
    """The part of a screen line between two cell positions (wide characters count two)."""
    kept, x = [], 0
    for ch in line:
        width = cell_len(ch)
        if (width and start <= x and x + width <= end) or (not width and start <= x <= end):
            kept.append(ch)
        x += width
    return "".join(kept)


def shown(app, widget) -> str:
    """What the screen shows where ``widget`` is."""
    lines = screen_text(app).splitlines()
    x, y, width, height = widget.content_region
    return "\n".join(crop(lines[row], x, x + width) for row in range(y, min(y + height, len(lines))))


def fitting(name: str, cells: int) -> str:
    """The start of ``name`` that fits in ``cells`` cells (what a column of that width shows)."""
    kept, used = [], 0
    for ch in name:
        used += cell_len(ch)
        if used > cells:
            break
        kept.append(ch)
    return "".join(kept)


def assert_clean(text: str) -> None:
    """No control character reaches the terminal (line breaks separate the lines)."""
    bad = [ch for ch in text if ch != "\n" and unicodedata.category(ch) == "Cc"]
    assert not bad, f"control characters on screen: {bad!r}"


def assert_shows(text: str, expected: str) -> None:
    assert squash(expected) in squash(text), f"{expected!r} not shown as typed in:\n{text}"


# A few dozen games; no shrinking (each example plays a round or two: shrinking one
# would take minutes), the failing example is reported as drawn.
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(names=st.lists(texts, min_size=3, max_size=3), chat=st.lists(texts, min_size=2, max_size=2),
       table_name=texts)
@example(names=["[/bold]", "[bold]x[/bold]", "[@click=app.quit]"],
         chat=["[/bold] [red]hi", "a\x1b[2Jb\x07"], table_name="[b]x\x1b[31m")
@example(names=["漢字かな漢字漢字かな漢字", "e\u0301\u0302" * 6, "🙂🎉" * 8],
         chat=["漢字" * 30, "\u202e[/]"], table_name="\r\n\t")
async def test_names_chat_and_table_names_are_shown_as_typed(names, chat, table_name):
    table = Table(TableSettings(name=table_name, seats=3, bots=(), pace=0, seed=7))
    me = table.sit(names[0], "me")
    other = table.sit(names[1], "other")
    app = DiamantApp(lang="en", member=me)
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        # The waiting room: the table's name and who sits where.
        await until(pilot, lambda: app.screen.update_ is not None)
        await pilot.pause()
        waiting = shown(app, app.screen.query_one(WaitingPanel))
        assert_clean(waiting)
        assert_shows(waiting, f"Table {as_shown(table_name)}: waiting for players")
        for seat in table.seats[:2]:
            assert_shows(waiting, fitting(seat.name, 17))

        # Chat: in the log and at the foot of the waiting seats.
        said = []
        for author, line in zip((other, me), chat):
            if line.strip():
                try:
                    said.append(author.say(line))
                except ChatRejected:  # nothing left once cleaned: refused with a message
                    pass
        await until(pilot, lambda: len(app.screen._chat_seen) == len(said))
        await pilot.pause()
        log = app.screen.query_one(RichLog)
        for entry in said:
            assert_shows(shown(app, log), f"» {entry.author}: {entry.text}")
        waiting = shown(app, app.screen.query_one(WaitingPanel))
        assert_clean(waiting)
        for entry in said:
            assert_shows(waiting, f"» {entry.author}: {entry.text}")
        assert not app._notifications

        # The game: the players, and events naming them (everyone exits at once).
        third = table.sit(names[2], "third")
        seat_names = [s.name for s in table.seats]
        await until(pilot, lambda: app.screen.view is not None and app.screen.view.decision_due)
        for member in (me, other, third):
            member.decide(Decision.LEAVE)
        await until(pilot, lambda: app.screen.view.round == 2 and app.screen.view.decision_due)
        await pilot.pause()
        text = screen_text(app)
        assert_clean(text)
        players = shown(app, app.screen.query_one(PlayerList))
        for name in seat_names:
            assert_shows(players, fitting(name, 10))
        rows = players.splitlines()
        where = cell_len(rows[0][: rows[0].index("Where")])
        for line in rows[1:4]:
            assert crop(line, where, where + 4) == "Cave", f"the columns are out of line:\n{players}"
            assert_shows(shown(app, log), f"{name} goes back to camp")
        assert_shows(shown(app, log), "Exit: " + ", ".join(seat_names))
        assert app.screen.query_one(EventBanner).region.height > 0
    await table.close()

    # The round summary and the final scores, with the same names.
    fixed = FixedTable(names=seat_names)
    app = DiamantApp(lang="en", member=fixed.member(0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        fixed.reveal(T(9))  # shared by three: everyone ties, round after round
        fixed.everyone("leave")
        await until(pilot, lambda: summary_shown(app))
        await pilot.pause()
        summary = shown(app, app.screen.query_one("#summary-box"))
        assert_clean(summary)
        for seat, name in enumerate(seat_names):
            assert_shows(summary, fitting(("▶ " if seat == 0 else "  ") + name, 15))
        # Everyone banked the same: the amounts stand in one column whatever the names.
        rows = [line for line in summary.splitlines() if "+" in line]
        assert len(rows) == len(seat_names), summary
        starts = {cell_len(line[: line.rindex("+")]) for line in rows}
        assert len(starts) == 1, f"out of line:\n{summary}"
        # The other rounds in the engine alone (drawing each would only cost time).
        game = fixed.game
        for treasure in (5, 7, 11, 13):
            game.reveal(T(treasure))
            events = [e for seat in list(game.players_in_cave) for e in game.submit(seat, "leave")]
        fixed.publish(events)
        await until(pilot, lambda: final_shown(app))
        await pilot.pause()
        text = screen_text(app)
        assert_clean(text)
        assert_shows(shown(app, app.screen.query_one("#final-winners")),
                     "Shared victory: " + ", ".join(seat_names))
        scores = shown(app, app.screen.query_one(ScoreTable))
        for name in seat_names:
            assert_shows(scores, fitting(name, 13))
        rows = scores.splitlines()
        end = cell_len(rows[0][: rows[0].index("R1") + 2])  # the first round's column, right-aligned
        for line in rows[1:4]:
            assert crop(line, end - 5, end).strip().isdigit(), f"the columns are out of line:\n{scores}"
