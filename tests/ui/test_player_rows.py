"""The player list draws each line from its runs of text directly, without making a
Textual Content of it, and every cell comes out as Textual draws the same text: the same
character in the same look, a line too long for its width cut with the same ellipsis.
Only the lines that change are drawn and sent again."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from rich.text import Text
from textual.visual import Visual, visualize

from diamant_tui.names import distinct_name
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.widgets.players import PlayerList, PlayersState
from ui_helpers import FixedTable, FrameCounter, T, cell_looks, mid_round, screen_text, settled


def as_textual_draws(players: PlayerList, runs, width: int):
    """The runs as one Rich Text (the first run's style its own, as a row's was), drawn
    by Textual."""
    text = Text(runs[0][0], style=runs[0][1])
    for part, style in runs[1:]:
        text.append(part, style=style)
    visual = visualize(players, text, markup=False)
    return Visual.to_strips(players, visual, width, 1, players.visual_style)[0]


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("size", [(80, 24), (56, 24), (130, 40)])
@pytest.mark.parametrize("seat", [0, None])
async def test_every_line_is_drawn_as_textual_draws_its_text(lang, size, seat):
    """Mid-round: a player in camp, one decided, one not yet; then one away (a computer
    plays for them) and none a person. At 56 columns the lines are cut."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang=lang, member=table.member(seat))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        players = app.screen.query_one(PlayerList)
        view = players.state.view
        cut = 0
        for state in (players.state, PlayersState(view, frozenset({2}), frozenset())):
            players.state = state
            width = players.size.width
            for y in range(len(view.players) + 1):
                runs = players._header() if y == 0 else players._row(view.players[y - 1])
                drawn = cell_looks(players.render_line(y))
                assert drawn == cell_looks(as_textual_draws(players, runs, width)), (y, drawn)
                cut += drawn[-1][0] == "…" and sum(map(len, (r for r, _ in runs))) > width
        assert (cut > 0) == (size[0] == 56), cut


async def test_a_player_deciding_sends_their_row_alone():
    """Dmytro decides: Ana's screen draws and sends his row, not the list's header and
    the other rows with it (as it did, for every seat at the table)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        table.decide(Ana="continue")
        table.reveal(T(4))  # nobody has decided this turn
        await settled(pilot)
        frames = FrameCounter(app)
        table.decide(Dmytro="continue")
        await settled(pilot)
        sent = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(frames.sent))
        assert frames.frames == 1 and "Dmytro" in sent and "✓" in sent
        assert not any(word in sent for word in ("Player", "Ana", "Bruno", "Chiara")), sent
        row = next(line for line in screen_text(app).splitlines()
                   if line.lstrip().startswith("Dmytro"))
        assert "✓ decided" in row
        frames.reset()
        table.decide(Dmytro="leave")  # a change of mind: the others see nothing new
        await settled(pilot)
        assert frames.frames == 0


async def test_a_name_reaches_the_terminal_as_text_whatever_it_holds():
    """The table cleans names, and the list draws its lines as segments, not through a
    Content that would drop control characters: a control character that reached the
    list anyway is shown as a space, never sent to the terminal."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        players = app.screen.query_one(PlayerList)
        view = players.state.view
        named = tuple(replace(p, name="Ev\x1bil" if p.seat == 1 else p.name)
                      for p in view.players)
        players.state = PlayersState(replace(view, players=named))
        line = "".join(segment.text for segment in players.render_line(2))
        assert "Ev il" in line and "\x1b" not in line


async def marked(app: DiamantApp, pilot) -> None:
    """The table shown, then its player list told that Chiara (seat 2) is away, a
    computer playing for her, and that seat 0 is a person's."""
    await settled(pilot)
    players = app.screen.query_one(PlayerList)
    players.state = PlayersState(players.state.view, frozenset({2}), frozenset({0}))
    await settled(pilot)


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_the_away_mark_is_set_off_from_its_word_as_the_decided_mark_is(lang):
    """Mid-round, Chiara away (a computer plays for her), Dmytro decided: in every
    language each mark stands a space before its word (``☾ away``, ``✓ decided``)."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang=lang, member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await marked(app, pilot)
        t = app.t
        text = screen_text(app)
        assert f"☾ {t('players.away')}" in text, text
        assert f"☾{t('players.away')}" not in text
        assert f"✓ {t('players.decided')}" in text


MASCULINE_PAST = re.compile(r"\b\w+(?:ов|ив|ав|ів)\b")
"""A Ukrainian verb in the masculine past (обрав, відійшов, вирішив): said of a person
whose gender the game does not know."""


async def test_ukrainian_tells_a_persons_status_in_words_that_fit_anyone():
    """Mid-round in Ukrainian at 80x24, Chiara away and Dmytro decided: the turn column
    says so whole, with no verb in the masculine past (she, or anyone, reads it as
    meant), as does the log's line for a choice made."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="uk", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await marked(app, pilot)
        t = app.t
        rows = {line.split()[0]: line for line in screen_text(app).splitlines()
                if line.split() and line.split()[0] in ("Chiara", "Dmytro")}
        assert f"☾ {t('players.away')}" in rows["Chiara"], rows
        assert f"✓ {t('players.decided')}" in rows["Dmytro"], rows
        for said in (t("players.away"), t("players.decided"), t("event.decided", name="Chiara")):
            assert not MASCULINE_PAST.search(said), said


@pytest.mark.parametrize("size", [(80, 24), (56, 24)])
async def test_a_second_person_under_a_long_name_keeps_the_mark_that_tells_them_apart(size):
    """Two people under one name of wide letters: the second shows with a mark (``²``)
    at its end, which cutting the name to the list's width took away; both rows then
    read the same, and either could pass for the other."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="fr", member=table.member(0))
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        players = app.screen.query_one(PlayerList)
        view = players.state.view
        first = "山田太郎左衛門右衛門之助介様与一"
        second = distinct_name(first, {first})
        names = {1: first, 2: second}
        named = tuple(replace(p, name=names.get(p.seat, p.name)) for p in view.players)
        players.state = PlayersState(replace(view, players=named))
        rows = ["".join(segment.text for segment in players.render_line(y)) for y in (2, 3)]
        assert "…" in rows[0] and "…²" in rows[1], rows
        assert "²" not in rows[0]
