"""Resume codes: typed fast, guessed, expired, and a seat taken over with one."""

from __future__ import annotations

import asyncio
import logging
import re

from diamant_tui.table import TableSettings, TableStatus
from diamant_server.server import GameServer
from diamant_tui.ui.screens.waiting_questions import READ_FIRST

CODE = re.compile(r"resume code is ([A-Z0-9]{6})")


def toasts(screen: str) -> str:
    """The text of the toasts on ``screen`` (right of their edge, ▌), without whitespace:
    toasts wrap their lines."""
    return "".join("".join(line.rsplit("▌", 1)[1].split())
                   for line in screen.splitlines() if "▌" in line)


async def test_typing_resume_codes_fast_does_not_crash_the_session(server, players, make_key):
    """Enter pressed three times at once: the dialog closes once, the session lives on."""
    server.lobby.create(TableSettings(name="fast", seats=3, bots=("carry:20",) * 2, seed=5,
                                      pace=0.5), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play fast")
    code = CODE.search(await guest.wait_for(CODE.pattern))[1]
    await guest.close()

    back = players("someone")
    await back.connect(server.port)
    await back.wait_for("lobby")
    # A person hammering the keys: Enter pressed again before the dialog has closed.
    back.press("r")
    await back.wait_for("Your resume code")
    back.type(code)
    await back.wait_for(code)
    back.press("enter", "enter", "enter")
    await back.wait_for(r"▶ gus")
    back.press("g")  # the session still answers keys
    await back.wait_for(r"▶ gus")
    assert not back.closed.is_set()
    assert b"something went wrong" not in back.raw


async def wait_until(test, timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds on the server side."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        assert loop.time() < end, "the server never reached the expected state"
        await asyncio.sleep(0.05)


async def test_a_resume_code_expires_when_its_game_ends(server, players):
    """Once the game is over the code gives nothing: whoever finds it later is told so."""
    table = server.lobby.create(TableSettings(name="short", seats=3, bots=("carry:20",) * 2,
                                              seed=5, pace=0.02), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play short")
    code = CODE.search(await guest.wait_for(CODE.pattern))[1]
    identity = server.lobby.identity_for_code(code, "127.0.0.1")
    await guest.close()  # a computer plays the seat to the end, quickly
    await wait_until(lambda: table.status is TableStatus.FINISHED)
    assert server.lobby.code_of(identity) is None
    late = players("late")
    await late.connect(server.port, command=f"resume {code}")
    await late.wait_for(lambda screen: f"Noseatiswaitingforthecode{code}" in toasts(screen))


async def test_a_guest_keeps_their_code_for_a_rematch(server, players):
    """The code lasts while the guest is at the final scores and into the rematch they
    play: the one told at the first game's start gives the seat back from a new
    connection during the rematch (no second code to note down)."""
    table = server.lobby.create(TableSettings(name="again", seats=3, bots=("carry:20",) * 2,
                                              seed=5, pace=0.02), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play again")
    first = CODE.search(await guest.wait_for(CODE.pattern))[1]
    identity = server.lobby.identity_for_code(first, "127.0.0.1")
    await guest.press_until("l", "Rematch", timeout=60)  # back to camp at every first card
    await wait_until(lambda: table.status is TableStatus.FINISHED)
    assert server.lobby.code_of(identity) == first
    guest.press("r")  # the only person at the table: the rematch starts at once
    await wait_until(lambda: table.status is TableStatus.PLAYING)
    assert server.lobby.code_of(identity) == first
    await guest.wait_for(lambda screen: "Round" in screen and "gus" in screen)
    await guest.close()
    back = players("gus")
    await back.connect(server.port, command=f"resume {first}")
    await back.wait_for(lambda screen: "Round" in screen and "gus" in screen)
    assert table.seat_of(identity) is not None
    await back.close()


async def test_a_resume_code_expires_when_the_seat_is_given_up(server, players):
    """A guest who leaves a table still waiting for players frees the seat: no code left."""
    server.lobby.create(TableSettings(name="wait", seats=3), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play wait")
    code = CODE.search(await guest.wait_for(CODE.pattern))[1]
    assert server.lobby._codes.get(code) is not None
    guest.press("q")
    await guest.wait_for("q or Enter: leave")  # asked first: the seat would go
    await asyncio.sleep(READ_FIRST)
    guest.press("q")
    await guest.wait_for("lobby")
    await wait_until(lambda: code not in server.lobby._codes)


async def test_wrong_resume_codes_are_counted_per_address_and_logged(
        tmp_path, players, caplog):
    """Past the allowance of wrong codes, an address must wait, even with a right code;
    each wrong code is logged (without the code); another address is not held up."""
    from dataclasses import replace

    from conftest import TEST_CONFIG

    server = GameServer(replace(TEST_CONFIG, data_dir=tmp_path, resume_guesses=3))
    await server.start()
    try:
        server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2, seed=5,
                                          pace=0.5), "test")
        guest = players("gus")
        await guest.connect(server.port, command="play den")
        code = CODE.search(await guest.wait_for(CODE.pattern))[1]
        guesser = players("eve")
        await guesser.connect(server.port)
        await guesser.wait_for("lobby")
        with caplog.at_level(logging.INFO, logger="diamant_server.lobby"):
            for guess in ("AAAAAA", "BBBBBB", "[b]CCC"):
                guesser.press("r")
                await guesser.wait_for("Your resume code")
                guesser.type(guess)
                guesser.press("enter")
                # On the lobby's note line, each in its turn (typed text shown as typed).
                said = f"No seat is waiting for the code {guess}: check it"
                await guesser.wait_for(lambda screen, said=said: said in screen)
            guesser.press("r")
            await guesser.wait_for("Your resume code")
            guesser.type(code)  # right, but too late: the address must wait
            guesser.press("enter")
            await guesser.wait_for(lambda screen: re.search(
                r"Too many wrong resume codes from your address: try again in \d+ s", screen))
        assert server.lobby.seat_of(server.lobby._codes[code]) is not None
        assert guesser.closed.is_set() is False
        wrong = [r.getMessage() for r in caplog.records if "wrong resume code" in r.getMessage()]
        # Each wrong code is logged, never the code (one letter off is most of a code).
        assert len(wrong) == 3 and not any("[b]CCC" in line for line in wrong)
        assert any("resume code from 127.0.0.1 refused" in r.getMessage() for r in caplog.records)
        # Another address still may: the count is the guessing address's own.
        assert server.lobby.identity_for_code(code, "127.0.0.2") is not None
    finally:
        await server.stop()


async def test_taking_a_seat_back_with_its_code_tells_the_connection_that_held_it(
        server, players):
    """The old connection is closed with a line saying its seat was taken with the code."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",) * 2, seed=5,
                                      pace=0.5), "test")
    guest = players("gus")
    await guest.connect(server.port, command="play den")
    code = CODE.search(await guest.wait_for(CODE.pattern))[1]
    other = players("someone")
    await other.connect(server.port, command=f"resume {code}")
    await other.wait_for(r"▶ gus")
    await guest.wait_closed()
    assert b"Your seat was taken back with your resume code from another connection" in guest.raw
