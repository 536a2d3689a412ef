"""Whole games over real SSH connections, read from each player's terminal screen."""

from __future__ import annotations

import asyncio
import re

from diamant_tui.table import TableSettings, TableStatus
from harness import Player

TURN = re.compile(r"Round (\d)/5 · card (\d+)")


def turn_of(text: str) -> tuple[int, int] | None:
    """The (round, card) shown in the round bar."""
    found = TURN.search(text)
    return (int(found[1]), int(found[2])) if found else None


async def play_to_the_end(player: Player, key: str = "l") -> str:
    """Answer every decision with ``key`` until the final scores show."""
    answered = None
    while True:
        text = await player.wait_for(
            lambda t: "Final scores" in t or ("Your turn" in t and turn_of(t) != answered))
        if "Final scores" in text:
            return text
        answered = turn_of(text)
        player.press(key)


async def test_three_people_play_a_whole_game_each_from_their_own_seat(server, players, make_key):
    """Three people join one table with `play NAME`; it starts when full; all reach the scores."""
    names = ("ann", "bob", "cy")
    people = [players(name) for name in names]
    for person in people:
        await person.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 0")
    for person in people:
        text = await person.wait_for("Your turn")
        # Each sees every player, and their own row marked as theirs.
        assert re.search(rf"▶ {person.name}\b", text), text
        for other in names:
            assert other in text
            if other != person.name:
                assert not re.search(rf"▶ {other}\b", text)
    finals = await asyncio.gather(*(play_to_the_end(p, key) for p, key in zip(people, "lcl")))
    for text in finals:
        assert "Final scores" in text
    table = server.lobby.get("cave")
    assert table is not None and table.status is TableStatus.FINISHED
    assert table.game is not None and table.game.over


async def test_a_decision_stays_private_until_the_reveal(server, players, make_key):
    """While one player has chosen, the others are sent nothing of that choice: their
    screens are the same whether she chose to continue or to leave."""
    tables = {"leave": "quiet1", "continue": "quiet2"}
    seen: dict[str, dict[str, str]] = {}
    for choice, name in tables.items():
        server.lobby.create(TableSettings(name=name, seats=3, bots=(), seed=7, pace=0.02), "test")
        ann, bob, cy = players("ann"), players("bob"), players("cy")
        for person in (ann, bob, cy):
            await person.connect(server.port, key=make_key(), command=f"play {name}")
        for person in (ann, bob, cy):
            await person.wait_for("Your turn")
        await asyncio.sleep(0.3)  # let the first frames arrive before marking the byte streams
        marks = {p.name: len(p.raw) for p in (bob, cy)}
        ann.press(choice[0])
        await ann.wait_for("You chose")
        for other in (bob, cy):
            # The others learn that ann has decided (a mark in her row), never what.
            await other.wait_for(lambda t: re.search(r"ann .*✓", t) is not None)
        await asyncio.sleep(0.3)  # let any further frames arrive before reading them
        seen[choice] = {}
        for other in (bob, cy):
            sent = bytes(other.raw[marks[other.name]:]).lower()
            assert sent, "the other players were told that ann decided"
            for word in (b"chose", b"camp"):  # what only the chooser, or the reveal, shows
                assert word not in sent, (other.name, word, sent[:600])
            seen[choice][other.name] = other.text
        bob.press("c")
        cy.press("c")
        # After the reveal everyone sees who went back to camp.
        if choice == "leave":
            await bob.wait_for(lambda t: re.search(r"ann +Camp", t) is not None)
    for name in ("bob", "cy"):
        assert seen["leave"][name] == seen["continue"][name], (seen["leave"][name], seen["continue"][name])
