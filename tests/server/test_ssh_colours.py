"""Colours over SSH follow each client's terminal: none at all with NO_COLOR, the
terminal's own 16 colours on a 16-colour terminal."""

from __future__ import annotations

import re

from diamant_tui.table import TableSettings

SGR = re.compile(rb"\x1b\[([0-9;:]*)m")
COLOUR_PARAMS = {*range(30, 38), *range(40, 48), *range(90, 98), *range(100, 108), 38, 48}
REVERSE = 7
TURN = re.compile(r"Round \d/5 · card \d+")


def sgr_params(raw: bytes) -> set[int]:
    """Every SGR parameter the bytes use (the numbers inside ``ESC [ ... m``)."""
    found: set[int] = set()
    for params in SGR.findall(raw):
        found.update(int(p) for p in re.split(rb"[;:]", params) if p)
    return found


def reversed_text(player, words: str) -> bool:
    """Whether ``words`` show on the screen, every cell of them in reverse video."""
    for y, line in enumerate(player.screen.display):
        x = line.find(words)
        if x >= 0:
            return all(player.screen.buffer[y][x + i].reverse for i in range(len(words)))
    return False


def colours_of(player, border: str) -> set[str]:
    """The foreground colours pyte saw on the cells that show ``border``."""
    return {cell.fg for row in player.screen.buffer.values() for cell in row.values()
            if cell.data == border}


async def test_no_color_sends_no_colour_codes_and_keeps_the_focus_visible(
        server, players, make_key):
    """NO_COLOR from the client (OpenSSH sends it with SetEnv NO_COLOR=1): from the lobby
    to the cave, not one colour code; the chosen button still stands out in reverse video."""
    server.lobby.create(TableSettings(name="plain", seats=3, bots=("carry:20",) * 2, seed=3,
                                      pace=0.02), "test")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), term_type="xterm-256color",
                      env={"NO_COLOR": "1"})
    await ann.wait_for("lobby")
    # The cursor row shows in reverse video once the list has the focus (a frame later).
    await ann.wait_for(lambda text: reversed_text(ann, "plain"))
    lobby = bytes(ann.raw)
    ann.press("enter")  # join the table under the cursor
    await ann.wait_for("Your turn")
    # The focused choice shows in reverse video (the focus moves there just after).
    await ann.wait_for(lambda text: reversed_text(ann, "Continue [c]"))
    ann.press("l")
    await ann.wait_for("Round 2/5")
    params = sgr_params(bytes(ann.raw))
    assert not params & COLOUR_PARAMS, sorted(params & COLOUR_PARAMS)
    assert REVERSE in sgr_params(lobby), "the lobby's cursor row is in reverse video"


async def test_sixteen_colours_draw_treasure_in_yellow_and_hazards_in_red(
        server, players, make_key):
    """A 16-colour terminal gets its own ANSI colours: treasure cards yellow (pyte calls
    SGR 33 "brown"), hazards red, and no bright red anywhere."""
    server.lobby.create(TableSettings(name="ansi", seats=3, bots=("cards:40",) * 2, seed=2,
                                      pace=0.02), "test")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), term_type="xterm", command="play ansi")
    answered = None
    while True:
        text = await ann.wait_for(lambda t: "Your turn" in t and TURN.search(t)[0] != answered)
        if "╭" in text and "╔" in text:
            break
        answered = TURN.search(text)[0]
        ann.press("c")
    assert colours_of(ann, "╭") == {"brown"}, "treasure cards"
    assert colours_of(ann, "╔") == {"red"}, "hazard cards"
    params = sgr_params(bytes(ann.raw))
    assert 91 not in params and 38 not in params


async def test_sixteen_colours_show_the_lobby_s_chosen_row_in_reverse_video(
        server, players, make_key):
    """TERM=xterm: the chosen table stands out in reverse video, in the terminal's own
    two colours, as it does without colour. Drawn black on the palette's white, it all
    but vanished on a light terminal (whose background is white, or near it, too)."""
    server.lobby.create(TableSettings(name="light", seats=3, bots=("carry:20",), seed=3,
                                      pace=0.02), "test")
    ann = players("ann")
    await ann.connect(server.port, key=make_key(), term_type="xterm")
    await ann.wait_for("lobby")
    await ann.wait_for(lambda text: reversed_text(ann, "light"))
    for y, line in enumerate(ann.screen.display):
        if "light" in line:
            assert {cell.bg for cell in ann.screen.buffer[y].values()} <= {"default"}, line
