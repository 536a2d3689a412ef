"""Chat at the table: read in the feed under the path, where it hides nothing of the
game; what was said before someone came (or came back) waits in the log and a short
recap, not in a toast over the game; and a spectator's own old line is not told again."""

from __future__ import annotations

import pytest
from textual.widget import Widget

from diamant_tui.engine.view import Decision
from diamant_tui.table import ChatLimits, ChatRejected, Table, TableSettings
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens import table_chat
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.widgets.decision import DecisionPanel
from ui_helpers import FixedTable, FrameCounter, final_shown, mid_round, screen_text, settled, until

RULE = "─" * 80


def below_the_path(text: str) -> list[str]:
    """The screen's lines from the rule above the player list down to the key bar."""
    lines = text.splitlines()
    return lines[next(n for n, line in enumerate(lines) if line.startswith(RULE)):]


def playing(app) -> bool:
    screen = app.screen
    return isinstance(screen, TableScreen) and screen.view is not None


async def test_a_chat_line_shows_under_the_path_and_covers_nothing_of_the_table():
    """Five at the table, 80x24: bob's line is read under the cards, and the player list
    (who has decided), the deck, the banner and the choices stay exactly as they were;
    no toast comes and goes."""
    table = Table(TableSettings(name="den", seats=5, bots=("cards:3",) * 3, pace=0.05))
    ann, bob = table.sit("ann", "ann"), table.sit("bob", "bob")
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app) and screen_text(app).count("✓ decided") == 3)
        await pilot.pause(0.1)
        before = below_the_path(screen_text(app))
        bob.say("hello [b]there[/b], who is still in?")
        await until(pilot, lambda: "» bob: hello [b]there[/b], who is still in?"
                    in screen_text(app))
        await pilot.pause(0.1)
        assert below_the_path(screen_text(app)) == before, screen_text(app)
        assert not app._notifications
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_tab_in_the_chat_box_keeps_the_line_in_the_box_never_to_the_game(lang):
    """ann's choice is due; she opens the chat box and presses Tab (or Shift+Tab) while
    typing, as some chat programs complete a name with it: the box keeps the focus, what
    she types next goes into it, and the line goes out whole. Before, Tab moved the
    focus to the Continue button, the box still open: the ``l`` of "lol" chose Exit
    and her Enter pressed a button."""
    table = Table(TableSettings(name="den", seats=5, bots=("cards:3",) * 3, pace=0.05))
    ann = table.sit("ann", "ann")
    table.sit("bob", "bob")  # the last seat for a person: the game begins
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app) and app.screen.view.decision_due)
        await pilot.press("t", *"hi", "tab", *"lol", "shift+tab", *" bob", "enter")
        await until(pilot, lambda: any(line.text == "hilol bob" for line in table._chat))
        assert table.game.view_for(ann.seat).my_decision is None
        assert [line.text for line in table._chat] == ["hilol bob"]
    await table.close()


async def test_coming_back_finds_the_chat_in_the_log_and_a_short_recap_not_a_toast():
    """ann comes back to her table after five lines were said: nothing pops up over the
    game; the feed recalls the last three, the log holds all five."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",), pace=0.05))
    ann, bob = table.sit("ann", "ann"), table.sit("bob", "bob")
    for n in range(5):
        bob.say(f"line {n}")
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app) and "line 4" in screen_text(app))
        await pilot.pause(0.2)
        text = screen_text(app)
        assert [f"line {n}" in text for n in range(5)] == [False, False, True, True, True], text
        assert not app._notifications
        await pilot.press("g")
        await until(pilot, lambda: "» bob: line 0" in screen_text(app))
    await table.close()


async def test_a_spectators_own_line_of_before_is_not_told_again_when_they_come_back():
    """wes said a line while watching, went away and watches again: their note line says
    that they are watching, not "You said" their old line."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05))
    table.sit("ann", "ann")
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        wes.say("hola")
        await until(pilot, lambda: "You said: hola" in screen_text(app))
    wes.leave()
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        await pilot.pause(0.2)
        panel = app.screen.query_one(DecisionPanel)
        assert panel.note == app.t("watching.note"), panel.note
        assert "You said" not in screen_text(app)
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_a_spectators_own_long_line_on_their_note_line_ends_with_an_ellipsis(lang):
    """wes, watching, says a line longer than his note line's two rows: he reads its
    beginning there, ending in an ellipsis, so that he can tell it goes on (the players
    read it whole). Before, it stopped at the end of the second row, mid-sentence, as
    if that was all that had been sent."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05))
    table.sit("ann", "ann")
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang=lang, member=wes)
    said = " ".join(f"word{n}" for n in range(36)) + " END"
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        wes.say(said)
        await until(pilot, lambda: "word0" in screen_text(app))
        rows = [row for row in screen_text(app).splitlines() if "word" in row]
        assert rows[0].strip().startswith(app.t("chat.you_said", line="word0")), rows
        assert len(rows) == 2 and rows[-1].rstrip().endswith("…"), rows
        assert "END" not in screen_text(app)
    await table.close()


async def test_the_chat_key_over_the_round_summary_closes_it_and_shows_the_box():
    """``t`` while the round's summary is up: the summary closes, as Enter would, and the
    box opens where its line shows, focused (a line was typed blind under the summary)."""
    from diamant_tui.ui.widgets.steady_input import SteadyInput
    from ui_helpers import round_summary_up, summary_shown

    async with round_summary_up() as (table, pilot):
        app = pilot.app
        await pilot.press("t", "h", "i")
        await until(pilot, lambda: not summary_shown(app))
        box = app.screen.query_one("#chat-input", SteadyInput)
        assert app.focused is box and box.value == "hi"
        await until(pilot, lambda: "hi" in screen_text(app).splitlines()[-2])


def flowing(text: str) -> str:
    """The screen's words with every run of spaces and line breaks as one space: a
    sentence wrapped over two lines still reads as one, one covered in part does not."""
    return " ".join(text.split())


async def eight_at_a_table(timer: float | None = None, chat: ChatLimits | None = None) -> tuple:
    """A table of eight seats opened by ann, bob beside her, three computer players and
    three seats free (the table waits), with the ``chat`` allowances given (or the
    usual ones): the table and ann's and bob's members."""
    table = Table(TableSettings(name="den", seats=8, bots=("cards:2",) * 3, pace=0.0, seed=4,
                                timer=timer), creator="ann", chat=chat or ChatLimits())
    return table, table.sit("ann", "ann"), table.sit("bob", "bob")


async def to_the_final_scores(pilot, table: Table, ann, bob) -> None:
    """ann starts the table of :func:`eight_at_a_table` (computer players take the free
    seats); she and bob go home at every turn until the app shows the final scores and
    who is to vote."""
    app = pilot.app
    ann.start_now()
    await until(pilot, lambda: playing(app))
    while not final_shown(app):
        for member in (ann, bob):
            view = table.game.view_for(member.seat) if table.game else None
            if view is not None and view.decision_due and view.my_decision is None:
                member.decide(Decision.LEAVE)
        await pilot.pause(0.02)
    votes = app.t("final.votes", votes="ann …, bob …")
    await until(pilot, lambda: votes in screen_text(app))


def rematch_lines_in_sight(app, text: str, *, watching: bool = False) -> None:
    """Assert that ``text`` (the screen) shows every player's score, how to ask for a
    rematch (that the players decide, to a spectator), who is to vote and the buttons,
    whole."""
    t = app.t
    assert all(name in text for name in ("ann", "bob", "Farid", "Greta", "Hugo")), text
    note = t("final.watching") if watching else t("final.vote_hint")
    assert flowing(note) in flowing(text), text
    assert t("final.votes", votes="ann …, bob …") in text, text
    assert t("final.quit") in text and (watching or t("final.rematch") in text), text


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_before_the_game_chat_is_read_under_the_seats_and_covers_nothing(lang):
    """Eight seats at 80x24, ann may start the table: bob's lines are read at the foot of
    the waiting seats, whole and as typed, and every seat and the line telling ann how to
    start stay in sight; nothing pops up over them."""
    table, ann, bob = await eight_at_a_table(timer=30)
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        hint = app.t("waiting.start_hint")
        await until(pilot, lambda: flowing(hint) in flowing(screen_text(app)))
        bob.say("hello [b]all[/b], who else is coming?")
        bob.say("I can wait")
        await until(pilot, lambda: "» bob: I can wait" in screen_text(app))
        text = screen_text(app)
        assert "» bob: hello [b]all[/b], who else is coming?" in text, text
        assert flowing(hint) in flowing(text), text
        assert all(name in text for name in ("ann", "bob", "Farid", "Greta", "Hugo")), text
        assert not app._notifications
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_at_the_final_scores_chat_leaves_the_rematch_lines_in_sight(lang):
    """Eight at the table, 80x24, the game over: a line of chat is read under the
    rematch lines, and how to ask for a rematch, who has asked and the buttons stay
    readable (a toast stood over them for 4 s)."""
    table, ann, bob = await eight_at_a_table()
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await to_the_final_scores(pilot, table, ann, bob)
        bob.say("one more? [b]yes[/b]")
        await until(pilot, lambda: "» bob: one more? [b]yes[/b]" in screen_text(app))
        rematch_lines_in_sight(app, screen_text(app))
        assert not app._notifications
    await table.close()


SAID_WHILE_VOTING = ("one more? [b]yes[/b]", "Ще одну партію? Я за!", "ok")
"""Three lines said while the people vote (markup in one, which must stay as typed)."""
LONG_LINE = "Давайте ще одну гру: минулого разу я майже виграв, а цього разу заберу всі рубіни"
"""A line over two rows at 80 columns, in Ukrainian."""


def read_in_order(text: str, lines) -> bool:
    """Whether the screen ``text`` shows each of bob's ``lines`` whole, in this order."""
    read = flowing(text)
    at = [read.find(flowing(f"» bob: {line}")) for line in lines]
    return -1 not in at and at == sorted(at)


@pytest.mark.parametrize("lang", ["en", "uk"])
async def test_at_the_final_scores_the_last_lines_said_are_read_together(lang):
    """Eight at the table, 80x24, the game over: three lines bob says while the people
    vote are all read, newest last, and the scores and the rematch lines stay in sight;
    a long line then reads whole over two rows, the line before it over it. Only the
    newest line was shown, the others in the log alone."""
    table, ann, bob = await eight_at_a_table()
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await to_the_final_scores(pilot, table, ann, bob)
        for line in SAID_WHILE_VOTING:
            bob.say(line)
        await until(pilot, lambda: "» bob: ok" in screen_text(app))
        text = screen_text(app)
        assert read_in_order(text, SAID_WHILE_VOTING), text
        rematch_lines_in_sight(app, text)
        # Under the buttons, the chat box's line (the last above the key bar) left free.
        rows = text.splitlines()
        buttons = next(n for n, row in enumerate(rows) if app.t("final.rematch") in row)
        assert all("» bob" not in row for row in rows[:buttons]), text
        assert rows[-2].strip() == "", text
        bob.say(LONG_LINE)
        await until(pilot, lambda: read_in_order(screen_text(app), ("ok", LONG_LINE)))
        rematch_lines_in_sight(app, screen_text(app))
        assert not app._notifications
    await table.close()


def over_the_allowance(member) -> ChatRejected:
    """Why a line of ``member``'s would be refused now."""
    with pytest.raises(ChatRejected) as refused:
        member.may_chat()
    return refused.value


def told_wait(t, error: ChatRejected) -> list[str]:
    """The ways ``error`` may read in ``t``'s language, kept in the box, a second or
    so later (the seconds left are counted down)."""
    return [flowing(t("chat.kept", why=t(error.key, **{**error.fmt, "seconds": n})))
            for n in range(1, 12)]


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_at_the_final_scores_a_refused_line_is_told_under_the_chat_not_in_a_toast(
        lang, monkeypatch):
    """ann, over her chat allowance at the final scores, sends a line: why it waits,
    and that it is kept in the box, is read under the chat, in her language, and goes
    once its seconds are over; the line stays in the box, and nothing pops up over the
    rematch lines (a toast stood over them for 4 s)."""
    monkeypatch.setattr(table_chat, "REFUSAL_SHOWN", 1.0)
    table, ann, bob = await eight_at_a_table(chat=ChatLimits(person=1))
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await to_the_final_scores(pilot, table, ann, bob)
        ann.say("gg")
        await until(pilot, lambda: "» ann: gg" in screen_text(app))
        error = over_the_allowance(ann)
        await pilot.press("t", *"again?", "enter")
        told = told_wait(app.t, error)
        await until(pilot, lambda: any(why in flowing(screen_text(app)) for why in told))
        text = screen_text(app)
        assert "» ann: gg" in text and "again?" in text.splitlines()[-2], text
        rematch_lines_in_sight(app, text)
        assert not app._notifications
        await until(pilot, lambda: not any(why in flowing(screen_text(app)) for why in told))
        assert "again?" in screen_text(app).splitlines()[-2]
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_before_the_game_a_spectator_reads_their_own_line_under_the_seats(lang):
    """wes watches a table waiting for players and says something: he reads his line at
    the foot of the seats, where the players read it, as typed. Before, a spectator's own
    line was told during the game and at the final scores only: before the game it went
    to the log alone, and he could not tell whether it had been sent."""
    table, ann, bob = await eight_at_a_table()
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang=lang, member=wes)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: app.t("watching.note") in screen_text(app))
        await pilot.press("t", *"[b]anyone[/b]?", "enter")
        said = app.t("chat.watching", name="wes")
        await until(pilot, lambda: f"» {said}: [b]anyone[/b]?" in screen_text(app))
        assert all(name in screen_text(app) for name in ("ann", "bob")), screen_text(app)
        assert not app._notifications
    await table.close()


async def test_at_the_final_scores_a_spectator_reads_their_refusal_and_their_line(monkeypatch):
    """wes watches the final scores in Ukrainian, the spectators' share used up: why he
    must wait is read under the chat (it went to his note line, under the scores, and
    he saw nothing); once he may, his own line is read there too."""
    monkeypatch.setattr(table_chat, "REFUSAL_SHOWN", 1.0)
    table, ann, bob = await eight_at_a_table(chat=ChatLimits(watchers=1, window=1.0))
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="uk", member=wes)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await to_the_final_scores(pilot, table, ann, bob)
        table.watch("zoe", "zoe").say("bravo")  # the spectators' share for two seconds
        error = over_the_allowance(wes)
        await pilot.press("t")
        why = [flowing(app.t(error.key, **{**error.fmt, "seconds": n})) for n in (1, 2)]
        await until(pilot, lambda: any(w in flowing(screen_text(app)) for w in why))
        rematch_lines_in_sight(app, screen_text(app), watching=True)
        assert not app._notifications
        await until(pilot, lambda: not any(w in flowing(screen_text(app)) for w in why))
        await pilot.press(*"я теж", "enter")
        said = app.t("chat.watching", name="wes")
        await until(pilot, lambda: f"» {said}: я теж" in screen_text(app))
    await table.close()


async def test_the_chat_box_is_drawn_when_the_screen_is_arranged_before_its_layout():
    """The box opened, then asked to be drawn and the screen's widgets arranged again
    before the layout its new line asks for (as a frame of the key bar and a notice
    placed at once did, on a busy server): the layout still tells the box its size and
    draws its line. Before, it found the box where the map arranged in between had put
    it, and the box stayed blank on the terminal, open and focused, what was typed in it
    unseen."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        frames = FrameCounter(app)
        screen = app.screen
        chat = screen._chat
        screen.action_chat()
        # A frame ahead of the layout (the key bar drawn at once), the box's new height
        # on its way up (its containers' arrangements dropped, as the layout's message
        # does), then a question of where something lies: the map is arranged again.
        screen._compositor.update_widgets({chat})
        for container in chat.ancestors:
            if isinstance(container, Widget):
                container._clear_arrangement_cache()
        assert screen._compositor.full_map[chat].region.height == 1
        await settled(pilot)
        assert chat.size.height == 1
        # (Its first letter under the cursor is written apart.)
        assert any("ay something and press Enter" in frame for frame in frames.sent), frames.sent


@pytest.mark.parametrize("lang", ["en", "fr", "es", "uk"])
async def test_before_the_game_a_refused_line_is_told_under_the_seats_not_in_a_toast(
        lang, monkeypatch):
    """Eight seats at 80x24, ann may start the table and is over her chat allowance:
    pressing t, then sending a line, she reads why she must wait at the foot of the
    seats, under the chat, in her language (then that her line is kept), until its
    seconds are over; the line stays in the box, and every seat and the line telling
    her how to start stay in sight. Two toasts stood over them for 4 s."""
    monkeypatch.setattr(table_chat, "REFUSAL_SHOWN", 1.0)
    table, ann, _ = await eight_at_a_table(timer=30, chat=ChatLimits(person=1))
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        hint = app.t("waiting.start_hint")
        await until(pilot, lambda: flowing(hint) in flowing(screen_text(app)))
        ann.say("hi")
        await until(pilot, lambda: "» ann: hi" in screen_text(app))
        error = over_the_allowance(ann)
        await pilot.press("t")
        wait = [flowing(app.t(error.key, **{**error.fmt, "seconds": n})) for n in range(1, 12)]
        await until(pilot, lambda: any(why in flowing(screen_text(app)) for why in wait))
        await pilot.press(*"again?", "enter")
        kept = told_wait(app.t, error)
        await until(pilot, lambda: any(why in flowing(screen_text(app)) for why in kept))
        text = screen_text(app)
        assert "» ann: hi" in text and "again?" in text.splitlines()[-2], text
        assert flowing(hint) in flowing(text), text
        assert all(name in text for name in ("ann", "bob", "Farid", "Greta", "Hugo")), text
        assert not app._notifications
        await until(pilot, lambda: not any(why in flowing(screen_text(app)) for why in kept))
        assert "again?" in screen_text(app).splitlines()[-2]
    await table.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_under_the_cave_a_refused_line_is_told_among_the_rounds_lines(lang, monkeypatch):
    """ann, playing at 80x24 over her chat allowance, sends a line: why it waits, and
    that it is kept, is read under the cave after the round's lines, in her language, and
    goes once its seconds are over; the player list, the deck and the banner (the round's
    newest lines) stay as they were: a toast stood over them for 4 s."""
    monkeypatch.setattr(table_chat, "REFUSAL_SHOWN", 1.0)
    table = Table(TableSettings(name="den", seats=5, bots=("cards:3",) * 3, pace=0.05),
                  chat=ChatLimits(person=1))
    ann = table.sit("ann", "ann")
    table.sit("bob", "bob")  # a person too: the turn waits for them
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        decided = app.t("players.decided")
        await until(pilot, lambda: playing(app) and screen_text(app).count(decided) == 3)
        ann.say("gl")
        await until(pilot, lambda: "» ann: gl" in screen_text(app))
        await pilot.pause(0.1)
        before = below_the_path(screen_text(app))
        error = over_the_allowance(ann)
        await pilot.press("t", *"hf", "enter")
        kept = told_wait(app.t, error)
        await until(pilot, lambda: any(why in flowing(screen_text(app)) for why in kept))
        text = screen_text(app)
        above = flowing("\n".join(text.splitlines()[:len(text.splitlines()) - len(before)]))
        assert any(why in above for why in kept), text  # under the cave, not below it
        assert above.index("» ann: gl") < min(above.find(why) for why in kept
                                              if why in above), text
        assert below_the_path(text)[:-2] == before[:-2], text  # all but the box's line
        assert not app._notifications
        await until(pilot, lambda: not any(why in flowing(screen_text(app)) for why in kept))
        assert "hf" in screen_text(app).splitlines()[-2]
    await table.close()
