"""Whole games over real SSH connections, read from each player's terminal screen."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import pytest
from textual.pilot import Pilot

from diamant_tui.table import TableSettings, TableStatus
from diamant_tui.engine.view import Decision
from conftest import TEST_CONFIG
from harness import Player
from diamant_server.server import GameServer
from diamant_server.session import GameSession

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


async def test_settle_draws_each_screen_with_its_own_app_active(server, players, make_key,
                                                                sent, monkeypatch):
    """The helper draws each screen as its app's own loop would: with that app active.
    It drew from the test's task, where no app is, and the rules laid out there failed
    (their text is measured through the active app): the app ended, now and then, in
    the middle of a test."""
    from textual._context import active_app
    from textual.screen import Screen

    drawn_with: list[tuple[object, object]] = []
    timer_update = Screen._on_timer_update

    def recorded(screen: Screen) -> None:
        drawn_with.append((screen.app, active_app.get(None)))
        timer_update(screen)

    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3")
    await bob.connect(server.port, key=make_key(), command="play den --seats 3")
    await ann.wait_for("waiting for players")
    await bob.wait_for("waiting for players")
    monkeypatch.setattr(Screen, "_on_timer_update", recorded)
    await settle(server, sent, ann, bob)
    assert drawn_with and all(active is app for app, active in drawn_with), drawn_with
    assert len({app for app, _ in drawn_with}) == 2


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


@pytest.fixture
def sent(monkeypatch) -> dict[GameSession, int]:
    """Bytes each session has sent to its client so far."""
    counts: dict[GameSession, int] = {}
    send = GameSession.send

    def counted(session: GameSession, data: bytes) -> bool:
        written = send(session, data)
        if written:
            counts[session] = counts.get(session, 0) + len(data)
        return written

    monkeypatch.setattr(GameSession, "send", counted)
    return counts


async def settle(server, sent: dict[GameSession, int], *people: Player) -> None:
    """Wait until the screens of ``people`` have settled: their apps on the server are
    idle, each client has every byte its session sent, and nothing more comes."""
    newest = sorted(server.sessions, key=lambda s: int(s.id[1:]))
    sessions = {s.identity.name: s for s in newest}  # a name's latest session is theirs
    mine = {p.name: sessions[p.name] for p in people}
    while True:
        before = {name: sent.get(session, 0) for name, session in mine.items()}
        for session in mine.values():
            app = session.app
            # Pilot's pause draws the screen from the caller's task. A test's task has no
            # active app (every session's app runs in a task of its own), and a screen
            # laid out there (the rules' text is measured through the active app) made
            # the app fail now and then. Drawn with its own app active, as by its loop.
            with app._context():
                await Pilot(app).pause()
        for person in people:
            await person.wait_for(
                lambda _, p=person: len(p.raw) == sent.get(mine[p.name], 0))
        if {name: sent.get(session, 0) for name, session in mine.items()} == before:
            return


async def pending_choice_as_seen(data_dir, players, make_key, sent, choice: Decision) -> dict:
    """On a server of its own, ann chooses ``choice``; what bob, cy and sam (watching)
    were sent from just before she chose until their screens settled, and their screens
    just before she chose and once settled."""
    server = GameServer(replace(TEST_CONFIG, data_dir=data_dir))
    await server.start()
    try:
        server.lobby.create(TableSettings(name="quiet", seats=3, bots=(), seed=7, pace=0.02),
                            "test")
        ann, bob, cy, sam = players("ann"), players("bob"), players("cy"), players("sam")
        for person in (ann, bob, cy):
            await person.connect(server.port, key=make_key(), command="play quiet")
        await sam.connect(server.port, key=make_key(), command="watch quiet")
        for person in (ann, bob, cy):
            await person.wait_for("Your turn")
        others = (bob, cy, sam)
        await sam.wait_for(lambda t: re.search(r"ann .*…", t) is not None)
        await settle(server, sent, ann, *others)
        marks = {p.name: len(p.raw) for p in others}
        before = {p.name: p.cells for p in others}
        ann.press(choice.value[0])
        await ann.wait_for("You chose")
        for other in others:
            # The others learn that ann has decided (a mark in her row), never what.
            await other.wait_for(lambda t: re.search(r"ann .*✓", t) is not None)
        await settle(server, sent, ann, *others)
        seen = {p.name: (bytes(p.raw[marks[p.name]:]), before[p.name], p.cells) for p in others}
        bob.press("c")
        cy.press("c")
        # After the reveal everyone sees who went back to camp.
        if choice is Decision.LEAVE:
            await sam.wait_for(lambda t: re.search(r"ann +Camp", t) is not None)
        for person in (ann, bob, cy, sam):
            await person.close()
        return seen
    finally:
        await server.stop()


async def test_a_decision_stays_private_until_the_reveal(tmp_path, players, make_key, sent):
    """While one player has chosen, the others and a spectator are sent nothing of that
    choice: once their screens have settled, the bytes they were sent since she chose,
    and their whole screens (text and colours), are the same whether she chose to
    continue or to leave.

    Two runs are compared only when each screen was the same in both just before she
    chose. The last to sit down may see the first card as a newcomer does (both lines in
    the banner) or as it is turned (the round's first line under the path), as its
    screen starts listening before or after that card. How Textual cuts its output into
    frames depends on when the loop gets to it, so two runs can also differ by a cursor
    move with nothing drawn after it. A leak is in every pair of runs, timing noise is
    not: one pair of the few must be alike in bytes and screens."""
    mismatches = []
    for attempt in range(4):
        seen = {choice: await pending_choice_as_seen(tmp_path / f"{choice.value}{attempt}",
                                                     players, make_key, sent, choice)
                for choice in (Decision.LEAVE, Decision.CONTINUE)}
        leave, stay = seen[Decision.LEAVE], seen[Decision.CONTINUE]
        if any(leave[name][1] != stay[name][1] for name in leave):
            mismatches.append("the screens differed before she chose")
            continue
        differ = []
        for name in ("bob", "cy", "sam"):
            leave_bytes, _, leave_screen = leave[name]
            stay_bytes, _, stay_screen = stay[name]
            assert leave_bytes, f"{name} was told that ann decided"
            assert leave_screen == stay_screen, name
            if leave_bytes != stay_bytes:
                differ.append((name, leave_bytes[:600], stay_bytes[:600]))
        if not differ:
            return
        mismatches.append(differ)
    raise AssertionError(mismatches)


def key_bar(person: Player) -> str:
    """The key bar: the screen's last line."""
    return person.text.splitlines()[-1]


async def test_q_at_a_table_is_named_for_the_lobby_it_leads_back_to(server, players, make_key):
    """On a server, q at a table takes a player (waiting, playing, at the final scores)
    and a spectator back to the lobby: the key bar and the final scores' button say so.
    They said "Quit", under a spectator's "q back to the lobby"."""
    ann, bob = players("ann"), players("bob")
    await ann.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("waiting for players")
    assert "q Lobby" in key_bar(ann) and "Quit" not in key_bar(ann)
    sofia = players("sofia")
    await sofia.connect(server.port, key=make_key(), command="watch den",
                        env={"LANG": "es_ES.UTF-8"})
    await sofia.wait_for("q volver a la sala")
    assert "q Sala" in key_bar(sofia) and "Salir" not in key_bar(sofia)
    await bob.connect(server.port, key=make_key(), command="play den --seats 3 --bots 1")
    await ann.wait_for("Your turn")
    assert "q Lobby" in key_bar(ann) and "Quit" not in key_bar(ann)
    finals = await asyncio.gather(play_to_the_end(ann), play_to_the_end(bob))
    assert "Lobby [q]" in finals[0] and "Quit" not in finals[0]
    assert "q Lobby" in key_bar(ann) and "Quit" not in key_bar(ann)
    text = await sofia.wait_for("Puntuación final")
    assert "q Sala" in key_bar(sofia) and "Salir" not in text
    for person in (ann, sofia):
        person.press("q")
    await ann.wait_for("the lobby")
    await sofia.wait_for("Diamant por SSH ◆ la sala")
