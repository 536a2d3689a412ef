"""A dropped connection keeps its seat: a computer plays it until the person comes back."""

from __future__ import annotations

import asyncio
import re
import shlex
from dataclasses import replace

import pytest

from conftest import TEST_CONFIG
from diamant_server.server import GameServer
from diamant_tui.table import TableSettings, TableStatus
from diamant_tui.ui.screens.waiting_questions import READ_FIRST

TURN = re.compile(r"Round \d/5 · card \d+")


async def test_a_player_who_drops_comes_back_with_the_same_key_to_the_same_seat(
        server, players, make_key):
    """The same key connecting again is put straight back at its table and seat."""
    server.lobby.create(TableSettings(name="back", seats=3, bots=(), seed=3, pace=0.02), "test")
    ann_key = make_key()
    ann, bob, cy = players("ann"), players("bob"), players("cy")
    for person, key in ((ann, ann_key), (bob, make_key()), (cy, make_key())):
        await person.connect(server.port, key=key, command="play back")
    for person in (ann, bob, cy):
        await person.wait_for("Your turn")
    table = server.lobby.get("back")
    seat = table.seat_of("key:" + ann_key.get_fingerprint("sha256"))
    assert seat is not None

    await ann.close()
    # The others see her seat played by a computer, marked away.
    await bob.wait_for(r"ann .*away")
    assert table.seats[seat].away and not table.seats[seat].connected

    # No command at all: the lobby is skipped, she is back at her seat.
    again = players("ann")
    await again.connect(server.port, key=ann_key)
    text = await again.wait_for(r"▶ ann")
    assert table.seat_of("key:" + ann_key.get_fingerprint("sha256")) == seat
    assert table.seats[seat].connected and not table.seats[seat].away
    await bob.wait_for(lambda t: re.search(r"ann .*away", t) is None)
    # She sees the same moment of the game as the others.
    assert TURN.search(text)[0] == TURN.search(bob.text)[0]


async def test_a_guest_comes_back_with_the_resume_code(server, players):
    """A guest without a key gets a code at join; `resume CODE` gives the seat back."""
    server.lobby.create(TableSettings(name="guests", seats=3, bots=("carry:20",) * 2, seed=5,
                                      pace=0.5), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play guests")
    text = await guest.wait_for(r"resume code is [A-Z0-9]{6}")
    code = re.search(r"resume code is ([A-Z0-9]{6})", text)[1]
    table = server.lobby.get("guests")
    seat = next(s.seat for s in table.seats if s.name == "gus")
    await guest.close()
    await server_wait(lambda: table.seats[seat].away)

    back = players("someone")
    await back.connect(server.port, command=f"resume {code}")
    await back.wait_for(r"▶ gus")
    assert table.seats[seat].connected and not table.seats[seat].away

    # A wrong code gives a clear message and the lobby.
    other = players("eve")
    await other.connect(server.port, command="resume NOPE99")
    await other.wait_for("No seat is waiting for the code")


async def server_wait(test, timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds on the server side."""
    import asyncio

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        assert loop.time() < end, "the server never reached the expected state"
        await asyncio.sleep(0.05)


async def test_asking_for_another_table_while_a_seat_is_held_says_why_this_one(
        server, players, make_key):
    """A person whose seat at a game under way is still theirs is put back in it even
    when they ask to play elsewhere, and told why, in their language, and how to go."""
    server.lobby.create(TableSettings(name="back", seats=3, bots=("carry:20",) * 2, seed=3,
                                      pace=0.5), "test")
    ann_key = make_key()
    ann = players("ann")
    await ann.connect(server.port, key=ann_key, command="play back")
    await ann.wait_for("Your turn")
    await ann.close()
    again = players("ann")
    await again.connect(server.port, key=ann_key, command="play other",
                        env={"LANG": "fr_FR.UTF-8"})
    said = toast_words(await again.wait_for("quittez-la d'abord"))
    assert ("Vous avez toujours une place à la table back, dont la partie continue : vous y "
            "revoilà. Pour jouer à other, quittez-la d'abord (q).") in said
    assert server.lobby.get("other") is None  # nothing opened for nothing


def toast_words(screen: str) -> str:
    """The words of the toasts on ``screen`` (right of their edge, ▌), in one line."""
    return " ".join(" ".join(line.partition("▌")[2].split())
                    for line in screen.splitlines() if "▌" in line)


async def test_a_seat_kept_at_a_waiting_table_over_a_restart_is_not_told_as_a_game(
        tmp_path, players, make_key):
    """gil sat down at cave, which waits for its players, and the server restarted: his
    seat is kept for him. Asking to play elsewhere he is put back in it and told why, as
    at a game under way, but that it waits for its players: he read that its game was
    going on, at a table where nothing had begun."""
    gil_key = make_key()
    first = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await first.start()
    try:
        gil = players("gil")
        await gil.connect(first.port, key=gil_key, command="play cave --seats 4")
        await gil.wait_for("cave")
    finally:
        await first.stop()
    again = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await again.start()
    try:
        back = players("gil")
        await back.connect(again.port, key=gil_key, command="play other",
                           env={"LANG": "es_ES.UTF-8"})
        said = toast_words(await back.wait_for("déjala antes"))
        assert ("Sigues teniendo un asiento en la mesa cave, que espera a sus jugadores: "
                "has vuelto a él. Para jugar en other, déjala antes (q).") in said
        assert again.lobby.get("other") is None
    finally:
        await again.stop()


LOCAL_ACCOUNT = "root"
"""The account the shown command is typed from: ``ssh`` logs in under its name when the
command names no user, and the server refuses this one."""


@pytest.mark.parametrize("typed, login", [
    ("ﬁ①", "fi1"),                  # folded to plain letters: typed as shown
    ("Zoé", "Zoé"),                 # letters of any script are typed as they are
    ("ann b", "ann_b"),             # a space would need quoting
    ("[b]x $(id);", "bx_id"),       # nothing a shell or the screen would read as syntax
    ("☺", "guest"),                 # nothing of the name can be typed as is
])
async def test_the_resume_command_shown_works_as_typed_from_any_account(
        server, players, typed, login):
    """The command a guest is shown to come back names a user the server takes, one a
    shell passes on as it is: typed as shown, even from a ``root`` shell, it gives the
    seat back."""
    server.lobby.create(TableSettings(name="t2", seats=3, bots=("carry:20",) * 2, seed=5,
                                      pace=0.5), "test")
    guest = players(typed)
    await guest.connect(server.port, command="play t2")
    await guest.wait_for(r"resume code is [A-Z0-9]{6}")
    guest.press("q")
    await guest.wait_for("Leave this table")
    await asyncio.sleep(READ_FIRST)  # a y typed with the q is no answer
    guest.press("y")  # to the lobby, where the header keeps the command in sight
    text = await guest.wait_for(r"Resume code: [A-Z0-9]{6} · ssh ")
    code, command = re.search(r"Resume code: ([A-Z0-9]{6}) · (ssh .*)", text).groups()
    command = command.strip()
    # Typed in a shell, each word reaches ssh as written: no quoting, no expansion.
    assert shlex.split(command) == command.split(" ")
    assert command == f"ssh -t -p {server.port} {login}@127.0.0.1 resume {code}"
    await guest.close()

    # What ssh does with the words: its user is the one named, else the local account's.
    words = command.split(" ")
    target = words[4]
    user = target.rpartition("@")[0] or LOCAL_ACCOUNT
    back = players(user)
    await back.connect(server.port, command=" ".join(words[5:]))
    table = server.lobby.get("t2")
    name = next(s.name for s in table.seats if s.kind.value == "person")
    await back.wait_for(rf"▶ {re.escape(name)}")


async def test_a_guest_reads_the_resume_command_whole_on_a_line_of_its_own(server, players):
    """At 80 columns, in French, a guest with a long name reads the command that brings
    them back on a line of its own, whole: wrapped after the sentence before it, half of
    it was copied without the other."""
    server.lobby.create(TableSettings(name="t3", seats=3, bots=("carry:20",) * 2, seed=5,
                                      pace=0.5), "test")
    guest = players("gustave-le-grand")
    await guest.connect(server.port, command="play t3", env={"LANG": "fr_FR.UTF-8"})
    text = await guest.wait_for(r"code de reprise est [A-Z0-9]{6}")
    code = re.search(r"code de reprise est ([A-Z0-9]{6})", text)[1]
    command = f"ssh -t -p {server.port} gustave-le-grand@127.0.0.1 resume {code}"
    assert command in [line.strip() for line in text.splitlines()], text


@pytest.mark.parametrize("lang, during", [("en", "If your connection drops during the game:"),
                                          ("fr", "Si la connexion tombe pendant la partie :")])
async def test_the_waiting_room_promises_the_code_for_the_game_only(server, players, lang, during):
    """A connection dropped before the game frees its seat, so the code then gives back
    nothing: the waiting room tells the code for a drop during the game (it said "If your
    connection drops:", and the command it gave was then refused), on a line that fits."""
    server.lobby.create(TableSettings(name="wait", seats=3, bots=()), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play wait",
                        env={"LANG": {"en": "en_US.UTF-8", "fr": "fr_FR.UTF-8"}[lang]})
    text = await guest.wait_for(r"[A-Z0-9]{6}\. ")
    code = re.search(r" ([A-Z0-9]{6})\. ", text)[1]
    assert any(line.strip().endswith(f"{code}. {during}") for line in text.splitlines()), text
    await guest.close()
    await server_wait(lambda: server.lobby.get("wait") is None or not any(
        seat.name == "gus" for seat in server.lobby.get("wait").seats))
    back = players("gus")  # as told: refused, the seat having gone with the connection
    await back.connect(server.port, command=f"resume {code}")
    await back.wait_for("No seat is waiting for the code")


async def test_a_player_dropped_at_the_final_scores_comes_back_to_them_and_the_rematch(
        server, players, make_key):
    """A connection lost at the final scores (cut, not closed) is not leaving the table:
    the rematch the others ask for waits for its person, whose key brings them back to
    the final scores, to ask for it and play it in their own seat."""
    from test_ssh_game import play_to_the_end

    server.lobby.create(TableSettings(name="last", seats=3, bots=("carry:3",), seed=3,
                                      pace=0.02), "test")
    bob_key = make_key()
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play last")
    await bob.connect(server.port, key=bob_key, command="play last")
    await asyncio.gather(play_to_the_end(ann), play_to_the_end(bob))
    table = server.lobby.get("last")
    seat = table.seat_of("key:" + bob_key.get_fingerprint("sha256"))
    ann.press("r")
    await ann.wait_for(r"Rematch: ann ✓, bob …")
    await bob.cut()
    await server_wait(lambda: not table.seats[seat].connected)
    await asyncio.sleep(0.3)
    assert table.status is TableStatus.FINISHED  # not begun without him

    again = players("bob")
    await again.connect(server.port, key=bob_key)
    await again.wait_for("Final scores")
    again.press("r")
    await server_wait(lambda: table.status is TableStatus.PLAYING)
    assert table.seats[seat].name == "bob" and table.seats[seat].connected
    await again.wait_for(r"▶ bob")


async def test_a_guest_dropped_at_the_final_scores_comes_back_with_their_code(
        server, players, make_key):
    """The same for a guest: the resume code told at the game's start still gives the
    seat back at the final scores while the rematch waits for them (it expired with the
    game, and the guest, lost at the scores, could only watch the rematch begin without
    them); they ask for it and play it in their own seat, with the same code."""
    from test_ssh_game import play_to_the_end

    server.lobby.create(TableSettings(name="last", seats=3, bots=("carry:3",), seed=3,
                                      pace=0.02), "test")
    ann, gus = players("ann"), players("gus")
    await ann.connect(server.port, key=make_key(), command="play last")
    await gus.connect(server.port, command="play last")
    code = re.search(r"resume code is ([A-Z0-9]{6})",
                     await gus.wait_for(r"resume code is [A-Z0-9]{6}"))[1]
    await asyncio.gather(play_to_the_end(ann), play_to_the_end(gus))
    table = server.lobby.get("last")
    seat = next(s.seat for s in table.seats if s.name == "gus")
    ann.press("r")
    # (Named in the order of the scores, which may be tied: either comes first.)
    await ann.wait_for(lambda screen: "ann ✓" in screen and "gus …" in screen)
    await gus.cut()
    await server_wait(lambda: not table.seats[seat].connected)

    again = players("someone")
    await again.connect(server.port, command=f"resume {code}")
    await again.wait_for("Final scores")
    again.press("r")
    await server_wait(lambda: table.status is TableStatus.PLAYING)
    assert table.seats[seat].name == "gus" and table.seats[seat].connected
    await again.wait_for(r"▶ gus")
    await again.cut()  # the same code still gives the seat back during the rematch
    await server_wait(lambda: not table.seats[seat].connected)
    last = players("someone")
    await last.connect(server.port, command=f"resume {code}")
    await last.wait_for(r"▶ gus")
    assert table.seats[seat].connected


async def test_a_guest_who_leaves_the_final_scores_gives_their_code_up(server, players):
    """Leaving the final scores (q) is giving the seat up: the code gives nothing then."""
    from test_ssh_game import play_to_the_end

    server.lobby.create(TableSettings(name="done", seats=3, bots=("carry:3",) * 2, seed=3,
                                      pace=0.02), "test")
    gus = players("gus")
    await gus.connect(server.port, command="play done")
    code = re.search(r"resume code is ([A-Z0-9]{6})",
                     await gus.wait_for(r"resume code is [A-Z0-9]{6}"))[1]
    await play_to_the_end(gus)
    gus.press("q")
    await gus.wait_for("lobby")
    await server_wait(lambda: code not in server.lobby._codes)
    late = players("someone")
    await late.connect(server.port, command=f"resume {code}")
    await late.wait_for("No seat is waiting for the code")


async def test_a_player_back_before_the_server_saw_the_drop_gets_the_final_scores(
        server, players, make_key):
    """A network gone is seen by the server only when keepalives go unanswered: someone
    quicker to reconnect finds their old connection still there. As in a game, the new
    one takes the seat over, at the final scores too (it landed in the lobby)."""
    from test_ssh_game import play_to_the_end

    server.lobby.create(TableSettings(name="quick", seats=3, bots=("carry:3",) * 2, seed=3,
                                      pace=0.02), "test")
    key = make_key()
    ann = players("ann")
    await ann.connect(server.port, key=key, command="play quick")
    await play_to_the_end(ann)
    again = players("ann")
    await again.connect(server.port, key=key)
    await again.wait_for("Final scores")
    await ann.wait_closed()
    again.press("r")
    table = server.lobby.get("quick")
    await server_wait(lambda: table.status is TableStatus.PLAYING)


async def test_the_last_person_lost_at_the_final_scores_finds_them_kept(
        server, players, make_key):
    """The table's last person (alone with computer players, or all of a household's
    players on one network gone) lost at the final scores: the table waits for them
    as for anyone lost there (it was forgotten at once, and the key led to the lobby)."""
    from test_ssh_game import play_to_the_end

    server.lobby.create(TableSettings(name="solo", seats=3, bots=("carry:3",) * 2, seed=3,
                                      pace=0.02), "test")
    key = make_key()
    ann = players("ann")
    await ann.connect(server.port, key=key, command="play solo")
    await play_to_the_end(ann)
    table = server.lobby.get("solo")
    await ann.cut()
    await server_wait(lambda: not table.people_connected)
    await asyncio.sleep(0.3)
    assert server.lobby.get("solo") is table
    again = players("ann")
    await again.connect(server.port, key=key)
    await again.wait_for("Final scores")
    again.press("r")
    await server_wait(lambda: table.status is TableStatus.PLAYING)
