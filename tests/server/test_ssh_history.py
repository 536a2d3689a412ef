"""The lobby's leaderboard and "my games", as a person sees them over SSH at 80x24.

The database is filled through the storage's own interface (people seen, games started
and finished with their places, ties included); the expected order of the leaderboard is
worked out here from the rating library, game by game, not read back from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from datetime import datetime, timezone

import pytest

from diamant_tui.table import TableSettings
from diamant_tui.ui.screens.replay import ReplayScreen
from diamant_server import history_screen
from diamant_server.ratings import Rating, rate_game, rated_as
from diamant_server.storage import Sitter

ANN, BOB, CID = "key:SHA256:ann-is-replaced-by-her-real-key", "key:SHA256:bob", "key:SHA256:cid"
MARKUP_NAME = "[red]cid[/]"
"""A name that would be markup if it were read as such: shown as typed."""


def when(day: int) -> datetime:
    return datetime(2025, 3, day, 12, 0, tzinfo=timezone.utc)


def person_of(key) -> str:
    return "key:" + key.get_fingerprint("sha256")


# Seat by seat: (name, person, computer); a guest is neither.
GAMES = [
    # day, rules, seats, scores (seat order), places: ties share a place
    (1, "classic", [("ann", ANN, None), ("bob", BOB, None), ("expert", None, "expert")],
     [30, 30, 12], [1, 1, 3]),
    (2, "relics", [("ann", ANN, None), ("gus", None, None), ("carry", None, "carry:20")],
     [8, 25, 19], [3, 1, 2]),
    (3, "classic", [("bob", BOB, None), (MARKUP_NAME, CID, None), ("expert", None, "expert")],
     [40, 22, 22], [1, 2, 2]),
    (4, "relic-variant", [("ann", ANN, None), (MARKUP_NAME, CID, None),
                          ("expert", None, "expert")], [27, 9, 27], [1, 3, 1]),
]
"""Four finished games; ann sat at the first, second and fourth."""


def fake_record(seats, scores) -> dict:
    """As much of a record as finishing a game reads: its players and final scores (not
    a record that could be replayed)."""
    names = [f"{name}#{i}" for i, (name, _, _) in enumerate(seats)]
    return {"players": names, "result": {"scores": dict(zip(names, scores))}}


async def fill(storage, ann: str) -> None:
    """People seen, then the four games, each started and finished."""
    for person, name in ((ann, "ann"), (BOB, "bob"), (CID, MARKUP_NAME)):
        await storage.seen(person, name, "en")
    for day, rules, seats, scores, places in GAMES:
        sitters = [Sitter(n, ann if p == ANN else p, c) for n, p, c in seats]
        game = await storage.start_game(f"cave-{day}", rules, when(day), sitters)
        await storage.finish_game(game, fake_record(seats, scores), places)


def expected_board(ann: str) -> list[tuple[str, Rating]]:
    """The leaderboard worked out from the rating library, best conservative estimate
    first: (who, rating)."""
    ratings: dict[str, Rating] = {}
    for _, _, seats, _, places in GAMES:
        names = [rated_as(ann if p == ANN else p, c) for _, p, c in seats]
        ratings.update(rate_game([(n, ratings.get(n)) for n in names], places))
    return sorted(ratings.items(), key=lambda item: -item[1].shown)


def rating_text(rating: Rating, mark: str = ".") -> str:
    return f"{rating.shown:.1f}".replace("-", "−").replace(".", mark)


def flat(text: str) -> str:
    """The screen's words on one line (a toast wraps its text), without the toast's edge."""
    return " ".join(text.replace("▌", " ").split())


async def back_to_lobby(person) -> None:
    """Escape, and wait for the lobby (a key sent right after Escape would make Alt+key)."""
    person.press("escape")
    await person.wait_for(lambda t: "esc " not in t and "l " in t)


def board_rows(text: str) -> list[str]:
    """The leaderboard's rows on screen: lines that start with a rank (or the mark)."""
    return [line for line in text.splitlines() if re.match(r"\s*(▶\s+)?\d+\s+\S", line)]


async def in_lobby(players, server, name="ann", key=None, env=None):
    person = players(name)
    await person.connect(server.port, key=key, env=env)
    await person.wait_for("l Leaderboard|l Classement|l Рейтинг|l Clasificación")
    return person


async def test_the_leaderboard_ranks_people_and_computer_levels_and_marks_my_row(
        server, players, make_key):
    key = make_key()
    ann = person_of(key)
    await fill(server.storage, ann)
    me = await in_lobby(players, server, key=key)
    me.press("l")
    text = await me.wait_for(lambda t: re.search(r"▶ +\d", t) and len(board_rows(t)) == 5)
    assert "Rating: a cautious estimate that grows as you play." in text
    expected = expected_board(ann)
    names = {ann: "ann", BOB: "bob", CID: MARKUP_NAME, "bot:expert": "expert (computer)",
             "bot:carry": "carry (computer)"}
    rows = board_rows(text)
    assert len(rows) == len(expected) == 5, text
    for rank, (row, (who, rating)) in enumerate(zip(rows, expected), start=1):
        mine = who == ann
        cells = row.split()
        assert (cells[0] == "▶") == mine, row
        cells = cells[1:] if mine else cells
        assert cells[0] == str(rank), row
        assert names[who] in row, row  # the markup-like name shown as typed
        assert cells[-3:] == [rating_text(rating), str(rating.games), str(rating.wins)], row
    assert "gus" not in text, "guests are never rated"
    assert re.search(r"Rank +Player +Rating +Games +Wins", text)
    # Ties share a win: ann and bob both won the first game.
    assert dict(expected)[BOB].wins == 2 and dict(expected)[ann].wins == 2

    me.press("escape")
    await me.wait_for(r"Table +Rules +People")
    me.press("l")
    await me.wait_for("Rating: a cautious")
    me.press("q")  # q goes back too, and does not quit
    await me.wait_for(r"Table +Rules +People")
    assert not me.closed.is_set()


async def test_someone_rated_below_the_list_reads_where_they_stand(server, players,
                                                                    make_key, monkeypatch):
    """With one place listed, ann, who is further down, reads her own place, rating,
    games and wins under the list (in Spanish, the decimal mark a comma), not that she
    is not rated yet."""
    import diamant_server.leaderboard_screen as screen

    monkeypatch.setattr(screen, "SHOWN", 1)
    key = make_key()
    ann = person_of(key)
    await fill(server.storage, ann)
    expected = expected_board(ann)
    place = [who for who, _ in expected].index(ann) + 1
    assert place > 1
    rating = dict(expected)[ann]
    me = await in_lobby(players, server, key=key, env={"LANG": "es_ES.UTF-8"})
    me.press("l")
    text = await me.wait_for(lambda t: "Tú, por debajo de la lista" in t)
    assert len(board_rows(text)) == 1 and "▶" not in text
    assert (f"puesto {place} · valoración {rating_text(rating, ',')} · partidas "
            f"{rating.games} · victorias {rating.wins}.") in " ".join(text.split())
    assert "Aún no estás" not in text


async def test_my_games_lists_mine_newest_first_with_my_score_and_place(server, players,
                                                                         make_key):
    key = make_key()
    await fill(server.storage, person_of(key))
    await server.storage.start_game(  # a game that has not ended
        "cave-9", "classic", when(9), [Sitter("ann", person_of(key)), Sitter("bob", BOB)])
    me = await in_lobby(players, server, key=key)
    me.press("h")
    text = await me.wait_for("2025-03-01")
    assert re.search(r"Date +Rules +Players +Score +Place", text)
    lines = [line for line in text.splitlines() if re.search(r"2025-03-\d\d", line)]
    assert [re.search(r"2025-03-\d\d", line)[0] for line in lines] == [
        "2025-03-09", "2025-03-04", "2025-03-02", "2025-03-01"], "newest first; only mine"
    assert re.search(r"2025-03-09 +Classic +ann, bob +— +not finished", lines[0]), lines[0]
    assert re.search(r"2025-03-04 +Relic variant +ann, \[red\]cid\[/\], expert +27 +1 of 3",
                     lines[1]), lines[1]  # tied for first
    assert re.search(r"2025-03-02 +Relics +ann, gus, carry +8 +3 of 3", lines[2]), lines[2]
    assert re.search(r"2025-03-01 +Classic +ann, bob, expert +30 +1 of 3", lines[3]), lines[3]
    text = await me.wait_for("⏎ Watch again")  # once there is a game to watch
    assert "esc Lobby" in text


async def played_game(server, ann: str) -> tuple[int, dict]:
    """A whole game of computer players; then kept once more with ann in the first seat."""
    table = server.lobby.create(TableSettings(name="den", seats=3, bots=("cards:2",) * 3,
                                              seed=7, pace=0), None)
    table.start()
    while table.ended is None:
        await asyncio.sleep(0.01)
    await server.lobby.flush()
    [game] = await server.storage.games()
    record = await server.storage.game_record(game.id)
    names = record["players"]
    sitters = [Sitter("ann", ann)] + [Sitter(n, None, "cards:2") for n in names[1:]]
    mine = await server.storage.start_game("den", record["rules"], when(5), sitters)
    scores = [record["result"]["scores"][n] for n in names]
    await server.storage.finish_game(mine, record, [1 + sum(s > x for s in scores)
                                                    for x in scores])
    return mine, record


async def test_enter_on_a_game_watches_it_again(server, players, make_key):
    key = make_key()
    mine, record = await played_game(server, person_of(key))
    me = await in_lobby(players, server, key=key)
    me.press("h")
    await me.wait_for("2025-03-05")
    (session,) = server.sessions
    me.press("enter")
    # The replay screen: its header names the table; q comes back here.
    await me.wait_for(r"Replay · den · \d{4}-\d\d-\d\d")
    assert isinstance(session.app.screen, ReplayScreen)
    me.press("q")
    await me.wait_for(lambda t: "Replay ·" not in t and "My games" in t and "2025-03-05" in t)


async def test_a_damaged_record_is_said_so(server, players, make_key):
    key = make_key()
    broken = await server.storage.start_game("odd", "classic", when(1), [
        Sitter("ann", person_of(key)), Sitter("bob", BOB)])
    await server.storage.finish_game(broken, fake_record([("a", 0, 0), ("b", 0, 0)], [3, 1]),
                                     [1, 2])
    me = await in_lobby(players, server, key=key)
    me.press("h")
    await me.wait_for("2025-03-01")
    me.press("enter")
    text = await me.wait_for("damaged")
    assert "This game cannot be watched again: its record is damaged." in flat(text)
    assert "2025-03-01" in me.text, "still on the list"


async def test_a_guest_is_told_how_to_have_games_kept(server, players, make_key):
    await fill(server.storage, person_of(make_key()))
    gus = await in_lobby(players, server, name="gus")
    gus.press("h")
    text = await gus.wait_for("ssh-keygen")
    assert "Games are kept for players who connect with an SSH key. To get one, run " \
           "ssh-keygen, then connect again: ssh -t -p" in flat(text)
    assert "Watch again" not in text, "nothing to watch: no Enter in the key bar"
    gus.press("escape")
    await gus.wait_for(r"Table +Rules")
    gus.press("l")
    # The whole board: the screen is read as its bytes arrive, top to bottom.
    text = await gus.wait_for(lambda t: "Guests are not rated" in t and len(board_rows(t)) == 5)
    assert "▶" not in text and "gus" not in text


async def test_empty_lists_say_so(server, players, make_key):
    me = await in_lobby(players, server, key=make_key())
    me.press("l")
    await me.wait_for("Nobody is rated yet: ratings appear once a game has been played to "
                      "the end.")
    assert "You are not on the list yet" not in me.text, "said once is enough"
    await back_to_lobby(me)
    me.press("h")
    await me.wait_for("No games yet: the games you play will be listed here.")


@pytest.mark.parametrize("lang", ["fr_FR.UTF-8", "uk_UA.UTF-8"])
async def test_the_lists_speak_the_persons_language(server, players, make_key, lang):
    key = make_key()
    ann = person_of(key)
    await fill(server.storage, ann)
    me = await in_lobby(players, server, key=key, env={"LANG": lang})
    french = lang.startswith("fr")
    assert ("l Classement  h Mes parties" if french else "l Рейтинг  h Мої ігри") in me.text
    me.press("l")
    expected = expected_board(ann)
    footnote = "Cote : une estimation prudente" if french else "Рейтинг — обережна оцінка"
    text = await me.wait_for(lambda t: re.search(r"▶ +\d", t) and len(board_rows(t)) == 5)
    assert footnote in text
    header = r"Rang +Joueur +Cote +Parties +Victoires" if french else \
        r"Місце +Гравець +Рейтинг +Ігри +Перемоги"
    assert re.search(header, text)
    computer = "expert (ordinateur)" if french else "expert (комп'ютер)"
    assert computer in text
    rows = board_rows(text)
    for row, (who, rating) in zip(rows, expected):
        assert row.split()[-3] == rating_text(rating, ","), row
    await back_to_lobby(me)
    me.press("h")
    date, place = ("01/03/2025", "1 sur 3") if french else ("01.03.2025", "1 з 3")
    text = await me.wait_for(date)
    assert re.search(rf"{re.escape(date)} +(Classique|Класика) +ann, bob, expert +30 +"
                     rf"{place}", text)
    await me.wait_for("⏎ Revoir" if french else "⏎ Переглянути")


async def test_the_lobby_shows_both_keys_in_every_language_with_every_other_key(
        server, players, make_key):
    for lang, keys in (("en", "p Play now  l Leaderboard  h My games"),
                       ("fr", "p Jouer maintenant  l Classement  h Mes parties"),
                       ("es", "p Jugar ya  l Clasificación  h Mis partidas"),
                       ("uk", "p Грати зараз  l Рейтинг  h Мої ігри")):
        person = players(lang)
        await person.connect(server.port, key=make_key(), env={"LANG": lang})
        # Both lines of a frame: the screen is read as its bytes arrive, top to bottom.
        text = await person.wait_for(lambda t: keys in t and t.splitlines()[-1].rstrip().endswith(
            ("f1 Rules", "f1 Règles", "f1 Reglas", "f1 Правила")))
        assert text.splitlines()[-2].strip() == keys
        await person.close()


async def test_idle_on_the_leaderboard_is_idle_in_the_lobby(tmp_path, players, make_key):
    from dataclasses import replace

    from conftest import TEST_CONFIG
    from diamant_server.server import GameServer

    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, lobby_idle_timeout=3))
    await server.start()
    try:
        idle = players("ann")
        await idle.connect(server.port, key=make_key())
        await idle.wait_for("l Leaderboard")
        idle.press("l")
        await idle.wait_for("Rating: a cautious")
        await idle.wait_closed()
        assert b"idle in the lobby" in idle.raw
    finally:
        await server.stop()


async def test_the_two_keys_follow_a_language_switch_in_the_lobby(server, players, make_key):
    me = await in_lobby(players, server, key=make_key())
    me.press("g")
    await me.wait_for("l Classement  h Mes parties")
    me.press("h")
    await me.wait_for("Aucune partie pour l'instant")


async def test_a_database_that_cannot_be_read_is_said_so(server, players, make_key):
    key = make_key()
    await fill(server.storage, person_of(key))
    me = await in_lobby(players, server, key=key)
    # Another program damages the database while the server runs.
    with contextlib.closing(sqlite3.connect(server.storage.path, isolation_level=None)) as db:
        db.execute("DROP TABLE ratings")
        db.execute("ALTER TABLE seats RENAME TO chairs")
    me.press("l")
    await me.wait_for("The server cannot read its games just now; try again later.")
    await back_to_lobby(me)
    me.press("h")
    await me.wait_for("The server cannot read its games just now; try again later.")
    assert not me.closed.is_set()




async def test_games_read_while_the_screen_is_being_remade_are_shown_once_it_is(
        server, players, make_key):
    """The games come in while "my games" has no widgets (being made again in another
    language, or going): nothing is shown on widgets that are not there, and what
    remakes the screen shows the games. The input fuzz test found the session ending
    with an error there."""
    from diamant_server.history_screen import HistoryScreen

    key = make_key()
    await fill(server.storage, person_of(key))
    me = await in_lobby(players, server, key=key)
    me.press("h")
    await me.wait_for("2025-03-01")
    (session,) = [s for s in server.sessions if s.app is not None]
    screen = session.app.screen
    assert isinstance(screen, HistoryScreen)
    with session.app._context():  # as the app's own task would
        await screen.query_children("*").remove()  # what a recomposition does first
        screen.games = None
        await screen._load()  # the games come in now
        assert screen.games and session.app._exception is None
        await screen.retranslate()  # the screen made again shows them
    await me.wait_for("2025-03-01")
    assert session.app.is_running and session.app._exception is None

async def test_leaving_my_games_before_they_are_read_breaks_nothing(server, players,
                                                                    make_key, monkeypatch):
    """Escape pressed while the games are still being read: the list, once read, is not
    shown on a screen that is gone, and the session goes on (it ended with an error)."""
    key = make_key()
    await fill(server.storage, person_of(key))
    read = asyncio.Event()
    history = server.storage.history

    async def slow_history(person, limit=20):
        await read.wait()
        return await history(person, limit)

    monkeypatch.setattr(server.storage, "history", slow_history)
    me = await in_lobby(players, server, key=key)
    me.press("h")
    await me.wait_for("My games")
    await back_to_lobby(me)
    read.set()
    await asyncio.sleep(0.3)  # the reading ends, on a screen no longer there
    (session,) = [s for s in server.sessions if s.app is not None]
    assert session.app.is_running and session.app._exception is None
    me.press("h")  # and my games can be opened again
    await me.wait_for("2025-03-01")


async def test_leaving_the_leaderboard_before_it_is_read_breaks_nothing(server, players,
                                                                       make_key, monkeypatch):
    """Escape pressed while the ratings are still being read: they are not shown on a
    screen whose widgets are gone, and the session goes on (the input fuzz test saw it
    end with an error, NoMatches for the board's status line)."""
    from diamant_server.leaderboard_screen import LeaderboardScreen

    key = make_key()
    await fill(server.storage, person_of(key))
    read = asyncio.Event()
    leaderboard = server.storage.leaderboard

    async def slow_leaderboard(limit):
        await read.wait()
        return await leaderboard(limit)

    monkeypatch.setattr(server.storage, "leaderboard", slow_leaderboard)
    me = await in_lobby(players, server, key=key)
    me.press("l")
    await me.wait_for("Loading…")
    (session,) = [s for s in server.sessions if s.app is not None]
    screen = session.app.screen
    assert isinstance(screen, LeaderboardScreen)
    with session.app._context():  # as the app's own task would
        await screen.query_children("*").remove()  # the screen going, or remade
        loading = asyncio.create_task(screen._load())
        read.set()
        await loading  # the ratings come in now, on no widgets
        assert session.app.is_running and session.app._exception is None
        await screen.retranslate()  # the screen made again shows them
    await me.wait_for("bob")
    assert session.app.is_running and session.app._exception is None


@pytest.mark.parametrize("lang, back, quit", [
    ("en_GB.UTF-8", "q My games", "Quit"),
    ("fr_FR.UTF-8", "q Parties", "Quitter"),
    ("es_ES.UTF-8", "q Lista", "Salir"),
    ("uk_UA.UTF-8", "q Ігри", "Вийти"),
])
async def test_the_replays_key_bar_names_the_list_q_goes_back_to(server, players, make_key,
                                                                 lang, back, quit):
    """At 80 columns, in every language, a game watched again from the list of one's
    games names that list for q, where q goes back to: it said "q Quit" ("q Salir")."""
    key = make_key()
    await played_game(server, person_of(key))
    me = await in_lobby(players, server, key=key, env={"LANG": lang})
    me.press("h")
    await me.wait_for(r"2025-03-05|05/03/2025|05\.03\.2025")
    me.press("enter")
    await me.wait_for(r"· den · ")
    bar = me.text.splitlines()[-1]
    assert back in bar and quit not in bar, bar
    assert bar.rstrip().endswith(("f1 Rules", "f1 Règles", "f1 Reglas", "f1 Правила")), \
        "the whole bar in 80 columns"
    me.press("q")
    lists = ("My games", "Mes parties", "Mis partidas", "Мої ігри")
    await me.wait_for(lambda t: "· den · " not in t and any(name in t for name in lists))


async def test_a_wide_terminal_shows_every_players_name_in_my_games(server, players, make_key):
    """At 80 columns the players' names are cut at 24 cells; at 160 they were cut there
    too, most of the line left empty."""
    key = make_key()
    me = person_of(key)
    names = ["ann", "Maximiliano-Juan", "Oleksandra-Petro", "Bartholomew Kent"]
    sitters = [Sitter(names[0], me)] + [Sitter(n, None, "expert") for n in names[1:]]
    game = await server.storage.start_game("cave-7", "classic", when(7), sitters)
    await server.storage.finish_game(game, fake_record([(n, None, None) for n in names],
                                                       [20, 10, 5, 1]), [1, 2, 3, 4])
    person = players("ann", size=(160, 50))
    await person.connect(server.port, key=key)
    await person.wait_for("l Leaderboard")
    person.press("h")
    text = await person.wait_for("2025-03-07")
    assert ", ".join(names) in text, text
    assert "…" not in text


async def test_the_command_a_guest_is_given_to_have_games_kept_stands_whole(server, players):
    """In French, with a long name, the command to connect again after ssh-keygen is on a
    line of its own, whole, so that it is copied in one piece: it wrapped after its port."""
    gus = await in_lobby(players, server, name="Maximiliano_Ruiz", env={"LANG": "fr_FR.UTF-8"})
    gus.press("h")
    text = await gus.wait_for("ssh-keygen")
    command = f"ssh -t -p {server.port} Maximiliano_Ruiz@127.0.0.1"
    assert command in [line.strip() for line in text.splitlines()], text


@pytest.mark.parametrize("lang, note", [
    ("en_US.UTF-8", "The latest 25 of your 33 games."),
    ("fr_FR.UTF-8", "Les 25 dernières de vos 33 parties."),
    ("es_ES.UTF-8", "Las 25 últimas de tus 33 partidas."),
    ("uk_UA.UTF-8", "Ваших ігор: 33; тут останні 25."),
])
async def test_a_regular_with_more_games_than_listed_is_told_the_list_is_not_all(
        server, players, make_key, monkeypatch, lang, note):
    """My games lists the latest games only: someone who played more reads, under a
    list that fills the 80x24 screen, that these are the latest of how many, where the
    list stopped at its last row as if it were all of them (their first games, the
    evening's among them once the list has filled, nowhere to be seen)."""
    import diamant_server.history_screen as screen

    monkeypatch.setattr(screen, "SHOWN", 25)
    key = make_key()
    ann = person_of(key)
    await fill(server.storage, ann)  # three games of ann's
    for day in range(30):
        game = await server.storage.start_game(
            "den", "classic", when(1 + day % 28), [Sitter("ann", ann), Sitter("bob", BOB)])
        await server.storage.finish_game(game, fake_record(
            [("ann", ann, None), ("bob", BOB, None)], [day, 5]), [1, 2])
    me = await in_lobby(players, server, key=key, env={"LANG": lang})
    me.press("h")
    text = await me.wait_for(lambda t: note in flat(t))
    assert re.search(r"⏎ \S", text.splitlines()[-1]), "the key bar still shows"


async def test_a_regular_whose_games_are_all_listed_reads_no_such_note(server, players,
                                                                        make_key):
    key = make_key()
    await fill(server.storage, person_of(key))
    me = await in_lobby(players, server, key=key)
    me.press("h")
    text = await me.wait_for("⏎ Watch again")
    assert "The latest" not in text


@pytest.mark.parametrize("who", ["rated", "newcomer", "guest"])
async def test_where_i_stand_is_in_sight_under_a_leaderboard_that_fills_the_screen(
        server, players, make_key, monkeypatch, who):
    """On a busy server the list fills the 80x24 screen: the line that says where a
    regular below it stands (or that a newcomer is not on it yet, or that a guest is not
    rated) is read all the same, above the footnote, where it was pushed out of sight
    under the list's last row."""
    import diamant_server.leaderboard_screen as screen

    monkeypatch.setattr(screen, "SHOWN", 20)
    key = make_key()
    ann = person_of(key)
    await server.storage.seen(ann, "ann", "en")
    for i in range(25):
        other = f"key:SHA256:other{i}"
        await server.storage.seen(other, f"reg{i}", "en")
        sitters = [Sitter(f"reg{i}", other), Sitter("ann", ann if who == "rated" else None)]
        game = await server.storage.start_game("den", "classic", when(1), sitters)
        await server.storage.finish_game(game, fake_record(
            [(f"reg{i}", other, None), ("ann", None, None)], [20, 3]), [1, 2])
    if who == "guest":
        me = players("ann")
        await me.connect(server.port)
        await me.wait_for("l Leaderboard")
    else:
        me = await in_lobby(players, server, key=key if who != "guest" else None)
    me.press("l")
    expected = {"rated": "You, below the list: rank 26",
                "newcomer": "You are not on the list yet",
                "guest": "Guests are not rated."}[who]
    text = await me.wait_for(lambda t: len(board_rows(t)) > 10 and expected in flat(t))
    assert "Rating: a cautious estimate" in text


async def test_two_people_under_one_name_are_told_apart_on_the_leaderboard(
        server, players, make_key):
    """Anyone may log in under any name: a second key under "ann" (or a look-alike
    "Аnn") shows marked on the leaderboard, as at a table, so that the regular first
    seen under it keeps it plain and nobody can pass for her there, whoever rates
    higher."""
    key = make_key()
    ann = person_of(key)
    await server.storage.seen(ann, "ann", "en")
    for other, name in (("key:SHA256:impostor", "ann"), ("key:SHA256:cyrillic", "Аnn")):
        await server.storage.seen(other, name, "en")
        game = await server.storage.start_game("den", "classic", when(1), [
            Sitter(name, other), Sitter("ann", ann)])
        await server.storage.finish_game(game, fake_record(
            [(name, other, None), ("ann", ann, None)], [20, 3]), [1, 2])
    me = await in_lobby(players, server, key=key)
    me.press("l")
    text = await me.wait_for(lambda t: len(board_rows(t)) == 3)
    names = [row.replace("▶", "").split()[1] for row in board_rows(text)]
    assert sorted(names) == ["ann", "ann²", "Аnn³"], names
    mine = next(row for row in board_rows(text) if "▶" in row)
    assert mine.split()[2] == "ann", "the regular first seen keeps her name"


async def test_names_in_wide_characters_leave_my_score_and_place_in_sight(server, players,
                                                                          make_key):
    """A name of CJK characters takes two cells a character: the players' column was cut
    at 24 characters, 48 cells, and pushed the score and the place off an 80-column
    screen."""
    key = make_key()
    me = person_of(key)
    names = ["安", "山田太郎左衛門右衛門之助", "김민준서연지우하은", "王小明李大华"]
    sitters = [Sitter(names[0], me)] + [Sitter(n, None, "expert") for n in names[1:]]
    game = await server.storage.start_game("cave-7", "relic-variant", when(7), sitters)
    await server.storage.finish_game(game, fake_record([(n, None, None) for n in names],
                                                       [20, 10, 5, 1]), [1, 2, 3, 4])
    person = await in_lobby(players, server, key=key)
    person.press("h")
    text = await person.wait_for("2025-03-07")
    [line] = [line for line in text.splitlines() if "2025-03-07" in line]
    assert re.search(r"Relic variant +安, 山田.*… +20 +1 of 4", line), line


def test_a_list_of_players_cut_shows_no_mark_of_a_name_cut_off():
    """My games cuts the players' names to its column: the last name's mark (``Zoë²``,
    a second Zoë at that table) is not kept after the cut, where it stood after another
    name (``clem…²``, as if clementine had been marked)."""
    names = ("annabelle", "bobby", "clementine", "danielle", "eve", "Zoë²")
    shown = history_screen.format_players(names, 24)
    assert shown == "annabelle, bobby, cleme…"
    assert history_screen.format_players(("ann", "Zoë²"), 24) == "ann, Zoë²"
