"""Play now and who is here: one key in the lobby (p, or `play` alone after the host) seats
a person at the next game, and the lobby's header says how many people are on the server.

Play now joins the waiting table with the most people (the oldest of equals), never a
full or playing one, through the same join as Enter; with none waiting it opens a table
with the lobby form's defaults, which the next person to play now finds."""

from __future__ import annotations

import asyncio
import re

import pytest

from diamant_tui.i18n import Translator
from diamant_tui.table import TableStatus
from diamant_tui.ui.screens.waiting_questions import READ_FIRST
from diamant_server.lobby import DEFAULT_SEATS, default_bot
from diamant_server.lobby_screen import LobbyScreen
from diamant_server.presence import Here

LOCALES = {"en": "en_US.UTF-8", "fr": "fr_FR.UTF-8", "es": "es_ES.UTF-8", "uk": "uk_UA.UTF-8"}
HERE = re.compile(r"\d+ people here: [^\n]*|Nobody else is here right now\.")


def flowing(text: str) -> str:
    """The screen's words with every run of spaces and line breaks as one space (a
    sentence wrapped at the screen's edge reads as one)."""
    return " ".join(text.split())


def here_line(text: str) -> str:
    """The lobby's line saying who is here, as shown."""
    found = HERE.search(text)
    return found[0].strip() if found else ""


def seated(table) -> list[str]:
    """The names of the people seated at ``table``."""
    return [seat.name for seat in table.seats if seat.kind.value == "person"]


async def in_lobby(player, port: int, key, **options):
    """Connect ``player`` and wait for their lobby."""
    await player.connect(port, key=key, **options)
    await player.wait_for("p Play now")
    return player


async def test_play_now_joins_the_waiting_table_with_the_most_people(server, players, make_key):
    """Three tables: old (one person, opened first), busy (two people) and hot (three
    people, full: its game has begun). Play now seats gus at busy: the most people of
    the tables waiting, and never the playing one, however many sit at it."""
    for name, command in (("ann", "play old"), ("bob", "play busy"), ("cat", "play busy")):
        person = players(name)
        await person.connect(server.port, key=make_key(), command=command)
        await person.wait_for(f"Table {command[5:]}: waiting for players")
    hot = [players(name) for name in ("dan", "eve", "fay")]
    for person in hot:
        await person.connect(server.port, key=make_key(), command="play hot --seats 3")
        await person.wait_for(lambda t: "Table hot" in t or "Your turn" in t)
    await hot[0].wait_for("Your turn")
    assert server.lobby.get("hot").status is TableStatus.PLAYING
    assert len(seated(server.lobby.get("busy"))) == 2
    gus = await in_lobby(players("gus"), server.port, make_key())
    await gus.wait_for(r"busy +Classic +2/4")
    gus.press("p")
    told = "Play now: you took a seat at table busy, which was waiting for players."
    text = await gus.wait_for(lambda t: told in flowing(t))
    assert "Table busy: waiting for players" in text
    assert seated(server.lobby.get("busy")) == ["bob", "cat", "gus"]
    assert seated(server.lobby.get("old")) == ["ann"]


async def test_play_now_takes_the_oldest_of_tables_as_full_of_people(server, players, make_key):
    """zed opened before abe, one person at each: play now seats at zed, the older,
    though the list shows abe first."""
    for name, table in (("ann", "zed"), ("bob", "abe")):
        person = players(name)
        await person.connect(server.port, key=make_key(), command=f"play {table}")
        await person.wait_for(f"Table {table}: waiting for players")
    cat = await in_lobby(players("cat"), server.port, make_key())
    await cat.wait_for(r"(?s)abe +Classic +1/4.*zed +Classic +1/4")
    cat.press("p")
    await cat.wait_for("Table zed: waiting for players")
    assert seated(server.lobby.get("zed")) == ["ann", "cat"]


async def test_play_now_opens_a_table_that_the_next_play_now_finds(server, players, make_key):
    """Nobody waits: play now opens cave-1 as the lobby's form would untouched, its opener
    may start it early; bob, in the lobby, sees it in his list and his play now sits at
    it. Once its game has begun, carl's play now opens a table of his own."""
    ann = await in_lobby(players("ann"), server.port, make_key())
    bob = await in_lobby(players("bob"), server.port, make_key())
    ann.press("p")
    told = ("Play now: no table was waiting for players, so you opened cave-1; "
            "the next people to play now join you.")
    text = await ann.wait_for(lambda t: told in flowing(t))
    assert "Press s to start now" in text  # the opener may start it early
    table = server.lobby.get("cave-1")
    settings = table.settings
    assert (settings.seats, settings.bots, settings.timer, settings.hidden_chests) == (
        DEFAULT_SEATS, (), None, False)
    assert settings.filler == default_bot() and settings.pace == server.lobby.pace
    assert table.creator is not None and table.seat_of(table.creator) == 0
    await bob.wait_for(r"cave-1 +Classic +1/4 +0 +3 +off +waiting")
    bob.press("p")
    await bob.wait_for(lambda t: "Play now: you took a seat at table cave-1" in flowing(t))
    assert seated(table) == ["ann", "bob"]
    await ann.wait_for(r"Free seats: 2")

    ann.press("s")
    await ann.wait_for(r"Start now\? 2 free seats go to computer players\.")
    await asyncio.sleep(READ_FIRST)
    ann.press("s")
    await ann.wait_for("Your turn")
    carl = await in_lobby(players("carl"), server.port, make_key())
    await carl.wait_for(r"cave-1 +Classic +2/4 +2 +0 +off +playing")
    carl.press("p")
    await carl.wait_for("Table cave-2: waiting for players")
    assert seated(server.lobby.get("cave-2")) == ["carl"] and seated(table) == ["ann", "bob"]


async def test_play_now_keeps_the_lobbys_checks(server, players, make_key):
    """Play now opens a table through the same checks as n: with the server's tables all
    open, it says so on the lobby's note line and opens nothing."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play solo --seats 3 --bots 2")
    await ann.wait_for("Your turn")
    server.lobby.max_tables = 1
    bob = await in_lobby(players("bob"), server.port, make_key())
    await bob.wait_for(r"solo +Classic +1/3 +2 +0 +off +playing")
    bob.press("p")
    await bob.wait_for("The server has too many tables open; join one of them instead.")
    assert list(server.lobby.tables) == ["solo"]


async def test_play_now_takes_a_person_back_to_their_game_going_on(server, players, make_key):
    """Ann left her game for the lobby (a computer player plays her seat meanwhile): play
    now takes her back to it, rather than to a second seat elsewhere."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play solo --seats 3 --bots 2")
    await ann.wait_for("Your turn")
    await players("bob").connect(server.port, key=make_key(), command="play den")
    ann.press("q")
    await ann.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
    ann.press("y")
    await ann.wait_for(r"den +Classic +1/4")
    ann.press("p")
    told = "Play now: your game at table solo is still going on; you are back in your seat."
    await ann.wait_for(lambda t: told in flowing(t))
    assert seated(server.lobby.get("den")) == ["bob"]


async def test_play_alone_after_the_host_is_play_now(server, players, make_key):
    """`ssh -t host play`: the same as p in the lobby, said in the person's language."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Table den: waiting for players")
    ivan = players("ivan")
    await ivan.connect(server.port, key=make_key(), command="play",
                       env={"LANG": LOCALES["uk"]})
    told = Translator("uk")("play_now.joined", name="den")
    await ivan.wait_for(lambda t: told in flowing(t))
    assert seated(server.lobby.get("den")) == ["ann", "ivan"]


async def test_who_is_here_follows_people_as_they_come_sit_watch_and_go(
        server, players, make_key):
    """One line of the lobby's header counts the people on the server: ann's second
    connection, at a table, counts her once, as playing."""
    ann_key = make_key()
    ann = await in_lobby(players("ann"), server.port, ann_key)
    await ann.wait_for("Nobody else is here right now.")
    bob = await in_lobby(players("bob"), server.port, make_key())
    await ann.wait_for(lambda t: here_line(t) == "2 people here: 2 in the lobby")
    bob.press("p")
    await ann.wait_for(lambda t: here_line(t) == "2 people here: 1 playing, 1 in the lobby")
    cat = players("cat")
    await cat.connect(server.port, key=make_key(), command="watch cave-1")
    await cat.wait_for("Table cave-1: waiting for players")
    await ann.wait_for(
        lambda t: here_line(t) == "3 people here: 1 playing, 1 watching, 1 in the lobby")
    other_ann = players("ann")
    await other_ann.connect(server.port, key=ann_key, command="play cave-1")
    await other_ann.wait_for("Table cave-1: waiting for players")
    await ann.wait_for(lambda t: here_line(t) == "3 people here: 2 playing, 1 watching")
    await other_ann.close()
    await ann.wait_for(
        lambda t: here_line(t) == "3 people here: 1 playing, 1 watching, 1 in the lobby")
    bob.press("q")  # leaves the waiting table for the lobby, once asked
    await bob.wait_for("q or Enter: leave")
    await asyncio.sleep(READ_FIRST)
    bob.press("q")
    await ann.wait_for(lambda t: here_line(t) == "3 people here: 1 watching, 2 in the lobby")
    await cat.close()
    await ann.wait_for(lambda t: here_line(t) == "2 people here: 2 in the lobby")


async def test_an_idle_lobby_draws_nothing_new(server, players, make_key):
    """The list and the line saying who is here are looked at every few seconds, and
    redrawn only when they changed: a crowd of idle lobbies costs no frames."""
    ann = await in_lobby(players("ann"), server.port, make_key())
    await ann.wait_for("Nobody else is here right now.")
    (session,) = server.sessions
    lobby = session.app.screen
    assert isinstance(lobby, LobbyScreen)
    drawn = []
    for widget in (lobby.query_one("#here"), lobby.query_one("DataTable")):
        widget.refresh = (lambda *args, widget=widget, drawn_now=widget.refresh, **kw:
                          drawn.append(widget.id) or drawn_now(*args, **kw))
    for _ in range(3):
        lobby.refresh_tables()
    assert drawn == []
    await in_lobby(players("bob"), server.port, make_key())
    await ann.wait_for("2 people here")  # a change is drawn
    assert "here" in drawn


@pytest.mark.parametrize("lang", LOCALES)
async def test_play_now_and_who_is_here_fit_80x24_in_every_language(server, players, lang):
    """The line saying who is here, at its longest (hundreds in every place), the key
    line with play now, and the line telling what play now did: whole at 80x24."""
    server.lobby.here = lambda: Here(playing=888, watching=888, lobby=888)
    t = Translator(lang)
    ann = players("ann")
    await ann.connect(server.port, env={"LANG": LOCALES[lang]})
    here = t("lobby.here", count=2664, where=", ".join(
        t(f"lobby.here.{place}", count=888) for place in ("playing", "watching", "lobby")))
    keys = " ".join(f"{key} {t(f'lobby.key.{action}')}" for key, action in
                    (("p", "play_now"), ("l", "leaderboard"), ("h", "my_games")))
    text = await ann.wait_for(lambda t: here in t)
    assert any(" ".join(line.split()) == keys for line in text.splitlines()), text
    assert f"f1 {t('key.rules')}" in text  # the key bar keeps its last key
    ann.press("p")
    told = t("play_now.opened", name="cave-1")
    await ann.wait_for(lambda screen: told in flowing(screen))
