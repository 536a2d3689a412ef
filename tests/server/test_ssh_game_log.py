"""The game log of people at a table over real SSH: each line of the game once, in order."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

from conftest import TEST_CONFIG
from diamant_server.server import GameServer
from harness import Player

from diamant_tui.i18n import Translator
from diamant_tui.table import SeatGivenToComputer
from diamant_tui.ui.describe import seat_given_text


def log_lines(server: GameServer, name: str) -> list[str]:
    """The lines of the game log on ``name``'s table screen, as its app wrote them (the
    log's widget is made only once opened; until then the screen keeps its lines)."""
    (session,) = [s for s in server.sessions if s.identity.name == name]
    kept = session.app.screen._log
    shown = [] if kept.widget is None else [strip.text for strip in kept.widget.lines]
    return shown + kept.waiting()


async def test_who_fills_the_last_seat_reads_the_first_round_begin_once(server, players,
                                                                         make_key, monkeypatch):
    """The person whose arrival starts the game reads "Round 1 begins" once in the log, as
    everyone else does. The first card waits for the table to be saved: held here until
    that person's screen shows the game, as a slow disk would, they arrive between the
    game's start and its first card."""
    storage = server.storage
    save_table = storage.save_table
    arrived = asyncio.Event()

    async def slow_once_playing(table_id, name, settings, snapshot):
        if snapshot["table"]["status"] == "playing":
            await arrived.wait()
        await save_table(table_id, name, settings, snapshot)

    monkeypatch.setattr(storage, "save_table", slow_once_playing)
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("waiting for players")
    await bob.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await bob.wait_for("Round 1/5")
    arrived.set()
    for person in (ann, bob):
        await person.wait_for("Your turn")
    begins = Translator("en")("event.round_started", round=1)
    for person in ("ann", "bob"):
        lines = log_lines(server, person)
        assert lines.count(begins) == 1, (person, lines)
        assert len(lines) >= 2, (person, lines)  # and the first card after it
        assert lines.index(begins) == 0, (person, lines)


async def play_to_the_final_scores(person: Player) -> None:
    """Go back to camp at every turn until the game's final scores show."""
    answered = None
    while True:
        text = await person.wait_for(
            lambda t, answered=answered: "Final scores" in t
            or ("Your turn" in t and turn_of(t) != answered))
        if "Final scores" in text:
            return
        answered = turn_of(text)
        person.press("l")


def turn_of(text: str) -> str | None:
    """The round bar's round and card, as shown."""
    found = re.search(r"Round \d/5 · card \d+", text)
    return found[0] if found else None


async def test_a_rematch_says_which_computer_player_takes_the_seat_of_who_left(
        server, players, make_key):
    """A rematch begins without a person who left after the game: the players and the
    spectators read that a computer player takes their seat, whose it was (the name as
    it was written, brackets and wide characters too), and that it is a computer, marked
    as the player list marks one."""
    departed = "[b]дмитро宝"
    ann, dmytro, wes = players("ann"), players(departed), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("waiting for players")
    await dmytro.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await wes.connect(server.port, key=make_key(), command="watch den")
    await asyncio.gather(play_to_the_final_scores(ann), play_to_the_final_scores(dmytro))
    await dmytro.close()
    ann.press("r")  # the only person left to agree: the rematch begins
    told = Translator("en")("event.seat_to_computer", computer="Bruno (computer)",
                            name=departed)
    assert told == "Bruno (computer) takes [b]дмитро宝's seat."
    for person in (ann, wes):
        await person.wait_for(lambda text: "Round 1/5" in text and "Final scores" not in text)
    for name in ("ann", "wes"):
        lines = log_lines(server, name)
        assert told in lines, (name, lines)
        assert lines.index(told) < lines.index(
            Translator("en")("event.round_started", round=1)), (name, lines)
    # On the screen, under the path or in the banner, as written.
    await ann.wait_for(re.escape(told))


async def into_a_round(ann: Player, bob: Player) -> int:
    """ann goes on at every card, bob goes home at a round's third, until ann is asked at
    a round's fifth card (a disaster ends a round sooner: then in the next); returns the
    round. The table then waits for ann's choice."""
    answered = None
    while True:
        text = await ann.wait_for(
            lambda t, answered=answered: "Your turn" in t and turn_of(t) != answered,
            timeout=60)
        answered = turn_of(text)
        round_, _, card = (int(n) for n in re.findall(r"\d+", answered))
        if card >= 5:
            return round_
        if card <= 3:  # bob is still in the cave: his choice too
            await bob.wait_for(
                lambda t, answered=answered: "Your turn" in t and turn_of(t) == answered)
            bob.press("l" if card == 3 else "c")
        ann.press("c")


async def test_back_after_a_restart_the_log_tells_the_round_as_it_was(tmp_path, server,
                                                                        players, make_key):
    """After the server's restart, a person back at their seat reads the round so far in
    the log as they read it before (its start, every card, who went home), not only its
    start and its last card: the table tells it again from the game it rebuilt from the
    database."""
    keys = {"ann": make_key(), "bob": make_key()}
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=keys["ann"], command="play den --seats 3 --bots 1")
    await ann.wait_for("waiting for players")
    await bob.connect(server.port, key=keys["bob"], command="play den --seats 3 --bots 1")
    round_now = await into_a_round(ann, bob)
    before = log_lines(server, "ann")
    t = Translator("en")
    begins = t("event.round_started", round=round_now)
    this_round = before[len(before) - 1 - before[::-1].index(begins):]
    # More than the round's start and its last card: bob went home among them.
    assert any(line.startswith("bob goes back to camp") for line in this_round), before
    assert len(this_round) > 6, this_round
    await server.stop()

    again = GameServer(replace(TEST_CONFIG, data_dir=tmp_path))
    await again.start()
    try:
        back = players("ann")
        await back.connect(again.port, key=keys["ann"])  # straight back to her seat
        await back.wait_for(f"Round {round_now}/5")
        assert log_lines(again, "ann") == this_round
    finally:
        await again.stop()


async def test_whoever_comes_during_a_rematch_reads_who_took_whose_seat(server, players,
                                                                      make_key):
    """dmytro leaves after the game and a computer player takes his seat for the rematch.
    zoe, who comes to watch while its first round goes on, and cy, back after his
    connection dropped, read that in their log first, before the round so far, as
    those at the table when the rematch began did (it was told to them alone)."""
    keys = {name: make_key() for name in ("ann", "cy", "dmytro", "zoe")}
    ann, cy, dmytro = players("ann"), players("cy"), players("dmytro")
    for person in (ann, cy, dmytro):
        await person.connect(server.port, key=keys[person.name],
                             command="play den --seats 4 --bots 1")
    await asyncio.gather(*(play_to_the_final_scores(p) for p in (ann, cy, dmytro)))
    table = server.lobby.get("den")
    seat = table.seat_of("key:" + keys["dmytro"].get_fingerprint("sha256"))
    shown_as = table.seats[seat].name  # (marked, beside the computer player Dmytro)
    await dmytro.close()
    for person in (ann, cy):
        person.press("r")  # the rematch begins once both have asked
    t = Translator("en")
    await ann.wait_for(lambda text: "Your turn" in text and "Final scores" not in text)
    told = seat_given_text(t, SeatGivenToComputer(seat, shown_as, table.seats[seat].name))
    assert told in log_lines(server, "ann")
    await cy.close()  # the game waits for ann's choice meanwhile: a computer plays cy's
    zoe, back = players("zoe"), players("cy")
    await zoe.connect(server.port, key=keys["zoe"], command="watch den")
    await back.connect(server.port, key=keys["cy"])  # straight back to his seat
    for person in (zoe, back):
        await person.wait_for("Round 1/5")
    begins = t("event.round_started", round=1)
    for name in ("zoe", "cy"):
        lines = log_lines(server, name)
        assert lines[:1] == [told] and begins in lines, (name, lines)


async def test_a_spectator_takes_the_seat_of_who_left_at_the_final_scores(
        server, players, make_key):
    """Someone leaves at the final scores: a spectator who wants to play is offered their
    seat (j), takes it, asks for the rematch with the others and plays it, in the seat,
    rather than watching a computer player take it."""
    ann, dan, cle = players("ann"), players("dan"), players("cle")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("waiting for players")
    await dan.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await cle.connect(server.port, key=make_key(), command="watch den")
    await asyncio.gather(play_to_the_final_scores(ann), play_to_the_final_scores(dan))
    await cle.wait_for("Final scores")
    await dan.close()
    await cle.wait_for(re.escape(Translator("en")("final.watching_seat", name="dan")))
    await cle.wait_for("j Sit down")  # the key bar offers it too
    cle.press("j")
    await ann.wait_for(r"Rematch: ann …, cle …")
    ann.press("r")
    await cle.wait_for(r"Rematch \[r\]")
    cle.press("r")
    text = await cle.wait_for(lambda t: "Your turn" in t and "Final scores" not in t)
    assert "takes dan's seat" not in text
    (session,) = [s for s in server.sessions if s.identity.name == "cle"]
    member = session.app.member
    assert member.seat is not None and member.table.seat_of(member.identity) == member.seat
