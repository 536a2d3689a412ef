"""Before the game: the table's settings, who sits where and how many seats are free."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...engine.cards import Rules
from ...table import SeatInfo, SeatKind
from ..cells import cell, widest
from ..literal import printable
from .direct_repaint import RepaintedDirectly
from .final_chat import fitted_rows
from .one_layout import SizedInOneLayout


@dataclass(frozen=True)
class WaitingState:
    """What the waiting panel shows; ``hint`` is the line saying who may start (or
    None), ``question`` a question asked of this person (start now? leave the table?)
    and the keys that answer it, shown in the hint's place while it is asked
    (:class:`~diamant_tui.ui.screens.table.TableScreen`), ``note`` what the host says of
    the table under its settings (or None), ``watchers`` the spectators' names, in the
    order they came."""

    name: str
    rules: Rules
    timer: float | None
    hidden_chests: bool
    seats: tuple[SeatInfo, ...]
    me: int | None = None
    hint: str | None = None
    question: tuple[str, str] | None = None
    note: str | None = None
    watchers: tuple[str, ...] = ()

    @property
    def free(self) -> int:
        """Seats nobody has taken yet."""
        return sum(1 for s in self.seats if s.kind is SeatKind.EMPTY)


class WaitingPanel(RepaintedDirectly, SizedInOneLayout, Widget):
    """Shown in place of the cave until the game begins.

    It fills the column (``1fr``), whatever it says: a seat taken or left redraws its
    words and lays nothing out (each was a layout of the whole screen for every seat
    waiting at the table). Hidden as the game begins, it asks for that layout at once,
    in the frame that shows the game (:mod:`.direct_repaint`), not a frame later.

    The newest chat lines are read at its foot, in the rows its words leave free, and
    under them, for a few seconds, why a chat line of this person's was refused (a toast
    stood over the seats and the line telling the creator how to start)."""

    COMPONENT_CLASSES = {"waiting--title", "waiting--me", "waiting--free", "waiting--hint",
                         "waiting--question", "waiting--chat", "waiting--refusal",
                         "waiting--note"}

    DEFAULT_CSS = """
    WaitingPanel {
        height: 1fr;
        padding: 1 2;
        & > .waiting--title { text-style: bold; color: $accent; }
        & > .waiting--me { text-style: bold; }
        & > .waiting--free { color: $text-muted; text-style: italic; }
        & > .waiting--hint { text-style: bold; color: $success; }
        & > .waiting--question { text-style: bold; color: $warning; }
        & > .waiting--chat { color: $text-muted; }
        & > .waiting--refusal { color: $warning; }
        & > .waiting--note { color: $accent; }
    }
    """

    state: reactive[WaitingState | None] = reactive(None)
    chat: reactive[tuple[str, ...]] = reactive(())
    """The newest chat lines (``» ann: hello``), oldest first; those that fit are shown."""
    refusal: reactive[str | None] = reactive(None)
    """Why a chat line of this person's was refused, while it is told (under the chat)."""

    def render(self) -> Text:
        t = self.app.t
        state = self.state
        if state is None:
            return Text("")
        style = self.get_component_rich_style
        lines = [Text(t("waiting.title", name=printable(state.name)), style=style("waiting--title"))]
        settings = [t(f"rules.{state.rules.value}.long")]
        if state.timer is None:
            settings.append(t("waiting.no_timer"))
        else:
            settings.append(t("waiting.timer", seconds=f"{state.timer:g}"))
        if state.hidden_chests:
            settings.append(t("waiting.hidden"))  # in the list, not the form's label
        lines.append(Text(" · ".join(settings)))
        if state.note:
            lines.append(Text(state.note, style=style("waiting--note")))
        lines.append(Text(""))
        # Names in a column as wide as the longest (a name is never shortened here).
        width = widest(seat.name for seat in state.seats) + 2
        for seat in state.seats:
            lines.append(self._seat_line(seat, state.me, width))
        if state.watchers:
            lines.append(self._watchers_line(state.watchers))
        lines.append(Text(""))
        if state.free:
            lines.append(Text(t("waiting.free", count=state.free)))
        if state.question:
            # In the hint's place, where the eyes are as s or q is pressed: no dialog over
            # the seats and the chat, which go on changing while it is asked.
            question, answers = state.question
            lines.append(Text(question, style=style("waiting--question")))
            lines.append(Text(answers))
        elif state.hint:
            lines.append(Text(state.hint, style=style("waiting--hint")))
        return self._with_chat(Text("\n").join(lines))

    def _with_chat(self, body: Text) -> Text:
        """``body`` with the newest chat lines that fit whole under it (a blank row
        between), at the panel's foot, then the refusal; a long line goes on over the
        next rows (as at the final scores: :func:`.final_chat.fitted_rows`)."""
        width, height = self.content_size
        if not (self.chat or self.refusal) or width <= 0:
            return body
        console = self.app.console
        used = len(body.wrap(console, width))
        style = self.get_component_rich_style
        rows = fitted_rows(self.chat, self.refusal, width, height - used - 1, console,
                           style("waiting--chat"), style("waiting--refusal"))
        if not rows:
            return body
        gap = Text("\n" * (height - used - len(rows) + 1))  # from the body's last row
        return Text.assemble(body, gap, Text("\n").join(rows))

    def _watchers_line(self, watchers: tuple[str, ...]) -> Text:
        """Who watches, names as written, on one row: nobody is watched unknowingly, and
        a crowd of spectators does not push the chat off the panel (cut with "…")."""
        line = Text("     " + self.app.t("waiting.watchers",
                                         names=", ".join(printable(w) for w in watchers)),
                    style=self.get_component_rich_style("waiting--free"))
        width = self.content_size.width
        if width > 0:
            line.truncate(width, overflow="ellipsis")
        return line

    def _seat_line(self, seat: SeatInfo, me: int | None, width: int) -> Text:
        t = self.app.t
        style = self.get_component_rich_style
        number = f"{seat.seat + 1:>2}. "
        if seat.kind is SeatKind.EMPTY:
            return Text("  " + number + t("waiting.seat_free"), style=style("waiting--free"))
        if seat.kind is SeatKind.BOT:
            who = t("waiting.computer", spec=seat.bot or "?")
        elif seat.seat == me:
            who = t("waiting.you")
        elif not seat.connected:
            who = t("players.away")  # kept after a restart for someone not back yet
        else:
            who = t("waiting.person")
        line = Text(("▶ " if seat.seat == me else "  ") + number)
        line.append(cell(seat.name, width) + who,
                    style=style("waiting--me") if seat.seat == me else "")
        return line
