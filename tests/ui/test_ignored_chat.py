"""Hiding someone's chat lines for oneself (``/ignore NAME`` in the chat box): their lines
leave every place chat is read on that person's screen, and those said later never come;
nobody else's screen changes, and the person hidden is not told. ``/unignore NAME`` brings
them back; ``/ignore`` alone lists who is hidden; mistakes are told where chat refusals
are, in the person's language, names as typed."""

from __future__ import annotations

import pytest

from diamant_tui.table import ChatLimits, Table, TableSettings, TableUpdate
from diamant_tui.ui import DiamantApp, SetupChoices
from diamant_tui.ui.ignored_chat import find_name
from diamant_tui.ui.screens.table import TableScreen
from test_table_chat import eight_at_a_table, flowing, playing, to_the_final_scores
from ui_helpers import final_shown, screen_text, until

LANGS = ["en", "fr", "es", "uk"]


def four_at_a_table() -> tuple:
    """A table of four, playing: ann, bob and cy, and a computer player (Dmytro); each
    may say many lines. The table and the three members."""
    table = Table(TableSettings(name="den", seats=4, bots=("cards:4",), pace=0.05, seed=3),
                  chat=ChatLimits(person=50, watchers=50, table=100))
    return table, table.sit("ann", "ann"), table.sit("bob", "bob"), table.sit("cy", "cy")


def lines_said(member) -> list[str]:
    """The chat lines the table sends to ``member`` from now on (their texts)."""
    said: list[str] = []

    def keep(update: TableUpdate) -> None:
        said.extend(line.text for line in update.chat if line.text not in said)

    member.subscribe(keep)
    return said


async def command(pilot, typed: str) -> None:
    """Open the chat box, type ``typed`` and press Enter."""
    await pilot.press("t", *typed, "enter")


def told(app, key: str, **fmt) -> bool:
    """Whether the screen reads the text ``key`` of the person's language, whole."""
    return flowing(app.t(key, **fmt)) in flowing(screen_text(app))


def in_log(app, line: str) -> bool:
    """Whether the game log (kept, shown or not) holds ``line``."""
    log = app.screen._log
    kept = log.waiting()
    if log.widget is not None:
        kept += [strip.text for strip in log.widget.lines]
    return any(line in text for text in kept)


@pytest.mark.parametrize("lang", LANGS)
async def test_hidden_lines_leave_the_cave_and_the_log_and_later_ones_never_come(lang):
    """bob's line is read under the cave; ann types /ignore BOB: it goes, from the cave
    and from the log, and bob's later lines never come, while cy's still do. The table
    sent nothing of it: bob is not told."""
    table, ann, bob, cy = four_at_a_table()
    bob_reads = lines_said(bob)
    app = DiamantApp(lang=lang, member=ann)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: playing(app))
        bob.say("first from bob")
        await until(pilot, lambda: "» bob: first from bob" in screen_text(app))
        await command(pilot, "/ignore BOB")
        await until(pilot, lambda: told(app, "chat.ignored", name="bob"))
        assert "first from bob" not in screen_text(app)
        assert not in_log(app, "first from bob")
        bob.say("second from bob")
        cy.say("cy goes on")
        await until(pilot, lambda: "» cy: cy goes on" in screen_text(app))
        assert "second from bob" not in screen_text(app)
        assert in_log(app, "cy goes on") and not in_log(app, "second from bob")
        await pilot.press("g")  # the log opened over the table
        await until(pilot, lambda: in_log(app, "cy goes on") and app.screen._log.widget.lines)
        assert "second from bob" not in screen_text(app)
        assert not app._notifications
    assert bob_reads == ["first from bob", "second from bob", "cy goes on"], bob_reads
    await table.close()


async def test_others_still_read_the_lines_one_person_hides():
    """ann hides bob; cy's screen, at the same table, reads bob's lines before and after."""
    table, ann, bob, cy = four_at_a_table()
    ann_app, cy_app = DiamantApp(lang="en", member=ann), DiamantApp(lang="fr", member=cy)
    async with ann_app.run_test(size=(80, 24)) as ann_pilot, \
            cy_app.run_test(size=(80, 24)) as cy_pilot:
        await until(ann_pilot, lambda: playing(ann_app) and playing(cy_app))
        bob.say("before")
        await until(ann_pilot, lambda: "» bob: before" in screen_text(ann_app))
        await command(ann_pilot, "/ignore bob")
        await until(ann_pilot, lambda: told(ann_app, "chat.ignored", name="bob"))
        bob.say("after")
        await until(cy_pilot, lambda: "» bob: after" in screen_text(cy_app))
        assert "» bob: before" in screen_text(cy_app)
        cy.say("and then")  # after bob's line, on every screen
        await until(ann_pilot, lambda: "» cy: and then" in screen_text(ann_app))
        assert "» bob:" not in screen_text(ann_app)
    await table.close()


async def test_showing_someone_again_brings_their_lines_back():
    """ann hides bob, who says a line meanwhile, then types /unignore bob: his lines,
    that one too, are read again under the cave and in the log, and his next ones come."""
    table, ann, bob, cy = four_at_a_table()
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        bob.say("one")
        await until(pilot, lambda: "» bob: one" in screen_text(app))
        await command(pilot, "/ignore bob")
        await until(pilot, lambda: "» bob: one" not in screen_text(app))
        bob.say("two")
        cy.say("three")
        await until(pilot, lambda: "» cy: three" in screen_text(app))
        await command(pilot, "/unignore Bob")
        await until(pilot, lambda: told(app, "chat.unignored", name="bob"))
        text = screen_text(app)
        assert "» bob: one" in text and "» bob: two" in text, text
        assert in_log(app, "» bob: two")
        bob.say("four")
        await until(pilot, lambda: "» bob: four" in screen_text(app))
    await table.close()


@pytest.mark.parametrize("lang", LANGS)
async def test_the_list_and_each_mistake_are_told_in_the_persons_language(lang):
    """Each answer reads whole where chat is read, in ann's language, nothing in a toast:
    nobody hidden yet; an unknown name (kept in the box to be corrected); herself; the
    computer player; a name hidden twice; one not hidden; the list; a command that does
    not exist (kept in the box). None of them is sent to the table."""
    table, ann, bob, _ = four_at_a_table()
    bob_reads = lines_said(bob)
    app = DiamantApp(lang=lang, member=ann)
    answers = [
        ("/ignore", "chat.ignore_none", {}, False),
        ("/ignore zed", "chat.ignore_unknown", {"name": "zed"}, True),
        ("/ignore ANN", "chat.ignore_self", {}, False),
        ("/ignore dmytro", "chat.ignore_computer", {"name": "Dmytro"}, False),
        ("/ignore cy", "chat.ignored", {"name": "cy"}, False),
        ("/ignore cy", "chat.ignore_already", {"name": "cy"}, False),
        ("/unignore bob", "chat.not_ignored", {"name": "bob"}, True),
        ("/ignore bob", "chat.ignored", {"name": "bob"}, False),
        ("/IGNORE", "chat.ignore_list", {"names": "cy, bob"}, False),
        ("/mute bob", "chat.unknown_command", {"command": "/mute"}, True),
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


async def test_names_typed_and_shown_in_answers_are_literal_text():
    """A person called [b]bob and a name typed with markup: the answers show both as
    typed, brackets and all, never as markup (nor a traceback)."""
    table = Table(TableSettings(name="den", seats=3, bots=("cards:4",), pace=0.05))
    ann, bob = table.sit("ann", "ann"), table.sit("[b]bob", "bob")
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        bob.say("[red]loud[/red]")
        await until(pilot, lambda: "» [b]bob: [red]loud[/red]" in screen_text(app))
        await command(pilot, "/ignore [B]BOB")
        await until(pilot, lambda: told(app, "chat.ignored", name="[b]bob"))
        assert "[red]loud" not in screen_text(app)
        await command(pilot, "/ignore [red]zed{x}")
        await until(pilot, lambda: "Nobody here is called [red]zed{x}." in screen_text(app))
    await table.close()


async def test_a_line_beginning_with_two_slashes_is_said_with_one():
    """//shrug is said as /shrug (a line beginning with / and a letter is a command)."""
    table, ann, _, _ = four_at_a_table()
    app = DiamantApp(lang="en", member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        await command(pilot, "//shrug")
        await until(pilot, lambda: "» ann: /shrug" in screen_text(app))
    await table.close()


async def test_a_spectator_hides_a_player_from_their_own_screen():
    """wes, watching, hides bob: bob's lines leave wes's cave and later ones never come."""
    table, _, bob, cy = four_at_a_table()
    wes = table.watch("wes", "wes")
    app = DiamantApp(lang="es", member=wes)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: playing(app))
        bob.say("hola")
        await until(pilot, lambda: "» bob: hola" in screen_text(app))
        await command(pilot, "/ignore bob")
        await until(pilot, lambda: told(app, "chat.ignored", name="bob"))
        bob.say("otra vez")
        cy.say("sigo")
        await until(pilot, lambda: "» cy: sigo" in screen_text(app))
        assert "hola" not in screen_text(app) and "otra vez" not in screen_text(app)
    await table.close()


async def test_hidden_under_the_seats_at_the_final_scores_and_after_a_rematch():
    """ann hides bob while the table waits: his line leaves the foot of the seats, and
    his lines stay hidden at the final scores' chat rows and in the rematch's cave,
    while a spectator's lines are read there."""
    table, ann, bob = await eight_at_a_table()
    zoe = table.watch("zoe", "zoe")
    app = DiamantApp(lang="fr", member=ann)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.update_ is not None)
        bob.say("salut")
        await until(pilot, lambda: "» bob: salut" in screen_text(app))
        await command(pilot, "/ignore bob")
        await until(pilot, lambda: told(app, "chat.ignored", name="bob"))
        assert "salut" not in screen_text(app)
        bob.say("toujours là")
        zoe.say("bonjour")
        watching = app.t("chat.watching", name="zoe")
        await until(pilot, lambda: f"» {watching}: bonjour" in screen_text(app))
        assert "toujours là" not in screen_text(app)
        await to_the_final_scores(pilot, table, ann, bob)
        bob.say("bien joué")
        zoe.say("bravo")
        await until(pilot, lambda: f"» {watching}: bravo" in screen_text(app))
        assert "bien joué" not in screen_text(app) and final_shown(app)
        ann.vote_rematch()
        bob.vote_rematch()
        await until(pilot, lambda: playing(app) and not final_shown(app)
                    and table.games_played == 1)
        bob.say("revanche")
        zoe.say("allez")
        await until(pilot, lambda: f"» {watching}: allez" in screen_text(app))
        assert "revanche" not in screen_text(app) and not in_log(app, "revanche")
    await table.close()


async def test_a_local_game_keeps_its_chat_and_has_nobody_to_hide():
    """diamant play: ann alone with computer players says a line as before; /ignore of a
    computer player says it never chats, of anyone else that nobody is called so."""
    choices = SetupChoices(name="ann", players=3, level="easy", seed=11, pace=0)
    app = DiamantApp(lang="en", choices=choices)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("enter")
        await until(pilot, lambda: playing(app))
        computer = app.screen.update_.seats[1].name
        await command(pilot, "hello")
        await until(pilot, lambda: "» ann: hello" in screen_text(app))
        await command(pilot, f"/ignore {computer}")
        await until(pilot, lambda: told(app, "chat.ignore_computer", name=computer))
        await command(pilot, "/ignore bob")
        await until(pilot, lambda: told(app, "chat.ignore_unknown", name="bob"))
        assert not app._notifications


def test_a_name_is_found_whatever_its_case_its_look_alikes_or_its_mark():
    """At a table of ann, a second Cyrillic аnn (shown аnn²) and BOB: each is named as
    shown or in another case, with a look-alike letter, or with a plain digit for the
    mark no keyboard types; a name nobody shows is found nowhere."""
    shown = ["ann", "аnn²", "BOB"]
    assert find_name("ANN", shown) == "ann"
    assert find_name("bob", shown) == "BOB"
    assert find_name("аnn²", shown) == "аnn²"
    assert find_name("ann2", shown) == "аnn²"
    assert find_name("ВОВ", shown) == "BOB"  # Cyrillic capitals
    assert find_name("zed", shown) is None
