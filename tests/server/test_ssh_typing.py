"""Quick typing over SSH: keys that come together in one packet act in the order typed."""

from __future__ import annotations

import asyncio
import re

from diamant_tui.table import CHAT_MAX_CHARS

TURN = re.compile(r"Round \d/5 · card \d+")


def field(text: str, label: str) -> str:
    """What the text box after ``label`` holds on the screen."""
    line = next(line for line in text.splitlines() if label in line)
    return line.split(label, 1)[1].split()[0]


async def two_at_cave(server, players, make_key):
    """ann and bob at table ``cave`` (three seats, one a computer player's), their first
    turn on both screens."""
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 1")
    await bob.connect(server.port, key=make_key(), command="play cave")
    for person in (ann, bob):
        await person.wait_for("Your turn")
    return ann, bob


async def test_editing_keys_typed_with_letters_act_in_their_place(server, players, make_key):
    """Backspace, Delete and the arrows sent in one packet with the letters around them
    (quick typing over a slow link): the box ends as if each key had come alone. Before,
    a letter typed just after an editing key was inserted ahead of it, so that Backspace
    then ``x`` changed nothing."""
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    await ann.wait_for("lobby")
    ann.press("n")
    await ann.wait_for("Open a table")
    ann.type("abc")
    await ann.wait_for(r"Name +abc ")
    for sent, shown in ((b"\x7fx", "abx"),             # Backspace, then a letter
                        (b"x\x7f\x7fy", "aby"),        # a letter, two Backspaces, a letter
                        (b"\x1b[Dz", "abzy"),          # Left, then a letter
                        (b"\x1b[H\x1b[3~q", "qbzy")):  # Home, Delete, then a letter
        ann.send(sent)
        await ann.wait_for(lambda text, shown=shown: field(text, "Name") == shown)


async def test_a_chat_line_typed_quickly_with_corrections_goes_out_as_typed(
        server, players, make_key):
    """A chat line typed with a slip mended at once (Backspace, the arrows) reaches the
    others as the person meant it, though its keys came in one packet."""
    ann, bob = await two_at_cave(server, players, make_key)
    ann.press("t")
    await ann.wait_for("Say something")
    ann.send(b"hellp\x7fo wrld\x1b[D\x1b[D\x1b[Do\r")
    await bob.wait_for(re.escape("ann: hello world"))


async def test_letters_typed_with_the_chat_key_go_into_the_box_never_to_the_game(
        server, players, make_key):
    """``t`` and a line typed at once (one packet): the letters go into the chat box,
    and none acts on the game: the ``l`` of "hello" does not choose Exit during a turn,
    and the ``q`` of "quit" does not leave the table at the final scores."""
    ann, bob = await two_at_cave(server, players, make_key)
    table = server.lobby.get("cave")
    seat = next(s.seat for s in table.seats if s.name == "ann")
    ann.send(b"thello \x1b[D\r")
    await bob.wait_for(re.escape("ann: hello"))
    assert table.game.view_for(seat).my_decision is None, "a letter decided"
    answered = None
    while True:  # both leave at every turn: a short game
        text = await ann.wait_for(lambda t: "Final scores" in t or (
            "Your turn" in t and TURN.search(t)[0] != answered), timeout=60)
        if "Final scores" in text:
            break
        answered = TURN.search(text)[0]
        for person in (ann, bob):
            person.press("l")
    ann.send(b"tquit")
    # The box (the line above the key bar) holds the word; the person is at the table still.
    await ann.wait_for(lambda t: "quit" in t.splitlines()[-2][:40], timeout=10)
    await asyncio.sleep(0.3)
    assert "Final scores" in ann.text and not ann.closed.is_set()
    assert table.seats[seat].connected and table.seats[seat].name == "ann"


async def test_a_whole_chat_line_typed_in_one_go_reaches_the_table(server, players, make_key):
    """A terminal without bracketed paste, or a quick paste, sends a chat line as keys,
    all at once: ``t``, the line and Enter in one write reach the table whole, for a line
    of 150 characters and one of the longest a chat line may be. No key of it is dropped
    as a flood (before, the keys past the first 100 were, silently)."""
    ann, bob = await two_at_cave(server, players, make_key)
    table = server.lobby.get("cave")
    said = {person.name: "".join(f"{n:03d}{person.name}," for n in range(40))[:length]
            for person, length in ((ann, 150), (bob, CHAT_MAX_CHARS))}
    for person in (ann, bob):
        person.send(b"t" + said[person.name].encode() + b"\r")
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while {line.author: line.text for line in table._chat} != said:
        assert loop.time() < end, [(line.author, line.text) for line in table._chat]
        await asyncio.sleep(0.05)
    screen = await ann.wait_for(lambda text: "Say something" not in text)
    assert "Keys are arriving faster" not in screen
    # Far more keys at once than a line (a long text pasted without bracketed paste): the
    # person is told that keys are being ignored; what stayed in the box is not sent.
    ann.send(b"t" + b"x" * 1000 + b"\r")
    await ann.wait_for("Keys are arriving faster")
    assert len(list(table._chat)) == 2


async def test_chat_lines_typed_one_after_the_other_in_one_go_all_reach_the_table(
        server, players, make_key):
    """Two or three chat lines typed quickly (``t``, a line, Enter, ``t`` again...) over a
    slow link reach the table in one packet: each line is said, in order, and no key of
    them acts on the game, for a player as for a spectator. Before, the keys after an
    Enter went into the box before the line was sent, and each line was said with the
    ones after it ("go on 1tgo on 2"); with the keys a little apart, the Continue
    button took the focus a moment after the box closed, over the box the next ``t``
    had opened: that line's letters went to the game and its Enter chose Continue."""
    ann, bob = await two_at_cave(server, players, make_key)
    yuri = players("yuri")
    await yuri.connect(server.port, key=make_key(), command="watch cave")
    await yuri.wait_for("You are watching")
    table = server.lobby.get("cave")
    seat = next(s.seat for s in table.seats if s.name == "ann")
    ann.send(b"tgo on 1\rtgo on 2\rt\x1b[200~go on 3\x1b[201~\r")  # the last one pasted
    yuri.send(b"tfirst\rtsecond\rtthird\r")
    expected = [("ann", f"go on {n}") for n in (1, 2, 3)]
    expected += [("yuri", word) for word in ("first", "second", "third")]
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while sorted((line.author, line.text) for line in table._chat) != expected:
        assert loop.time() < end, [(line.author, line.text) for line in table._chat]
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    assert table.game.view_for(seat).my_decision is None, "a key of the chat decided"
    assert "Log" not in ann.text.splitlines()[0], "a key of the chat opened the log"


async def test_keys_typed_before_the_app_is_made_are_not_lost(server, players, make_key,
                                                            monkeypatch):
    """The app is made once the server has read the language its person chose (here a
    slow read): a person who types as soon as they are connected (n, to open a table)
    gets what they typed, in order, once the lobby is there."""
    read = server.lobby.chosen_language

    async def slow(identity):
        await asyncio.sleep(0.5)
        return await read(identity)

    monkeypatch.setattr(server.lobby, "chosen_language", slow)
    ann = players("ann")
    await ann.connect(server.port, key=make_key())
    ann.press("n")
    await ann.wait_for("Open a table")
