"""The floor under a seat: each person's own Textual app, drawing the table as plain text.

``load.py --app floor`` gives every SSH session this app instead of the game's interface:
one widget of unstyled lines (the round bar, the path, the players, the deck, the
person's choice, the round's end and the final scores), drawn the plain Textual way (the
line API, a ``refresh`` of the lines that changed), and nothing else: no lobby, no CSS of
the game's, no buttons, no log. It sits at the same tables, gets the same updates from
them, over the same SSH server, and shows the load generator's people what they read
(``Round R/N · card C`` on the top line, ``Your turn``, ``Final scores``). So a run
measures what a seat costs when its app draws next to nothing: what every seat pays for
keeping a Textual app of its own (its messages, its frames, the SSH layer), under which
the game's interface cannot go while each seat keeps one. The process-wide changes the
game makes to how Textual gathers and sends a frame apply to it too (the server imports
the interface).

``--app floor-parts`` puts the same lines in a widget for each part of the table, laid out
as the game's table screen lays out its own: what the number of widgets costs, apart from
what they draw. ``--app floor-direct`` does the same with widgets that put themselves among
those their screen draws next when refreshed, as the game's do, without Textual's messages
in between.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from diamant_server.app import table_settings
from diamant_server.commands import CommandError, parse_command
from diamant_server.console import client_environment, configure_app
from diamant_server.lobby import Lobby
from rich.segment import Segment
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from diamant_tui.engine.errors import DiamantError
from diamant_tui.engine.view import Decision, Phase, PlayerView
from diamant_tui.table import TableStatus, TableUpdate
from diamant_tui.ui.widgets.direct_repaint import RepaintedDirectly

if TYPE_CHECKING:
    from diamant_server.session import GameSession

log = logging.getLogger("floor_app")


PARTS = ("bar", "path", "players", "deck", "banner", "decision", "keys")
"""The parts of the plain screen, top to bottom, named after those of the game's."""
KEYS = "c go on · l leave · r play again"


def plain_parts(table: str, update: TableUpdate) -> dict[str, tuple[str, ...]]:
    """What the plain screen shows of ``update`` at ``table``: the lines of each part."""
    view = update.view
    if view is None:
        seated = ", ".join(seat.name for seat in update.seats if seat.name) or "nobody"
        return {"path": (f"Table {table}: waiting ({seated})",)}
    players = []
    for player in view.players:
        mark = ">" if player.seat == view.seat else " "
        where = "cave" if player.in_cave else "camp"
        tick = "*" if player.decided else " "
        chest = "?" if player.chest is None else player.chest
        players.append(f"{mark} {player.name:<12} {where} {tick} carried {player.carried:>3}"
                       f"  chest {chest}")
    banner = []
    if view.phase is Phase.ROUND_OVER and view.round_results:
        banner.append(f"Round {view.round} of {view.rounds} is over")
    if update.status is TableStatus.FINISHED:
        # Once the table has finished (a moment after the last card): as the game's
        # screen, which takes a vote for a rematch from then on.
        scores = view.scores or ()
        banner.append("Final scores: " + ", ".join(
            f"{player.name} {score}" for player, score in zip(view.players, scores)))
    return {
        "bar": (f"Round {view.round}/{view.rounds} · card {view.step}",),
        "path": (f"Table {table}", "Path: " + " ".join(_card(place) for place in view.path)),
        "players": tuple(players),
        "deck": (f"Deck: {view.deck_size} cards",
                 "Hazards out: " + " ".join(h.name.lower() for h in view.hazards_removed)),
        "banner": tuple(banner),
        "decision": (_decision(view),),
        "keys": (KEYS,),
    }


def plain_lines(table: str, update: TableUpdate) -> tuple[str, ...]:
    """What the plain screen of one widget shows of ``update`` at ``table``, line by line:
    the parts one under the other (the round bar on the top line)."""
    parts = plain_parts(table, update)
    return tuple(line for part in PARTS for line in (*parts.get(part, ()), ""))


def _card(place) -> str:
    return f"{place.card.code}({place.rubies})" if place.rubies else place.card.code


def _decision(view: PlayerView) -> str:
    if view.decision_due:
        if view.my_decision is None:
            return "Your turn: c to go on, l to leave"
        return f"You chose: {view.my_decision.name.lower()}"
    me = view.me
    if me is not None and not me.in_cave:
        return "At camp"
    return ""


class PlainLines(Widget):
    """Lines of unstyled text, drawn through Textual's line API."""

    DEFAULT_CSS = "PlainLines { height: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: tuple[str, ...] = ()

    def show(self, lines: tuple[str, ...]) -> None:
        """Show ``lines`` from the top: a refresh of the lines that changed (a refresh of
        the whole widget would send the whole screen at every change)."""
        old, self.lines = self.lines, lines
        width = self.size.width
        changed = [Region(0, y, width, 1) for y in range(max(len(old), len(lines)))
                   if y >= len(old) or y >= len(lines) or old[y] != lines[y]]
        if changed:
            self.refresh(*changed)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        text = self.lines[y][:width] if y < len(self.lines) else ""
        return Strip([Segment(text.ljust(width))], width)


class DirectPlainLines(RepaintedDirectly, PlainLines):
    """Plain lines handed to their screen at once when refreshed, as the game's widgets
    are (:mod:`diamant_tui.ui.widgets.direct_repaint`)."""


class FloorApp(App[None]):
    """One person's app: takes a seat at the table the session's command names, shows
    it as :func:`plain_lines` in one widget (or, as any ``kind`` but ``floor``, each of
    :func:`plain_parts` in a widget of its own, laid out as the game's table screen lays
    out its parts), and passes ``c``, ``l`` and ``r`` to the table."""

    CSS = """
    #bar, #decision, #keys { height: 1; }
    #path { height: 1fr; }
    #middle, #players, #deck { height: 5; }
    #players { width: 1fr; }
    #deck { width: 26; }
    #banner { height: 2; }
    """

    class Updated(Message):
        """The table sent this app's member an update."""

        def __init__(self, update: TableUpdate) -> None:
            super().__init__()
            self.update = update

    def __init__(self, session: GameSession, lobby: Lobby, kind: str = "floor") -> None:
        super().__init__()
        self.parts = kind != "floor"
        self.direct = kind == "floor-direct"
        self._parts: list[tuple[PlainLines, str | None]] | None = None
        self.session = session
        self.lobby = lobby
        self.member = None
        self._unsubscribe = None
        configure_app(self, client_environment(session.term_type, session.environment),
                      log, session.id)

    @property
    def seated_in_a_game(self) -> bool:
        """As the game's server app says (the fair share of the loop reads it)."""
        return self.member is not None and self.member.seated_in_a_game

    def compose(self) -> ComposeResult:
        if not self.parts:
            yield PlainLines()
            return
        lines = DirectPlainLines if self.direct else PlainLines
        yield lines(id="bar")
        yield lines(id="path")
        with Horizontal(id="middle"):
            yield lines(id="players")
            yield lines(id="deck")
        for part in PARTS[4:]:
            yield lines(id=part)

    def on_mount(self) -> None:
        try:
            command = parse_command(self.session.command or "")
        except CommandError as exc:
            self.exit(message=f"floor app: {exc}")
            return
        if command.verb != "play":
            self.exit(message="floor app: only play TABLE [--seats N] [--bots N]")
            return
        identity = self.session.identity
        table = self.lobby.get(command.name)
        if table is None:
            # As the game's server app makes it (the load generator fills small tables
            # with computer players).
            table = self.lobby.create(
                table_settings(command, self.lobby.pace),
                creator=identity.key, owner=identity.person, session=self.session.id)
        self.member = table.sit(identity.name, identity.key)
        self.lobby.take_seat(self.member, self)
        self._unsubscribe = self.member.subscribe(
            lambda update: self.post_message(self.Updated(update)))

    def on_floor_app_updated(self, message: Updated) -> None:
        assert self.member is not None
        name = self.member.table.name
        if not self.parts:
            self.query_one(PlainLines).show(plain_lines(name, message.update))
            return
        parts = plain_parts(name, message.update)
        if self._parts is None:  # found once: a query at every update costs as much as a part
            self._parts = [(widget, widget.id) for widget in self.query(PlainLines)]
        for widget, part in self._parts:
            widget.show(parts.get(part, ()))

    def on_key(self, event: events.Key) -> None:
        member = self.member
        if member is None:
            return
        try:
            if event.key == "c":
                member.decide(Decision.CONTINUE)
            elif event.key == "l":
                member.decide(Decision.LEAVE)
            elif event.key == "r":
                member.vote_rematch()
        except DiamantError:
            pass  # a key at the wrong moment: the people of the benchmark never mean it

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.member is not None:
            self.lobby.release(self.member, self)


def floor_factory(kind: str):
    """What the server calls with its lobby for the function its sessions call to build
    their app: a :class:`FloorApp` of ``kind``, one of ``load_server.FLOOR_APPS``
    (``floor``: one widget; ``floor-parts``: a widget for each part; ``floor-direct``:
    those widgets handed to their screen as the game's are)."""
    return lambda lobby: lambda session: FloorApp(session, lobby, kind)
