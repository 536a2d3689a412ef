"""What the table refuses is told in the person's language, briefly, or not at all when
the key simply came too late: never in the engine's English."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from diamant_tui.engine.errors import DiamantError, GameOver, IllegalDecision, NoDecisionDue
from diamant_tui.engine.view import Phase
from diamant_tui.i18n import LANGUAGES, Translator
from diamant_tui.table import (
    ChatRejected,
    NotAtTable,
    NotNow,
    NotTheCreator,
    OnlyPlayers,
    Table,
    TableFull,
    TableSettings,
)
from diamant_tui.ui import DiamantApp
from diamant_tui.ui.refusals import refusal_text
from ui_helpers import screen_text, until

TOAST_WORDS = 36
"""Cells a toast has for its words at 80 columns (half the screen, less its edges)."""


def toasts(app) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_key_for_a_turn_a_computer_ended_while_the_seat_was_away_says_nothing(lang):
    """"When the timer runs out, a computer player decides for you": its choice can end
    the turn before the card comes (the table's pace). A key pressed then wakes the seat,
    and its choice is too late: no note, where the engine's English refusal showed."""
    table = Table(TableSettings(seats=3, bots=("cards:40", "cards:40"), pace=4, seed=5,
                                timer=0.2))
    me = table.sit("me", "me")
    app = DiamantApp(lang=lang, member=me)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        # The card, and the turn's end, still to come; the screen shows the turn (under
        # load it can still be drawing the card when the table has the turn's choices).
        await until(pilot, lambda: table.game is not None and table.seats[me.seat].away
                    and table.game.phase is Phase.REVEAL
                    and getattr(app.screen, "view", None) is not None
                    and app.screen.view.decision_due)
        await pilot.press("c")
        await pilot.pause()
        assert not table.seats[me.seat].away  # the key woke the seat
        assert toasts(app) == []
        assert "no decision" not in screen_text(app)
    await table.close()


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_seat_taken_over_by_a_newer_connection_is_told_so_in_its_language(lang):
    """The same person sits again from elsewhere: the older screen can do nothing more at
    the table, and a line sent from it says so in words its person reads."""
    table = Table(TableSettings(seats=3, pace=0, seed=5))
    old = table.sit("me", "me")
    app = DiamantApp(lang=lang, member=old)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        table.sit("me", "me")  # a newer connection takes the seat over
        await pilot.press("t", *"hello", "enter")
        await until(pilot, lambda: toasts(app))
        assert toasts(app) == [Translator(lang)("refused.gone")]
    await table.close()


REFUSALS: list[tuple[DiamantError, bool]] = [
    (NoDecisionDue("no decision is due in round 5: the game waits for a card to be revealed."), False),
    (IllegalDecision("me is in camp; only players in the cave decide."), False),
    (GameOver("the game is over; start a new one to play again."), False),
    (NotNow("the game has already begun."), False),
    (NotNow("a rematch can only be asked for once the game is over."), False),
    (NotAtTable("you are no longer at this table."), True),
    (OnlyPlayers("you are watching this table; only its players can do that."), True),
    (NotTheCreator("only the person who opened the table can start it early."), True),
    (TableFull("table 'cave' is full; you can watch it."), True),
    (DiamantError("anything else"), True),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("error, said", REFUSALS, ids=lambda x: type(x).__name__)
def test_every_refusal_is_translated_and_short_or_not_said_at_all(lang, error, said):
    """Each kind of refusal a table gives has words in every language, two lines of a
    toast at most at 80 columns; a key that came too late has none."""
    t = Translator(lang)
    text = refusal_text(t, error)
    if not said:
        assert text is None
        return
    assert text and text != str(error) and not text.startswith("refused.")
    lines = Text(text).wrap(Console(width=80), TOAST_WORDS)
    assert len(lines) <= 2, text


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_chat_line_of_nothing_visible_is_refused_in_words_of_the_language(lang):
    """A line of control characters only is empty once cleaned: it is not sent, and
    the refusal has a text in every language, not the table's English."""
    table = Table(TableSettings(seats=3, pace=0, seed=5))
    me = table.sit("me", "me")
    with pytest.raises(ChatRejected) as refused:
        me.say("\x07\x1b")
    t = Translator(lang)
    assert refused.value.key == "chat.empty"
    assert refusal_text(t, refused.value) == t("chat.empty") != "chat.empty"
    await table.close()
