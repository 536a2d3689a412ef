"""Reporting someone to the server's hosts (``/report NAME why`` in the chat box): the
screen finds the name as ``/ignore`` does and hands it, with the reason, to the app,
which says what became of it where chat notes are told. A local game has no hosts.
Mistakes are told in the person's language; nothing of it is sent to the table."""

from __future__ import annotations

import pytest

from diamant_tui.ui import DiamantApp
from diamant_tui.ui.messages import ReportAsked
from test_ignored_chat import command, four_at_a_table, lines_said, told
from test_table_chat import flowing, playing
from ui_helpers import screen_text, until

LANGS = ["en", "fr", "es", "uk"]


@pytest.mark.parametrize("lang", LANGS)
async def test_each_answer_is_told_in_the_persons_language_and_nothing_is_sent(lang):
    """No name (kept in the box), an unknown name (kept), herself, the computer player,
    then bob: a game with no server says there are no hosts to report to. bob's screen
    gets nothing of it."""
    table, ann, bob, _ = four_at_a_table()
    bob_reads = lines_said(bob)
    app = DiamantApp(lang=lang, member=ann)
    answers = [
        ("/report", "chat.report_usage", {}, True),
        ("/report zed he is rude", "chat.report_unknown", {"name": "zed"}, True),
        ("/report ANN oops", "chat.report_self", {}, False),
        ("/report dmytro cheats", "chat.report_computer", {"name": "Dmytro"}, False),
        ("/REPORT bob insults", "chat.report_no_hosts", {}, False),
    ]
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app))
        for typed, key, fmt, kept in answers:
            await command(pilot, typed)
            await until(pilot, lambda key=key, fmt=fmt: told(app, key, **fmt))
            box = screen_text(app).splitlines()[-2]
            assert (typed in box) is kept, (typed, box)
            if kept:
                await pilot.press("escape")
        assert not app._notifications
    assert bob_reads == [], bob_reads
    await table.close()


class HostedApp(DiamantApp):
    """An app that has hosts: it keeps what was asked and answers as a server would."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.asked: list[tuple[str, str]] = []

    def report(self, message: ReportAsked) -> None:
        self.asked.append((message.name, message.reason))
        message.answer(f"filed: {message.name} for {message.reason}")


async def test_the_app_is_handed_the_name_as_the_table_shows_it_and_the_reason_as_typed():
    """``/report bоb [b]rude[/b]`` (typed with a Cyrillic о) hands the app ``bob`` and
    the reason as typed; its answer is shown as written, brackets and all."""
    table, ann, _, _ = four_at_a_table()
    app = HostedApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app))
        await command(pilot, "/report bоb  [b]rude[/b]  twice")
        await until(pilot, lambda: app.asked)
        await until(pilot, lambda: "filed: bob for [b]rude[/b] twice"
                    in flowing(screen_text(app)))
        assert app.asked == [("bob", "[b]rude[/b] twice")]
        assert "/report" not in screen_text(app).splitlines()[-2]  # the box closed
    await table.close()
