"""Quick typing over SSH: keys that come together in one packet act in the order typed."""

from __future__ import annotations

import re


def field(text: str, label: str) -> str:
    """What the text box after ``label`` holds on the screen."""
    line = next(line for line in text.splitlines() if label in line)
    return line.split(label, 1)[1].split()[0]


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
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play cave --seats 3 --bots 1")
    await bob.connect(server.port, key=make_key(), command="play cave")
    for person in (ann, bob):
        await person.wait_for("Your turn")
    ann.press("t")
    await ann.wait_for("Say something")
    ann.send(b"hellp\x7fo wrld\x1b[D\x1b[D\x1b[Do\r")
    await bob.wait_for(re.escape("ann: hello world"))
