"""The end of the game: ranking with shared places, per-round results, a chart, and the
rematch vote: each person asks with ``r``, and the table starts again once all agree."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Button, Label

from ...engine.errors import DiamantError
from ...table import Member, TableUpdate
from ...engine.view import PlayerView
from ..messages import LeaveTable
from ..widgets.key_bar import KeyBar
from ..widgets.score_table import ScoreTable
from .base import DiamantScreen


class FinalScreen(DiamantScreen):
    """Final scores; ``r`` asks for a rematch (players only), ``q`` leaves the table."""

    BINDINGS = [
        Binding("r", "rematch", "key.rematch"),
        Binding("q", "leave", "key.quit"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    votes: reactive[TableUpdate | None] = reactive(None, init=False)
    """The table's latest update, for who has asked for a rematch."""

    def __init__(self, view: PlayerView, member: Member | None = None) -> None:
        super().__init__()
        self.view = view
        self.member = member
        self._built = False

    @property
    def may_vote(self) -> bool:
        """A player at a table (not a spectator, not a game without a table)."""
        return self.member is not None and not self.member.watching

    def compose(self) -> ComposeResult:
        t = self.app.t
        view = self.view
        names = [view.players[s].name for s in view.winners]
        key = "final.winner" if len(names) == 1 else "final.winners"
        with Vertical(id="final-box"):
            yield Label(t("final.title"), classes="dialog-title")
            # Plain content: people's names and "[r]" must not be read as markup.
            yield Label(Content("★ " + t(key, names=", ".join(names))), id="final-winners")
            yield ScoreTable(id="final-scores")
            if self.member is not None:
                yield Label(Content(""), id="final-note")
                yield Label(Content(""), id="final-votes")
            with Horizontal(classes="dialog-buttons"):
                if self.may_vote:
                    yield Button(Content(t("final.rematch")), id="rematch", compact=True)
                yield Button(Content(t("final.quit")), id="quit", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        if self not in self.app.screen_stack:
            return  # closed before it was built (a rematch began at once): nothing to show
        self.query_one(ScoreTable).view = self.view
        self.query_one("#rematch" if self.may_vote else "#quit").focus()
        self._built = True
        self._show_votes(self.votes)

    def watch_votes(self, update: TableUpdate | None) -> None:
        if self._built:
            self._show_votes(update)

    def _show_votes(self, update: TableUpdate | None) -> None:
        if update is None or self.member is None:
            return
        t = self.app.t
        voters = sorted(update.rematch_voters | update.rematch_votes)
        marks = ", ".join(
            f"{update.seats[s].name} {'✓' if s in update.rematch_votes else '…'}" for s in voters)
        if self.member.watching:
            note = t("final.watching")
        elif self.member.seat in update.rematch_votes:
            note = t("final.voted")
        else:
            note = t("final.vote_hint")
        # Fixed-size lines: new words need no new layout.
        self.query_one("#final-note", Label).update(Content(note), layout=False)
        votes = t("final.votes", votes=marks) if marks else ""
        self.query_one("#final-votes", Label).update(Content(votes), layout=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.may_vote
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rematch":
            self.action_rematch()
        else:
            self.action_leave()

    def action_rematch(self) -> None:
        if not self.may_vote:
            return
        try:
            self.member.vote_rematch()
        except DiamantError as error:
            self.notify(str(error), severity="warning", markup=False)

    def action_leave(self) -> None:
        self.post_message(LeaveTable())
