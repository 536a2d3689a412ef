"""Chat lines pop up as toasts at the table, and a toast never covers the decision panel:
a player's choices and the note beside them, or what a spectator is told on that line."""

from __future__ import annotations

from diamant_tui.table import TableSettings
from test_ssh_chat_abuse import say

PROMPT = "Your turn: Continue or Exit?"


def note_lines(screen: str) -> list[str]:
    """The decision panel's two lines, just above the key bar."""
    return screen.splitlines()[-3:-1]


async def test_a_chat_toast_leaves_a_players_choices_and_note_in_sight(server, players, make_key):
    """bob's line pops up on ann's screen while her choice is due: her buttons and the
    note beside them stay whole under it, as does the key bar; and the toast takes two
    lines of the table (its title and the line), no blank ones."""
    server.lobby.create(TableSettings(name="den", seats=3, bots=("carry:20",)), "x")
    ann, bob = players("ann"), players("bob")
    for person in (ann, bob):
        await person.connect(server.port, key=make_key(), command="play den")
    for person in (ann, bob):
        await person.wait_for("Your turn")
    await say(bob, "hello there")
    screen = await ann.wait_for(lambda s: "bob: hello there" in s)
    assert "▌" not in "".join(note_lines(screen)), screen
    assert PROMPT in note_lines(screen)[0] and "Continue [c]" in note_lines(screen)[0], screen
    assert "c Continue  l Exit" in screen.splitlines()[-1], screen
    assert sum("▌" in line for line in screen.splitlines()) == 2, screen


async def test_why_a_spectators_line_is_refused_shows_whole_beside_a_toast(
        server, players, make_key):
    """A spectator who has used up their lines is told why on their note line, while a
    player's line stands in a toast: the toast stays above it, and the reason reads whole."""
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
    await vic.wait_for(lambda s: "ann: psst" in s)
    vic.press("t")  # a sixth line in 10 s: refused, and told why
    screen = await vic.wait_for(lambda s: "at most 5 lines every 10 s each" in "".join(
        note_lines(s)) and "ann: psst" in s)
    assert "▌" not in "".join(note_lines(screen)), screen
