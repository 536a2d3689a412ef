"""Chat lines at the table are read under the path, over SSH as a person sees them: they
cover nothing of the table (the player list, the banner, a player's choices and the note
beside them, or what a spectator is told on that line)."""

from __future__ import annotations

from diamant_tui.table import TableSettings
from test_ssh_chat_abuse import say

PROMPT = "Your turn: Continue or Exit?"
RULE = "─" * 80


def note_lines(screen: str) -> list[str]:
    """The decision panel's two lines, just above the key bar."""
    return screen.splitlines()[-3:-1]


def above_the_players(screen: str) -> list[str]:
    """The cave's lines: from under the round bar to the rule above the player list."""
    lines = screen.splitlines()
    return lines[1:next(n for n, line in enumerate(lines) if line.startswith(RULE))]


async def test_a_chat_line_is_read_under_the_path_and_leaves_the_table_in_sight(
        server, players, make_key):
    """bob's line shows on ann's screen, under the cards, while her choice is due: her
    buttons and the note beside them stay whole, as do the player list and the key bar;
    no toast stands over any of them."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
    ann, bob = players("ann"), players("bob")
    for person in (ann, bob):
        await person.connect(server.port, key=make_key(), command="play den")
    for person in (ann, bob):
        await person.wait_for("Your turn")
    await say(bob, "hello there")
    screen = await ann.wait_for(lambda s: "» bob: hello there" in "".join(above_the_players(s)))
    assert "▌" not in screen, screen
    assert PROMPT in note_lines(screen)[0] and "Continue [c]" in note_lines(screen)[0], screen
    assert "c Continue  l Exit" in screen.splitlines()[-1], screen
    assert all(name in screen for name in ("ann ", "bob ")), screen


async def test_why_a_spectators_line_is_refused_shows_whole_beside_a_players_line(
        server, players, make_key):
    """A spectator who has used up their lines is told why on their note line, while a
    player's line shows under the path: the reason reads whole, nothing over it."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
    ann, bob, vic = players("ann"), players("bob"), players("vic")
    for person in (ann, bob):
        await person.connect(server.port, key=make_key(), command="play den")
    for person in (ann, bob):
        await person.wait_for("Your turn")
    await vic.connect(server.port, key=make_key(), command="watch den")
    await vic.wait_for("You are watching")
    for n in range(5):
        assert await say(vic, f"line {n}") is None
    await say(ann, "psst")
    await vic.wait_for(lambda s: "» ann: psst" in "".join(above_the_players(s)))
    vic.press("t")  # a sixth line in 10 s: refused, and told why
    screen = await vic.wait_for(lambda s: "at most 5 lines every 10 s each" in "".join(
        note_lines(s)) and "ann: psst" in s)
    assert "▌" not in screen, screen
