"""What a crowd at a table costs the players: a refused chat line is said once, not once
per key (every toast costs a layout coming and going), and the spectators' screens draw
the table's updates after the players' (on a server they all take turns on one loop)."""

from __future__ import annotations

import asyncio

from diamant_tui.table import ChatLimits, Table, TableSettings, TableStatus
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.screens import table as table_screen
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.widgets.decision import DecisionPanel
from ui_helpers import FixedTable, FrameCounter, T, mid_round, screen_text, until


def refusals(app) -> list[str]:
    return [n.message for n in app._notifications if "before you chat again" in n.message]


async def test_asking_again_while_the_refusal_is_shown_adds_no_other_note():
    """The spectator has used their one line: t, t, t say once, on their note line (no
    toast: a crowd watching meets the spectators' allowance all at once), when they may
    speak again; it stays there while the table goes on, and the chat box opens all the
    same (the letters typed next are the line's). A player refused is told once, under
    the round's lines beneath the cave (no toast over the newest of them), and t pressed
    again meanwhile tells it no other time."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05),
                  chat=ChatLimits(person=1, window=60.0))
    ann = table.sit("ann", "ann")
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        panel = app.screen.query_one(DecisionPanel)
        wes.say("hello")  # t at once: refused before the line itself comes back
        for _ in range(3):
            await pilot.press("t")
            await pilot.pause()
        await until(pilot, lambda: "before you chat again" in panel.note)
        await until(pilot, lambda: any(line.text == "hello" for line in app.screen._chat_seen))
        assert "before you chat again" in panel.note  # not hidden by "You said"
        assert refusals(app) == []
        assert "-open" in app.screen.query_one("#chat-input").classes
        panel._relabel()  # what every change of the table does
        assert "before you chat again" in panel.note
    player_app = DiamantApp(lang="en", member=ann)
    async with player_app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(player_app.screen, TableScreen)
                    and player_app.screen.view is not None)
        told: list[str | None] = []
        screen = player_app.screen
        tell = screen._tell_refusal
        screen._tell_refusal = lambda text: (told.append(text), tell(text))
        ann.say("hi")
        for _ in range(3):
            await pilot.press("t")
            await pilot.pause()
        await until(pilot, lambda: "before you chat again" in screen_text(player_app))
        told = [text for text in told if text]  # (None: its seconds over)
        assert len(told) == 1 and "before you chat again" in told[0], told
        assert screen_text(player_app).count("before you chat again") == 1
        assert refusals(player_app) == []
    await table.close()


async def test_the_spectators_screens_draw_an_update_after_the_players(monkeypatch):
    """When the player's screen draws the new card, the spectator's (which came first)
    has not taken it in yet: it does a moment later, with whatever else came meanwhile."""
    monkeypatch.setattr(table_screen, "SPECTATOR_DELAY", 2.0, raising=False)  # > a frame
    table = mid_round(FixedTable())
    table.decide(Ana="continue")  # the turn's last choice: the next card is due
    spectator_app = DiamantApp(lang="en", member=table.member(None))
    player_app = DiamantApp(lang="en", member=table.member(0))
    seen_by_spectator_then: list[bool] = []
    async with spectator_app.run_test(size=(80, 24)) as spectator, \
            player_app.run_test(size=(80, 24)) as player:
        for app in (spectator_app, player_app):
            await until(spectator, lambda: getattr(app.screen, "view", None) is not None)
        await player.pause()
        cards = len(player_app.screen.view.path)
        display = player_app._display

        def frame(screen, renderable) -> None:
            if renderable is not None and len(player_app.screen.view.path) > cards:
                seen_by_spectator_then.append(len(spectator_app.screen.view.path) > cards)
            display(screen, renderable)

        player_app._display = frame
        table.reveal(T(14))
        await until(player, lambda: seen_by_spectator_then)
        assert seen_by_spectator_then[0] is False
        await until(spectator, lambda: len(spectator_app.screen.view.path) > cards)


async def test_a_spectators_own_line_is_told_on_its_note_line_not_in_a_toast():
    """A spectator who chats sees their line on the note line, exactly as typed; no toast
    comes and goes (each would lay out the whole screen twice, for every line of a crowd).
    A player's line shows under the path on the spectator's screen, in no toast either."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05))
    ann = table.sit("ann", "ann")
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.view is not None)
        await pilot.pause()
        wes.say("hi [b]all[/b]")
        await until(pilot, lambda: "You said: hi [b]all[/b]" in screen_text(app))
        assert not app._notifications
        ann.say("hello wes")
        await until(pilot, lambda: "» ann: hello wes" in screen_text(app))
        assert not app._notifications
    await table.close()


async def test_an_open_chat_box_sends_nothing_while_nobody_types():
    """The chat box's cursor does not blink: a blink is a frame twice a second, for as long
    as the box is open, for every person with one open on a server."""
    table = mid_round(FixedTable())
    app = DiamantApp(lang="en", member=table.member(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.view is not None)
        await pilot.press("t")
        await until(pilot, lambda: app.focused is not None and app.focused.id == "chat-input")
        await pilot.pause()
        frames = FrameCounter(app)
        await asyncio.sleep(1.3)  # the interval measured: over two blinks of a cursor
        await pilot.pause()
        assert frames.frames == 0, frames.frames
        assert "Say something" in screen_text(app)


async def test_a_toast_already_on_screen_is_not_shown_again():
    """The same words while their toast is still up ring the bell instead of stacking a
    second toast (each toast is a layout of the screen coming and going); other words,
    or the same once the toast has gone, are shown."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",) * 2, pace=0.05))
    app = DiamantApp(lang="en", member=table.sit("ann", "ann"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        for _ in range(3):
            app.notify("Only the table's creator may start it early.", timeout=30)
        app.notify("Something else.", timeout=1.0)  # long enough for a busy machine
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            "Only the table's creator may start it early.", "Something else."]
        # The second toast's time is over (the list drops a toast once its time is up).
        await until(pilot, lambda: "Something else." not in
                    [n.message for n in app._notifications])
        app.notify("Something else.")
        await pilot.pause()
        assert [n.message for n in app._notifications].count("Something else.") == 1
    await table.close()


async def test_before_the_game_a_refusal_is_told_under_the_seats_and_a_closed_box_focuses_nothing():
    """While the table waits, the note line and the choice buttons are not on the screen
    (the waiting panel stands in their place, they are only made): a refused spectator is
    told at the foot of the seats, where the chat is read (not in a toast over them), and
    a player's chat box closed leaves the keyboard's focus on nothing, not on a hidden
    button that Enter would press."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:3",), pace=0.05),
                  chat=ChatLimits(person=1, window=60.0))
    ann = table.sit("ann", "ann")
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="en", member=wes)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: "Free seats: 1" in screen_text(app))
        wes.say("hello")
        await pilot.press("t")
        await until(pilot, lambda: "before you chat again" in screen_text(app))
        assert refusals(app) == []
        assert not any("before you chat again" in panel.note
                       for panel in app.screen.query(DecisionPanel))  # (hidden, if made)
    player_app = DiamantApp(lang="en", member=ann)
    async with player_app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Free seats: 1" in screen_text(player_app))
        await pilot.press("t")
        await until(pilot, lambda: "-open" in player_app.screen.query_one("#chat-input").classes)
        await pilot.press("escape")
        await until(pilot, lambda: "-open" not in player_app.screen.query_one("#chat-input").classes)
        await pilot.pause()
        assert player_app.focused is None, player_app.focused
    assert table.status is TableStatus.WAITING
    await table.close()
