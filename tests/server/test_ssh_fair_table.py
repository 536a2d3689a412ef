"""A fair table between strangers, each in their own SSH client: seats that mean what
they say, a table that is full or playing says so and waits, spectators who only watch,
and a rematch that everyone agrees to."""

from __future__ import annotations

import re

from diamant_server.identity import person_of
from diamant_tui.table import TableSettings


async def test_three_friends_asking_for_three_seats_all_sit_down(server, players, make_key):
    """`play cave --seats 3` without --bots: three seats for people, in the order they come."""
    friends = [players(n) for n in ("ann", "bob", "cy")]
    for friend in friends:
        await friend.connect(server.port, key=make_key(), command="play cave --seats 3")
    for friend in friends:
        await friend.wait_for(r"Round 1/5")
    table = server.lobby.get("cave")
    assert [(s.name, s.kind.value) for s in table.seats] == [
        ("ann", "person"), ("bob", "person"), ("cy", "person")]


async def test_a_full_table_says_so_and_waits_for_the_person_to_choose(server, players, make_key):
    table = server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2,
                                              pace=0.5), "x")
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Round 1/5")
    await bob.connect(server.port, key=make_key(), command="play den")
    await bob.wait_for("The game at table den has already begun")
    await bob.wait_for("Watch \\[w\\]")
    assert "already begun" in bob.text  # still there: not a note that fades
    bob.press("escape")
    await bob.wait_for(lambda t: "already begun" not in t and "lobby" in t)
    bob.press("enter")  # from the lobby's list: the same screen
    await bob.wait_for("already begun")
    bob.press("w")
    await bob.wait_for("You are watching")
    assert [s.kind.value for s in table.seats].count("person") == 1


async def test_a_full_table_offers_to_play_now_elsewhere(server, players, make_key):
    """Someone sent to a table already playing need not go back to the lobby to find a
    game: p plays now, at a table waiting for players (or one opened for them)."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2,
                                      pace=0.5), "x")
    server.lobby.create(TableSettings(name="pit", seats=4), "y")
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Round 1/5")
    await bob.connect(server.port, key=make_key(), command="play den")
    await bob.wait_for("The game at table den has already begun")
    await bob.wait_for("Play now \\[p\\]")
    bob.press("p")
    await bob.wait_for("Table pit: waiting for players")
    pit = server.lobby.get("pit")
    assert ("bob", "person") in [(s.name, s.kind.value) for s in pit.seats]


async def test_a_spectators_keys_act_for_nobody(server, players, make_key):
    """A spectator can watch, chat (marked as watching) and leave, and nothing else."""
    ann, bob, wes = players("ann"), players("bob"), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("Free seats: 1")
    await wes.connect(server.port, key=make_key(), command="watch den")
    await wes.wait_for("You are watching")
    wes.press("s")  # not the creator's start, nor anyone's
    await bob.connect(server.port, key=make_key(), command="play den")
    for person in (ann, bob):
        await person.wait_for("Your turn")
    table = server.lobby.get("den")
    await wes.wait_for("Round 1/5")
    for key in ("c", "l", "enter", "r", "s", "p"):
        wes.press(key)
    wes.press("t")
    await wes.wait_for("Say something")
    wes.type("[bold]hi[/bold]")
    wes.press("enter")
    await ann.wait_for(re.escape("wes (watching): [bold]hi[/bold]"))
    view = table.game.view_for(0)
    assert view.decision_due and not any(view.players[seat].decided for seat in (0, 1))
    wes.press("q")  # no question: a spectator just goes back
    await wes.wait_for(lambda t: "lobby" in t and "Leave this table" not in t)


async def test_a_spectator_at_a_waiting_table_takes_a_free_seat_with_j(server, players,
                                                                      make_key):
    """Watching a table that waits for its players, a spectator sat down only by going
    back to the lobby and asking for it there; j takes a free seat at once (a guest is
    given their resume code, as from the lobby), and is offered while one is free."""
    ann, wes, bob = players("ann"), players("wes"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3")
    await ann.wait_for("Free seats: 2")
    await wes.connect(server.port, command="watch den", env={"LANG": "fr_FR.UTF-8"})
    text = await wes.wait_for("j prendre une place libre")
    assert "Vous regardez : j prendre une place libre · t discuter · q retour au salon" in text
    assert "j S'asseoir" in text.splitlines()[-1]
    wes.press("j")
    text = await wes.wait_for(r"▶  2\. wes")
    assert "Vous regardez" not in text and "S'asseoir" not in text
    await wes.wait_for("Votre code de reprise est")  # a guest's, among the table's lines
    await ann.wait_for(r"2\. wes +person")
    table = server.lobby.get("den")
    assert [s.name for s in table.seats][:2] == ["ann", "wes"] and table.watchers == ()
    await bob.connect(server.port, key=make_key(), command="play den")
    for person in (ann, bob, wes):
        await person.wait_for(r"Round 1/5|Manche 1/5")
    assert [s.kind.value for s in table.seats] == ["person"] * 3


async def test_a_seat_taken_as_a_spectator_asks_for_it_leaves_them_watching(
        server, players, make_key):
    """The last seat taken as the spectator pressed j, before their screen heard of it:
    they are told, and go on watching."""
    from diamant_tui.ui.messages import TakeSeat
    from test_hosting_admin import notice

    ann, wes = players("ann"), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("Free seats: 1")
    await wes.connect(server.port, key=make_key(), command="watch den")
    await wes.wait_for("j take a free seat")
    table = server.lobby.get("den")
    table.sit("bob", "key:bob")  # the last seat: the game begins
    [session] = [s for s in server.sessions if s.identity.name == "wes"]
    session.app.post_message(TakeSeat())
    await notice(wes, "The free seats were taken meanwhile: you are still watching.")
    assert table.watchers == ("wes",) and "wes" not in [s.name for s in table.seats]


async def test_a_rematch_starts_when_both_players_have_asked(server, players, make_key):
    ann, bob, wes = players("ann"), players("bob"), players("wes")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("Free seats: 1")
    await bob.connect(server.port, key=make_key(), command="play den")
    await wes.connect(server.port, key=make_key(), command="watch den")
    table = server.lobby.get("den")
    for person in (ann, bob):  # both leave at once each round: a short game
        answered = None
        while True:
            text = await person.wait_for(lambda t: "Final scores" in t or (
                "Your turn" in t and re.search(r"Round \d/5 · card \d+", t)[0] != answered),
                timeout=60)
            if "Final scores" in text:
                break
            answered = re.search(r"Round \d/5 · card \d+", text)[0]
            person.press("l")
            if person is ann:
                bob.press("l")
    await wes.wait_for("Final scores")
    ann.press("r")
    for person in (ann, bob, wes):
        await person.wait_for(r"Rematch: ann ✓, bob …")
    assert table.games_played == 0
    wes.press("r")  # a spectator has no vote
    bob.press("r")
    for person in (ann, bob, wes):
        await person.wait_for(lambda t: "Round 1/5" in t and "Final scores" not in t)
    assert table.games_played == 1


async def _play_out(*people) -> None:
    """Everyone leaves at every turn until the final scores: a short game."""
    answered = {}
    while True:
        person = people[0]
        text = await person.wait_for(lambda t: "Final scores" in t or (
            "Your turn" in t and re.search(r"Round \d/5 · card \d+", t)[0] != answered.get(0)),
            timeout=60)
        if "Final scores" in text:
            return
        answered[0] = re.search(r"Round \d/5 · card \d+", text)[0]
        for someone in people:
            someone.press("l")


async def test_whoever_left_after_a_game_is_not_in_its_rematch(server, players, make_key):
    """A rematch is a new game for those who stayed: the seat of a person who went back
    to the lobby at the final scores is a computer player's in it, and the game is kept
    and rated with that computer player, not with the person who was not there."""
    ann_key, bob_key = make_key(), make_key()
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=ann_key, command="play den --seats 3 --bots 1")
    await ann.wait_for("Free seats: 1")
    await bob.connect(server.port, key=bob_key, command="play den")
    table = server.lobby.get("den")
    await _play_out(ann, bob)
    await bob.wait_for("Final scores")
    bob.press("q")
    await bob.wait_for("lobby")
    ann.press("r")  # the only person still at the table: the rematch begins
    await ann.wait_for(lambda t: "Round 1/5" in t and "Final scores" not in t)
    assert table.games_played == 1
    seat = table.seats[1]
    assert seat.kind.value == "bot" and seat.name != "bob" and not seat.away
    await _play_out(ann)
    await server.lobby.flush()
    ann_games = await server.storage.history(person_of("key:" + ann_key.get_fingerprint("sha256")))
    bob_games = await server.storage.history(person_of("key:" + bob_key.get_fingerprint("sha256")))
    assert len(ann_games) == 2 and len(bob_games) == 1
    assert bob_games[0].game.id == min(game.game.id for game in ann_games)


async def test_the_rules_open_over_a_full_table_s_question_and_close_back_to_it(
        server, players, make_key):
    """F1 while asked what to do at a table already playing shows the rules, as it does
    everywhere (it did nothing there); Escape closes them, the question as it was."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2,
                                      pace=0.5), "x")
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Round 1/5")
    await bob.connect(server.port, key=make_key(), command="play den")
    await bob.wait_for("Watch \\[w\\]")
    assert "f1 Rules" in bob.text
    bob.press("f1")
    await bob.wait_for("Diamant — the rules")
    bob.press("escape")
    await bob.wait_for(lambda t: "the rules" not in t and "Watch [w]" in t)
    bob.press("w")
    await bob.wait_for("You are watching")
