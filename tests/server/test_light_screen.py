"""The load generator's light screen reads a real game's output as pyte does."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pyte

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from light_screen import LightScreen  # noqa: E402
from test_ssh_game import play_to_the_end  # noqa: E402


async def test_the_light_screen_reads_every_step_of_a_game_as_pyte_does(server, players, make_key):
    """Three people play a whole game over SSH; what each was sent, fed again in small
    pieces (cutting escape sequences and characters), reads the same on the light screen
    as on pyte after every piece."""
    people = [players(name) for name in ("ann", "bob", "cy")]
    for person in people:
        await person.connect(server.port, key=make_key(), command="play light --seats 3 --bots 0")
    await asyncio.gather(*(play_to_the_end(p, key) for p, key in zip(people, "ccl")))
    for person in people:
        sent = bytes(person.raw)
        assert b"\x1b[" in sent and len(sent) > 10_000
        exact = pyte.Screen(80, 24)
        stream = pyte.ByteStream(exact)
        light = LightScreen(80, 24)
        for start in range(0, len(sent), 61):
            piece = sent[start:start + 61]
            stream.feed(piece)
            light.feed(piece)
            assert light.display == exact.display, (person.name, start)
        assert "Final scores" in "\n".join(light.display)


def test_an_escape_sequence_cut_anywhere_reads_as_pyte_reads_it():
    """A link (OSC 8), a colour and a cursor move, cut at every byte between two pieces
    (an OSC can be cut just before its ``ESC \\`` end): the same text as pyte's."""
    sent = ("\x1b[2;5H\x1b[1;38;2;255;0;0mab\x1b[0m"
            "\x1b]8;id=1;https://example.org\x1b\\link\x1b]8;;\x1b\\ ♦é\x1b[3;1Hz").encode()
    for cut in range(len(sent) + 1):
        exact = pyte.Screen(20, 4)
        stream = pyte.ByteStream(exact)
        light = LightScreen(20, 4)
        for piece in (sent[:cut], sent[cut:]):
            stream.feed(piece)
            light.feed(piece)
        assert light.display == exact.display, cut
