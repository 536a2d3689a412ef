"""The mouse over SSH: clicks on the lobby's list, the buttons of a game, and what a
click may not do (act for another seat, or for a spectator)."""

from __future__ import annotations

import asyncio

import pytest

from diamant_tui.engine.view import Phase


def click(player, column: int, row: int) -> None:
    """A left click at a cell (0-based), as a terminal reports it (SGR), pressed and let go
    in two packets as a hand does."""
    player.send(f"\x1b[<0;{column + 1};{row + 1}M".encode())


def release(player, column: int, row: int) -> None:
    player.send(f"\x1b[<0;{column + 1};{row + 1}m".encode())


async def a_click(player, column: int, row: int) -> None:
    click(player, column, row)
    await asyncio.sleep(0.05)
    release(player, column, row)


def row_of(player, text: str) -> int:
    for y, line in enumerate(player.screen.display):
        if text in line:
            return y
    raise AssertionError(f"{text!r} not on screen:\n{player.text}")


async def test_a_click_on_a_table_in_the_lobby_list_joins_it(server, players, make_key):
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Waiting for the game to start")
    await bob.connect(server.port, key=make_key())
    await bob.wait_for(r"den +Classic +1/4")
    await a_click(bob, 3, row_of(bob, "den "))
    await bob.wait_for("Waiting for the game to start")


async def test_a_click_anywhere_on_the_chosen_table_joins_it(server, players, make_key):
    """The row is the choice: a click on its rules or its status joins as one on its name
    (the list's cursor is a whole row; Textual's compares the column as well)."""
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Waiting for the game to start")
    await bob.connect(server.port, key=make_key())
    await bob.wait_for(r"den +Classic +1/4")
    line = bob.screen.display[row_of(bob, "den ")]
    await a_click(bob, line.index("Classic") + 2, row_of(bob, "den "))
    await bob.wait_for("Waiting for the game to start")


def button_at(player, label: str) -> tuple[int, int]:
    """The cell in the middle of a button's label."""
    y = row_of(player, label)
    return player.screen.display[y].index(label) + len(label) // 2, y


@pytest.mark.parametrize("label", ["Continue [c]", "c Continue"])
async def test_a_double_click_on_a_choice_decides_one_turn_only(
        server, players, make_key, label):
    """The last to decide double-clicks Continue (its button, or its key on the key bar):
    the first click ends the turn and the next card comes out at once; the second click
    of the pair, on the same place, must not decide the new card for them."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 2")
    loop = asyncio.get_running_loop()
    for _ in range(5):  # a turn whose next card came out within a double click's time
        await ann.wait_for(lambda text: "Your turn" in text and text.count("✓") == 2)
        table = server.lobby.get("den")
        before = table.game.view_for(0)
        turn = (before.round, len(before.path))
        column, row = button_at(ann, label)
        start = loop.time()
        await a_click(ann, column, row)
        while (table.game.view_for(0).round, len(table.game.view_for(0).path)) == turn:
            await asyncio.sleep(0.005)
        if loop.time() - start > 0.3:
            continue  # too slow for a double click (a loaded machine): the next turn
        if table.game.phase is not Phase.DECISION:
            continue  # a disaster: the next round's card, not a click, comes next
        after = (table.game.view_for(0).round, len(table.game.view_for(0).path))
        await a_click(ann, column, row)  # the pair's second click
        await asyncio.sleep(0.5)
        view = table.game.view_for(0)
        # The game waits for her on the card the first click brought out.
        assert (view.round, len(view.path)) == after, ann.text
        assert view.my_decision is None, ann.text
        return
    pytest.skip("the next card never came out within a double click's time")


async def test_a_click_on_the_lobbys_second_line_of_keys_presses_them(server, players, make_key):
    """Play now, the leaderboard and my games stand on a line of their own above the key
    bar, drawn as it is: a click on one presses it, as a click on the key bar does."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    await a_click(ann, *button_at(ann, "Leaderboard"))
    await ann.wait_for("esc Lobby")
    ann.press("escape")
    await ann.wait_for("p Play now")
    await a_click(ann, *button_at(ann, "Play now"))
    await ann.wait_for("Waiting for the game to start")


async def test_a_double_click_on_a_key_that_changes_screen_presses_it_once(
        server, players, make_key):
    """A double click on the lobby's w Watch: the first click opens the table, whose key
    bar has t Chat where Watch stood; the second click of the pair must not open the chat
    (the next letters typed would go to it)."""
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den")
    await ann.wait_for("Waiting for the game to start")
    await bob.connect(server.port, key=make_key())
    await bob.wait_for(r"den +Classic +1/4")
    column, row = button_at(bob, "w Watch")
    await a_click(bob, column, row)
    await bob.wait_for("Waiting for the game to start")
    assert "Chat" in bob.screen.display[row][column - 3:column + 4]  # under the pointer
    await a_click(bob, column, row)  # the pair's second click
    await asyncio.sleep(0.5)
    assert "Say something" not in bob.text, bob.text
