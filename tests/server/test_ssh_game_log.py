"""The game log of people at a table over real SSH: each line of the game once, in order."""

from __future__ import annotations

import asyncio

from diamant_server.server import GameServer

from diamant_tui.i18n import Translator


def log_lines(server: GameServer, name: str) -> list[str]:
    """The lines of the game log on ``name``'s table screen, as its app wrote them (the
    log's widget is made only once opened; until then the screen keeps its lines)."""
    (session,) = [s for s in server.sessions if s.identity.name == name]
    kept = session.app.screen._log
    if kept.widget is None:
        return list(kept._lines)
    return [strip.text for strip in kept.widget.lines]


async def test_who_fills_the_last_seat_reads_the_first_round_begin_once(server, players,
                                                                         make_key, monkeypatch):
    """The person whose arrival starts the game reads "Round 1 begins" once in the log, as
    everyone else does. The first card waits for the table to be saved: held here until
    that person's screen shows the game, as a slow disk would, they arrive between the
    game's start and its first card."""
    storage = server.storage
    save_table = storage.save_table
    arrived = asyncio.Event()

    async def slow_once_playing(table_id, name, settings, snapshot):
        if snapshot["table"]["status"] == "playing":
            await arrived.wait()
        await save_table(table_id, name, settings, snapshot)

    monkeypatch.setattr(storage, "save_table", slow_once_playing)
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("waiting for players")
    await bob.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await bob.wait_for("Round 1/5")
    arrived.set()
    for person in (ann, bob):
        await person.wait_for("Your turn")
    begins = Translator("en")("event.round_started", round=1)
    for person in ("ann", "bob"):
        lines = log_lines(server, person)
        assert lines.count(begins) == 1, (person, lines)
        assert len(lines) >= 2, (person, lines)  # and the first card after it
        assert lines.index(begins) == 0, (person, lines)
