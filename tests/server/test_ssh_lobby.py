"""The lobby: open a table, join it, watch it, start it early, chat, rematch, language."""

from __future__ import annotations

import asyncio
import re

from diamant_tui.table import TableStatus
from diamant_tui.ui.screens.waiting_questions import READ_FIRST


async def test_open_join_watch_start_early_and_chat(server, players, make_key):
    ann, bob, wes = players("ann"), players("bob"), players("wes")
    for person in (ann, bob, wes):
        await person.connect(server.port, key=make_key())
        await person.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.type("den")
    ann.press("enter")
    await ann.wait_for(r"Start now")  # the creator may start a waiting table early
    # The others see the new table in the list, waiting, with free seats.
    await bob.wait_for(r"den +Classic +1/4 +0 +3 +off +waiting")
    bob.press("enter")
    await bob.wait_for("Waiting for the game to start")
    await wes.wait_for(r"den +Classic +2/4 +0 +2 +off +waiting")
    wes.press("w")
    await wes.wait_for("Waiting for the game to start")
    assert "Start now" not in bob.text  # only the creator may

    ann.press("s")  # asked first
    await ann.wait_for(r"Start now\? 2 free seats go to computer players\.")
    await asyncio.sleep(READ_FIRST)
    ann.press("s")
    for person in (ann, bob):
        await person.wait_for("Your turn")
        assert re.search(rf"▶ {person.name}\b", person.text)
    text = await wes.wait_for(r"Round 1/5")
    assert "▶" not in text and "Your turn" not in text  # a spectator acts for no seat
    table = server.lobby.get("den")
    assert [s.kind.value for s in table.seats] == ["person", "person", "bot", "bot"]

    bob.press("t")
    await bob.wait_for("Say something and press Enter")
    bob.type("hello from bob")
    bob.press("enter")
    await ann.wait_for("hello from bob")
    await wes.wait_for("hello from bob")
    wes.press("l")  # a spectator's keys decide nothing
    assert table.game.view_for(0).decision_due and table.game.view_for(1).decision_due


async def test_a_line_typed_without_t_keeps_the_seats_for_the_people_coming(
        server, players, make_key):
    """Ann opened a waiting table and types to Bob in the lobby's words, forgetting t:
    the s of "is" asks whether to start (the space after it takes the question away),
    the s ending "yes" asks again and the Enter typed with it answers nothing. Escape
    keeps waiting, and the seats stay free: Bob still sits down. Started on purpose (s,
    then Enter once the question is read), computer players take the seats left."""
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den --seats 4")
    await ann.wait_for("Press s to start now")
    ann.type("is anyone here")
    await ann.wait_for(r"(?s)^(?!.*Start now\?).*Press s to start now")
    ann.type("yes\r")
    await ann.wait_for(r"Start now\? 3 free seats go to computer players\.")
    await ann.wait_for("s or Enter: start · Esc: keep waiting for players")
    assert "esc Wait" in ann.text
    ann.press("escape")
    await ann.wait_for(lambda t: "Press s to start now" in t and "esc Wait" not in t)
    table = server.lobby.get("den")
    assert table.status is TableStatus.WAITING
    await bob.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for(r"Free seats: 2")
    ann.press("s")
    await ann.wait_for(r"Start now\? 2 free seats go to computer players\.")
    await asyncio.sleep(READ_FIRST)
    ann.press("enter")
    for person in (ann, bob):
        await person.wait_for("Your turn")
    assert [s.kind.value for s in table.seats] == ["person", "person", "bot", "bot"]


async def test_a_line_typed_without_t_keeps_the_seat_of_whoever_types_it(
        server, players, make_key):
    """At a waiting table Ann (in French) types to the others forgetting t, and her
    sentences begin with q: each q asks whether to leave, the key after it takes the
    question away, and the Enter ending the line answers nothing; she keeps her seat.
    Asked on purpose, the question says her seat goes and that Bob may start the game
    until she is back; Escape stays, q once it is read takes her back to the lobby, her
    seat freed, and Bob may start the game now. A spectator's q takes them back at once."""
    ann, bob, wes = players("ann"), players("bob"), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den --seats 4",
                      env={"LANG": "fr_FR.UTF-8"})
    await ann.wait_for("Appuyez sur s pour commencer")
    await bob.connect(server.port, key=make_key(), command="play den")
    await wes.connect(server.port, key=make_key(), command="watch den")
    await wes.wait_for("You are watching")
    await ann.wait_for("Places libres : 2")
    table = server.lobby.get("den")
    ann.type("quelqu'un\r")
    ann.type("qq\r")
    ann.type("qui veut jouer\r")  # the t of "veut" opens the chat: " jouer" is sent
    await bob.wait_for("» ann: jouer")
    await ann.wait_for(lambda t: "Appuyez sur s pour commencer" in t and "Partir ?" not in t)
    assert [seat.kind.value for seat in table.seats][:2] == ["person", "person"]

    ann.press("q")
    await ann.wait_for(lambda t: "Partir ? Place libérée ; bob peut lancer jusqu'à votre "
                                 "retour." in t
                       and "q ou Entrée : partir · Échap : rester" in t and "esc Rester" in t)
    ann.press("escape")
    await ann.wait_for(lambda t: "Appuyez sur s pour commencer" in t and "Partir ?" not in t)
    ann.press("q")
    await ann.wait_for(lambda t: "Partir ? Place libérée" in t)
    await asyncio.sleep(READ_FIRST)
    ann.press("q")
    await ann.wait_for("le salon")
    await bob.wait_for(lambda t: "Press s to start now" in t and "s Start now" in t)
    assert [seat.kind.value for seat in table.seats][:2] == ["empty", "person"]
    assert table.starter_seat == 1
    wes.press("q")
    await wes.wait_for("the lobby")


async def test_a_finished_game_offers_a_rematch_and_the_way_back(server, players, make_key):
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play solo --seats 3 --bots 2")
    answered = None
    while True:
        text = await ann.wait_for(lambda t: "Final scores" in t or (
            "Your turn" in t and re.search(r"Round \d/5 · card \d+", t)[0] != answered))
        if "Final scores" in text:
            break
        answered = re.search(r"Round \d/5 · card \d+", text)[0]
        ann.press("l")
    table = server.lobby.get("solo")
    ann.press("r")
    await ann.wait_for(lambda t: "Round 1/5" in t and "Final scores" not in t)
    assert table.games_played == 1
    await server.lobby.flush()
    kept = await server.storage.games()
    assert [(g.table, g.finished) for g in kept] == [("solo", True)], "the game was kept"
    ann.press("q")
    await ann.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
    ann.press("y")
    await ann.wait_for("lobby")


async def test_the_language_can_be_chosen_in_the_lobby(server, players, make_key):
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command=None)
    await ann.wait_for("Language: English")
    ann.press("g")
    await ann.wait_for("Langue : Français")
    ann.press("n")
    await ann.wait_for("Ouvrir une table")
    ann.type("fr")
    ann.press("enter")
    await ann.wait_for("En attente du début de la partie")


async def test_a_session_that_goes_straight_to_a_table_builds_the_lobby_only_on_leaving(
        server, players, make_key):
    """`play NAME` shows the table at once; the lobby (its list, its keys) is built
    only when the person goes back to it, which they still can at any time."""
    from diamant_server.lobby_screen import LobbyScreen

    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3")
    await ann.wait_for("Table den: waiting for players")
    (session,) = server.sessions
    assert not any(isinstance(s, LobbyScreen) for s in session.app.screen_stack)
    ann.press("q")
    await ann.wait_for("q or Enter: leave")  # asked first: the seat would go
    await asyncio.sleep(READ_FIRST)
    ann.press("q")
    await ann.wait_for(r"Diamant over SSH ◆ the lobby")
    await ann.wait_for(r"⏎ Join  w Watch  n New table")  # its keys work from here
    assert isinstance(session.app.screen, LobbyScreen)


def flowing(text: str) -> str:
    """The screen's words with every run of spaces and line breaks as one space (a
    sentence wrapped in a toast reads as one), the toast's border left out."""
    return " ".join(text.replace("▌", " ").split())


async def test_play_with_settings_at_a_table_already_open_says_they_were_not_used(
        server, players, make_key):
    """Bob types `play den --rules relics --seats 3` while ann's table den, classic with
    five seats, waits: he sits at it as it is, and is told so (and that the settings
    typed only set up a new table), not left to find out from the waiting screen."""
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den --seats 5")
    await ann.wait_for("Table den: waiting for players")
    await bob.connect(server.port, key=make_key(), command="play den --rules relics --seats 3")
    told = ("Table den was open already: you joined it as it is (Classic (2005), 5 seats). "
            "--rules, --seats and --bots only set up a new table.")
    await bob.wait_for(lambda text: told in flowing(text))
    assert "Table den: waiting for players" in bob.text
    assert server.lobby.get("den").settings.seats == 5


async def test_the_language_chosen_is_kept_for_the_next_login_with_the_key(server, players,
                                                                           make_key):
    """ann, whose terminal says English, chooses Ukrainian in the lobby: her next login
    with the same key opens in Ukrainian, also with a command (play), whatever her
    locale. Someone else, and a guest who chose a language, follow their locale."""
    key = make_key()
    ann = players("ann")
    await ann.connect(server.port, key=key, command=None, env={"LANG": "en_GB.UTF-8"})
    await ann.wait_for("Language: English")
    for shown in ("Langue : Français", "Idioma: Español", "Мова: Українська"):
        ann.press("g")
        await ann.wait_for(shown)
    await server.lobby.flush()
    await ann.close()

    again = players("ann")
    await again.connect(server.port, key=key, command=None, env={"LANG": "fr_FR.UTF-8"})
    await again.wait_for("Мова: Українська")
    await again.close()
    later = players("ann")
    await later.connect(server.port, key=key, command="play den --seats 3")
    await later.wait_for("Стіл den")

    bob = players("bob")
    await bob.connect(server.port, key=make_key(), command=None, env={"LANG": "es_ES.UTF-8"})
    await bob.wait_for("Idioma: Español")
    guest = players("gus")
    await guest.connect(server.port, command=None, env={"LANG": "en_GB.UTF-8"})
    await guest.wait_for("Language: English")
    guest.press("g")
    await guest.wait_for("Langue : Français")
    await server.lobby.flush()
    await guest.close()
    back = players("gus")
    await back.connect(server.port, command=None, env={"LANG": "en_GB.UTF-8"})
    await back.wait_for("Language: English")
