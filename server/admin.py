"""What the server's admins may do: see every session, kick, ban and unban, mute and
unmute, close a table, send everyone a message, read and dismiss players' reports.

Anyone at a table may report someone there, or who left it lately, to the admins
(:meth:`AdminDesk.report`, :mod:`.reports`): the admins online are told at once
(:class:`ReportFiled`).

The admins are named by their key fingerprints in the ``admins`` setting. Every action is
checked here, where it is carried out, not only on the screen that offers it: whatever a
person presses or sends, an action asked by someone who is not an admin (a guest, or a
key not in the setting) is refused with :class:`AdminError` and the refusal logged. Every
action taken is logged through :func:`~diamant_server.eventlog.admin_action`.

What an action does to other people's apps it asks of them by a message
(:class:`AdminNotice`, :class:`TableClosedByAdmin`, :class:`MuteChanged`): each app acts
on it in its own time.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Callable, Iterable

from textual.message import Message

from diamant_tui.table import Table
from diamant_tui.ui.literal import printable

from .bans import ADDRESS, KEY, REASON_MAX, Ban, Bans, normal_address
from .eventlog import SessionLog, admin_action
from .identity import Identity
from .lobby import Lobby, LobbyError
from .mutes import Mute, Mutes, muted_as
from .reports import GONE_KEPT, Departed, Departures, Report, ReportRefused, Reports, known_as
from .storage import StorageError

if TYPE_CHECKING:
    from .session import GameSession

log = logging.getLogger(__name__)

NOTICE_MAX = 300
"""Longest message to everyone, in characters (a toast of a few lines)."""


class AdminError(LobbyError):
    """An admin action refused or impossible; :meth:`text` says why in a person's language."""


class AdminNotice(Message):
    """An admin's message to everyone: the app shows it as a notice on its screen."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class MuteChanged(Message):
    """A mute on this app's person was made (or replaced), ``lifted`` by an admin, or is
    ``over`` (its time ran out): the app tells them at once, wherever they are, rather
    than at their next chat line."""

    def __init__(self, mute: Mute, *, lifted: bool = False, over: bool = False) -> None:
        super().__init__()
        self.mute = mute
        self.lifted = lifted
        self.over = over


class ReportFiled(Message):
    """Someone reported someone: an admin's app tells its person at once."""

    def __init__(self, report: Report) -> None:
        super().__init__()
        self.report = report


class TableClosedByAdmin(Message):
    """An admin closed ``table``: an app showing it tells its person why (``reason``)
    and goes back to the lobby."""

    def __init__(self, table: Table, reason: str) -> None:
        super().__init__()
        self.table = table
        self.reason = reason


@dataclass(frozen=True)
class SessionInfo:
    """One line of the admin screen: a session, who and where it is, since when, and
    how long it has sent nothing. ``key`` is None for a guest, ``table`` for the lobby;
    ``private``: the table is private (admins see every table, marked)."""

    id: str
    name: str
    key: str | None
    address: str
    table: str | None
    since: datetime
    idle: float
    private: bool = False


def _clean(text: str, most: int) -> str:
    """What an admin typed, on one line, without control characters, at most ``most`` long."""
    return " ".join(printable(text).split())[:most]


class AdminDesk:
    """The admin actions of one server (see the module docstring).

    ``sessions`` gives the server's sessions as they are now; each action takes the
    session that asks for it (``actor``), whose identity decides whether it may."""

    def __init__(self, admins: Iterable[str], bans: Bans, lobby: Lobby,
                 sessions: Callable[[], Iterable["GameSession"]], *,
                 mutes: Mutes | None = None, reports: Reports | None = None) -> None:
        self._admins = frozenset(admins)
        self.bans = bans
        self.mutes = mutes if mutes is not None else Mutes()
        # A mute that runs out is told as a lifted one is, by its register's timer.
        self.mutes.on_over = self._mute_over
        self.reports = reports if reports is not None else Reports()
        self.departures = Departures()
        self._lobby = lobby
        self._sessions = sessions

    def is_admin(self, identity: Identity) -> bool:
        """Whether ``identity`` logged in with one of the admins' keys."""
        return not identity.guest and identity.key.removeprefix("key:") in self._admins

    def is_admin_key(self, fingerprint: str) -> bool:
        """Whether ``fingerprint`` is one of the admins' keys (which cannot be banned nor
        muted)."""
        return fingerprint in self._admins

    def _check(self, actor: "GameSession", action: str) -> None:
        if not self.is_admin(actor.identity):
            SessionLog(log, actor.id).warning(
                "refused the admin action %s to %s: not an admin", action, actor.identity,
                extra={"event": "refused", "reason": "not_admin", "action": action})
            raise AdminError("admin.refused")

    # --- looking --------------------------------------------------------------------------

    def sessions(self, actor: "GameSession") -> list[SessionInfo]:
        """Every session on the server, the oldest first."""
        self._check(actor, "sessions")
        return sorted((self._info(s) for s in self._sessions()),
                      key=lambda info: (info.since, info.id))

    def _info(self, session: "GameSession") -> SessionInfo:
        identity = session.identity
        table = _table_of(session)
        return SessionInfo(session.id, identity.name,
                           None if identity.guest else identity.key.removeprefix("key:"),
                           identity.address, None if table is None else table.name,
                           session.opened, session.idle_seconds,
                           table is not None and self._lobby.is_private(table))

    def bans_in_force(self, actor: "GameSession") -> list[Ban]:
        """Every ban in force, the oldest first."""
        self._check(actor, "bans")
        return self.bans.in_force()

    def mutes_in_force(self, actor: "GameSession") -> list[Mute]:
        """Every mute in force, the oldest first."""
        self._check(actor, "mutes")
        return self.mutes.in_force()

    # --- acting ---------------------------------------------------------------------------

    def _session(self, session_id: str) -> "GameSession":
        for session in self._sessions():
            if session.id == session_id:
                return session
        raise AdminError("admin.error.gone", session=session_id)

    def kick(self, actor: "GameSession", session_id: str, reason: str = "") -> SessionInfo:
        """Close a session, telling its person ``reason``; returns what it was."""
        self._check(actor, "kick")
        target = self._session(session_id)
        if target is actor:
            # The admin would close the screen they act from, and with it their session.
            raise AdminError("admin.error.own_session")
        reason = _clean(reason, REASON_MAX)
        info = self._info(target)
        admin_action(actor.id, "kick", target=target.id, player=info.name,
                     address=info.address, reason=reason)
        _close(target, target.t("admin.kicked", reason=reason or target.t("admin.no_reason")))
        return info

    async def ban(self, actor: "GameSession", kind: str, value: str, duration: str,
                  reason: str = "") -> tuple[Ban, int]:
        """Ban a key fingerprint or an address for ``duration`` (``hour``, ``day``,
        ``week``, ``forever``): in force at once, written to the database; the sessions
        it covers are closed, each told the ban. Returns the ban and how many were."""
        self._check(actor, "ban")
        if kind == KEY and self.is_admin_key(value):
            # Banned, an admin's key (the only way into this screen) could not come back to
            # lift the ban: the host takes it out of ``admins`` first if they mean it.
            raise AdminError("admin.error.admin_key")
        try:
            ban = self.bans.make(kind, value, duration, _clean(reason, REASON_MAX),
                                 by=actor.identity.key.removeprefix("key:"))
        except ValueError:
            raise AdminError("admin.error.value", value=value[:60]) from None
        write = self.bans.add(ban)
        admin_action(actor.id, "ban", kind=ban.kind, value=ban.value,
                     until=ban.until_text() or "forever", reason=ban.reason)
        covered = [s for s in self._sessions() if _covers(ban, s.identity)]
        for session in covered:
            _close(session, ban.message(session.t))
        await _saved(write)
        return ban, len(covered)

    async def unban(self, actor: "GameSession", kind: str, value: str) -> Ban:
        """Lift the ban on a key fingerprint or an address; returns the ban lifted."""
        self._check(actor, "unban")
        ban, write = self.bans.remove(kind, value)
        if ban is None:
            raise AdminError("admin.error.no_ban", value=value[:60])
        admin_action(actor.id, "unban", kind=kind, value=value)
        await _saved(write)
        return ban

    async def mute(self, actor: "GameSession", session_id: str, duration: str,
                   reason: str = "") -> tuple[Mute, int]:
        """Mute the person of a session for ``duration`` (as a ban): their key, or for a
        guest the address guests come from (:mod:`.mutes`). In force at once, for those
        already at a table too (their next line is refused), and written to the
        database. Returns the mute and how many sessions it covers now."""
        self._check(actor, "mute")
        target = self._session(session_id)
        identity = target.identity
        if target is actor or identity.key == actor.identity.key:
            raise AdminError("admin.error.mute_self")
        try:
            kind, value = muted_as(identity)
        except ValueError:
            raise AdminError("admin.error.mute_value", value=identity.address[:60]) from None
        return await self._mute(actor, kind, value, duration, reason,
                                target=target.id, player=identity.name)

    async def mute_reported(self, actor: "GameSession", report: Report, duration: str,
                            reason: str = "") -> tuple[Mute, int]:
        """Mute the person ``report`` is about, as the report knows them (their key, or
        guests' address), online or not: as :meth:`mute`."""
        self._check(actor, "mute")
        if report.reported_as == known_as(actor.identity):
            raise AdminError("admin.error.mute_self")
        kind, value = report.reported_as
        return await self._mute(actor, kind, value, duration, reason,
                                target=f"report {report.id}", player=report.reported)

    async def _mute(self, actor: "GameSession", kind: str, value: str, duration: str,
                    reason: str, *, target: str, player: str) -> tuple[Mute, int]:
        if kind == KEY and self.is_admin_key(value):
            # The host chose them to keep order and to speak for the server: whoever
            # disagrees with another admin takes it to the host, who can take the key out
            # of ``admins`` first. (Like a ban, which would shut them out for good.)
            raise AdminError("admin.error.mute_admin")
        try:
            mute = self.mutes.make(kind, value, duration, _clean(reason, REASON_MAX),
                                   by=actor.identity.key.removeprefix("key:"))
        except ValueError:
            raise AdminError("admin.error.mute_value", value=value[:60]) from None
        write = self.mutes.add(mute)
        admin_action(actor.id, "mute", target=target, player=player,
                     kind=mute.kind, value=mute.value,
                     until=mute.until_text() or "forever", reason=mute.reason)
        covered = self._told_of(mute)
        await _saved(write, "mute")
        return mute, covered

    async def unmute(self, actor: "GameSession", kind: str, value: str) -> Mute:
        """Lift the mute on a key fingerprint or guests' address; returns the mute lifted."""
        self._check(actor, "unmute")
        mute, write = self.mutes.remove(kind, value)
        if mute is None:
            raise AdminError("admin.error.no_mute", value=value[:60])
        admin_action(actor.id, "unmute", kind=kind, value=value)
        self._told_of(mute, lifted=True)
        await _saved(write, "mute")
        return mute

    def _mute_over(self, mute: Mute) -> None:
        """Tell the people ``mute`` was on that it ran out (it is forgotten already)."""
        told = self._told_of(mute, over=True)
        log.info("mute over: %s %s (%d sessions told)", mute.kind, mute.value, told,
                 extra={"event": "mute_over", "kind": mute.kind, "value": mute.value,
                        "sessions": told})

    def _told_of(self, mute: Mute, *, lifted: bool = False, over: bool = False) -> int:
        """Tell every session the mute is on (a key's, or every guest's from an address)
        that it was made, ``lifted`` or is ``over``, and nobody else; returns how many
        there are."""
        covered = [s for s in self._sessions() if _mute_on(mute, s.identity)]
        for session in covered:
            app = session.app
            if app is not None and app.is_running:
                app.post_message(MuteChanged(mute, lifted=lifted, over=over))
        return len(covered)

    async def close_table(self, actor: "GameSession", name: str, reason: str = "") -> int:
        """Close table ``name``: a game going on is kept as far as it went, and everyone
        at it (seated or watching) is told and goes back to the lobby. Returns how many
        sessions were at it."""
        self._check(actor, "close_table")
        table = self._lobby.get(name)
        if table is None:
            raise AdminError("admin.error.no_table", name=name[:20])
        reason = _clean(reason, REASON_MAX)
        apps = [s.app for s in self._sessions()
                if getattr(getattr(s.app, "member", None), "table", None) is table]
        admin_action(actor.id, "close_table", table=name, people=len(apps), reason=reason)
        await self._lobby.close_table(name, session=actor.id)
        for app in apps:
            app.post_message(TableClosedByAdmin(table, reason))  # type: ignore[union-attr]
        return len(apps)

    def broadcast(self, actor: "GameSession", text: str) -> int:
        """Show ``text`` as a notice on every screen; returns how many sessions got it."""
        self._check(actor, "broadcast")
        text = _clean(text, NOTICE_MAX)
        if not text:
            raise AdminError("admin.error.empty")
        apps = [s.app for s in self._sessions() if s.app is not None and s.app.is_running]
        admin_action(actor.id, "broadcast", sessions=len(apps), text=text)
        for app in apps:
            app.post_message(AdminNotice(text))
        return len(apps)

    # --- players' reports -----------------------------------------------------------------

    def left_table(self, session: "GameSession", table: Table, name: str) -> None:
        """``session``'s person has left ``table``, where they were ``name`` (or lost
        their connection there): they may still be reported there for a while."""
        self.departures.note(table, table.name, name, Departed(session.id, session.identity))

    async def report(self, reporter: "GameSession", table: Table, name: str,
                     reason: str) -> tuple[Report, int]:
        """File the report of ``reporter`` (anyone at ``table``) on whoever chats there
        as ``name`` (a name the table shows), or did before leaving it lately, ``reason``
        as typed: kept, written to the database, and told at once to every admin online
        (returns it and how many were told); the reported person is not told. Refused
        (:class:`AdminError`) if the server has no admins, if nobody at the table goes
        or went lately by that name, if it is the reporter, or over the limits of
        :mod:`.reports`."""
        if not self._admins:
            raise AdminError("chat.report_no_hosts")
        target: GameSession | Departed | None = _at_table(self._sessions(), table, name)
        if target is None:
            target = self.departures.find(table, table.name, name)
        if target is None:
            raise AdminError("report.gone", name=name, minutes=int(GONE_KEPT // 60))
        if target.identity.key == reporter.identity.key:
            raise AdminError("report.self")
        member = getattr(reporter.app, "member", None)
        reporter_name = member.name if member is not None else reporter.identity.name
        evidence = tuple(line.text for line in table.chat_lines if line.author == name)
        slog = SessionLog(log, reporter.id)
        try:
            report = await self.reports.file(
                table.name, reporter_name, known_as(reporter.identity), name,
                known_as(target.identity), reason, evidence)
        except ReportRefused as refused:
            slog.info("report of %s at table %r refused: %s", target.id, table.name,
                      refused.key, extra={"event": "refused", "reason": refused.key,
                                          "table": table.name})
            raise AdminError(refused.key, **refused.fmt) from None
        except StorageError as exc:
            log.error("a report could not be written to the database: %s", exc)
            raise AdminError("report.not_saved") from None
        slog.warning("reported session %s (%s) at table %r", target.id,
                     " ".join(report.reported_as), table.name,
                     extra={"event": "report", "report": report.id, "table": table.name,
                            "reported": target.id})
        told = 0
        for session in self._sessions():
            app = session.app
            if self.is_admin(session.identity) and app is not None and app.is_running:
                app.post_message(ReportFiled(report))
                told += 1
        return report, told

    def reports_open(self, actor: "GameSession") -> list[Report]:
        """Every report not dismissed, the newest first."""
        self._check(actor, "reports")
        return self.reports.open()

    async def dismiss_report(self, actor: "GameSession", report_id: int) -> Report:
        """Dismiss an open report (kept in the database as dismissed); returns it."""
        self._check(actor, "dismiss_report")
        report, write = self.reports.dismiss(report_id,
                                             actor.identity.key.removeprefix("key:"))
        if report is None:
            raise AdminError("admin.error.no_report")
        admin_action(actor.id, "dismiss_report", report=report.id, table=report.table,
                     reporter=report.reporter, reported=report.reported)
        await _saved(write, "report")
        return report

    def online(self, known: tuple[str, str]) -> SessionInfo | None:
        """A session of the person a report names (as :func:`.reports.known_as`), if
        one is on the server now (for a guest, one from that address)."""
        for session in self._sessions():
            if known_as(session.identity) == known:
                return self._info(session)
        return None


def _at_table(sessions: Iterable["GameSession"], table: Table,
              name: str) -> "GameSession | None":
    """The session of whoever is at ``table`` (seated or watching) under ``name``."""
    for session in sessions:
        member = getattr(session.app, "member", None)
        if (member is not None and member.table is table and member.name == name
                and member.active):
            return session
    return None


def _table_of(session: "GameSession") -> Table | None:
    """The table a session is at (seated or watching), if any."""
    member = getattr(session.app, "member", None)
    return member.table if member is not None else None


def _covers(ban: Ban, identity: Identity) -> bool:
    """Whether ``ban`` is on this identity's key or address."""
    if ban.kind == KEY:
        return not identity.guest and identity.key == "key:" + ban.value
    assert ban.kind == ADDRESS
    try:
        return normal_address(identity.address) == ban.value
    except ValueError:
        return False


def _mute_on(mute: Mute, identity: Identity) -> bool:
    """Whether ``mute`` is (or, lifted, was) on this identity: its key, or for a guest
    the address it connects from."""
    try:
        return muted_as(identity) == (mute.kind, mute.value)
    except ValueError:
        return False  # a guest on no IP address (a test transport): never muted


def _close(session: "GameSession", message: str) -> None:
    """End a session for an admin's action: nothing it sends counts any more."""
    session.stop_input()
    session.close(message)


async def _saved(write, what: str = "ban") -> None:  # type: ignore[no-untyped-def]
    """Wait for the write of a ban (or ``what`` else); one that failed is in force (or
    lifted) still, but not kept."""
    if write is None:
        return
    try:
        await write
    except StorageError as exc:
        log.error("a %s could not be written to the database: %s", what, exc)
        raise AdminError("admin.error.not_saved") from None
