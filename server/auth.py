"""Who is connecting: connection limits, then authentication, then the session.

Any public key is accepted and its fingerprint identifies the player across connections.
A client without a key logs in as a guest through keyboard-interactive authentication
with no prompt; a guest gets a resume code instead of a key. A client that tries a
password is told, once, how to log in instead (see :meth:`ConnectionHandler.validate_password`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import TYPE_CHECKING, Callable

import asyncssh

# The display name comes from the SSH user name, cleaned as every typed name is. asyncssh
# has already applied SASLprep (RFC 4013) to it: names it forbids (most emoji, for
# instance) are refused before the connection gets here; the README says which work.
from diamant_tui.i18n import LANGUAGES, Translator
from diamant_tui.names import clean_name

from .eventlog import SessionLog, new_session_id
from .identity import Identity
from .limits import Refusal
from .logtext import loggable

if TYPE_CHECKING:
    from .limits import ConnectionLimits
    from .session import GameSession

log = logging.getLogger(__name__)

SECOND_SESSION = ("at most {limit} session{s} per connection: for another one, connect again "
                  "(a new ssh)")
"""Why a second session channel is refused (the client's SSH software shows it)."""

PASSWORD_OPTION = "-o PreferredAuthentications=keyboard-interactive"
"""What an OpenSSH client set to passwords alone adds to log in as a guest."""


def no_password_banner(join_command: str) -> str:
    """What a client that tries a password is shown: there are none, and how to log in
    instead, with ``join_command`` (``ssh -p PORT HOST``) made to ask for no password. Its
    language is unknown before a session sends its locale, so it is said in each of the
    game's languages, English first, one line each."""
    command = join_command.replace("ssh ", f"ssh {PASSWORD_OPTION} ", 1)
    return "".join(Translator(lang)("login.no_password", command=command) + "\r\n"
                   for lang in ("en", *(code for code in LANGUAGES if code != "en")))


SessionFactory = Callable[["Identity", "Callable[[], None]", "tuple[str, int] | None", str],
                          "GameSession"]
"""Makes the session for a channel: the identity, what to call once the session has
ended, why it is refused (a text key and the limit it is over), if it is, and the
session's id (the connection's, for its first session)."""


class ConnectionHandler(asyncssh.SSHServer):
    """One SSH connection, from TCP accept to its sessions (asyncssh's server protocol)."""

    def __init__(self, limits: "ConnectionLimits", session_factory: SessionFactory,
                 open_connections: "set[asyncssh.SSHServerConnection] | None" = None, *,
                 session_timeout: float = 20.0, max_sessions: int = 1,
                 on_refused: Callable[[str], None] | None = None,
                 banned: Callable[[str], str | None] | None = None,
                 join_command: Callable[[str, str], str] | None = None) -> None:
        self.id = new_session_id()
        """The connection's id, in every log line about it (and its sessions)."""
        self.log = SessionLog(log, self.id)
        self._on_refused = on_refused
        """Told the reason (a short word) of each connection or session refused."""
        self._banned = banned
        """Says why an address is banned (the line its client is sent), if it is."""
        self._join_command = join_command
        """The command that joins, given the address the client connected to and the
        user name it gave."""
        self._password_told = False
        """Whether the client was told that no password is asked (once is enough)."""
        self._since = time.monotonic()
        self._limits = limits
        self._max_sessions = max_sessions
        self._session_timeout = session_timeout
        self._timer: asyncio.TimerHandle | None = None
        self._session: "GameSession | None" = None
        self._open = open_connections if open_connections is not None else set()
        self._session_factory = session_factory
        self._conn: asyncssh.SSHServerConnection | None = None
        self._address = "?"
        self._admitted = False
        self._refusal: Refusal | None = None
        self._username = ""
        self._key: str | None = None
        self._sessions = 0
        self.identity: Identity | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        self._open.add(conn)
        peer = conn.get_extra_info("peername") or ("?", 0)
        self._address = str(peer[0])
        self._since = time.monotonic()
        refusal = self._limits.admit(self._address)
        if refusal is None:
            self._admitted = True
            banned = self._banned(self._address) if self._banned is not None else None
            if banned is None:
                self.log.info("connection from %s port %s", self._address, peer[1],
                              extra={"event": "connect", "address": self._address})
                return
            # Counted as any connection (its rate too), then refused at the first word.
            self.refused("banned")
            self.log.warning("refusing a connection from %s, a banned address: %s",
                             self._address, loggable(banned, 300),
                             extra={"event": "refused", "address": self._address,
                                    "reason": "banned"})
            self._refusal = Refusal(banned, "banned")
            return
        self.refused(refusal.reason)
        fields = {"event": "refused", "address": self._address, "reason": refusal.reason}
        if self._limits.hammering(self._address):
            # Still connecting after being told: close at once, before any key exchange.
            self.log.info("dropped a connection from %s: %s", self._address, refusal,
                          extra=fields)
            asyncio.get_running_loop().call_soon(conn.abort)
            return
        # A message can only be sent once the key exchange is done: at authentication.
        self.log.warning("refusing a connection from %s: %s", self._address, refusal,
                         extra=fields)
        self._refusal = refusal

    def refused(self, reason: str) -> None:
        """Count a refusal (a connection, a session or a name) by its reason."""
        if self._on_refused is not None:
            self._on_refused(reason)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        if self._conn is not None:
            self._open.discard(self._conn)
            self._conn = None  # a session ending later starts no timer for it
        if isinstance(exc, asyncssh.IllegalUserName):
            # asyncssh checks every user name against SASLprep (RFC 4013) before any
            # code here sees it, and refuses e.g. most emoji (unassigned in Unicode 3.2);
            # the client only reads asyncssh's reason. The README explains which names work.
            self.refused("user_name")
            self.log.warning("refused a connection from %s: its SSH user name is not "
                             "allowed by SASLprep (RFC 4013): %s", self._address, exc.reason,
                             extra={"event": "refused", "address": self._address,
                                    "reason": "user_name"})
        elif exc is not None:
            self.log.info("connection from %s lost: %s", self._address, loggable(exc, 120),
                          extra={"event": "disconnect", "address": self._address,
                                 "seconds": round(time.monotonic() - self._since, 1)})
        if self._admitted:
            self._admitted = False
            self._limits.release(self._address)
            if exc is None:
                self.log.info("connection from %s closed after %.0f s", self._address,
                              time.monotonic() - self._since,
                              extra={"event": "disconnect", "address": self._address,
                                     "seconds": round(time.monotonic() - self._since, 1)})

    def begin_auth(self, username: str) -> bool:
        if self._refusal is not None and self._conn is not None:
            code = (asyncssh.DISC_BY_APPLICATION if self._refusal.reason == "banned"
                    else asyncssh.DISC_TOO_MANY_CONNECTIONS)
            self._conn.disconnect(code, self._refusal)
            return True
        self._username = username
        return True  # ask for a key first: a key is what identifies a player

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh calls this for every key offered and again just before checking the
        # signature, so the last key seen here is the one that logged in.
        self._key = key.get_fingerprint("sha256")
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # A guest: forget any key offered without a signature, it proves nothing.
        self._key = None
        return True

    def password_auth_supported(self) -> bool:
        # Offered until the client tries it, only so that a client set to passwords alone
        # says something to the server: without it, OpenSSH gives up at once with
        # "Permission denied (publickey,keyboard-interactive)", which says nothing of a
        # guest. Keyless OpenSSH clients try keyboard-interactive before a password, and
        # get in as guests without a prompt as before.
        return not self._password_told

    def validate_password(self, username: str, password: str) -> bool:
        """Refuse every password, saying (in an authentication banner, which SSH clients
        show while logging in) how to log in: as a guest without one, or with a key.
        Accepting any password as a guest's would let every password-guessing robot in;
        told once, password is no longer offered, so the client stops asking."""
        self._password_told = True
        # At debug level: on port 22, password-guessing robots try one at every connection.
        self.log.debug("%s tried a password; told how to log in without one", self._address,
                       extra={"event": "password", "address": self._address})
        if self._conn is not None:
            local = self._conn.get_extra_info("sockname") or ("localhost", 22)
            command = (self._join_command(str(local[0]), username)
                       if self._join_command is not None else f"ssh -p {local[1]} {local[0]}")
            self._conn.send_auth_banner(no_password_banner(command))
        return False

    def auth_completed(self) -> None:
        name = clean_name(self._username)
        if self._key is not None:
            self.identity = Identity("key:" + self._key, name, False, self._address)
        else:
            self.identity = Identity("guest:" + secrets.token_hex(8), name, True, self._address)
        self.log.info("logged in: %s", self.identity,
                      extra={"event": "login", "address": self._address,
                             "player": self.identity.name,
                             "key": None if self.identity.guest else self._key})
        self._start_timer()

    def session_requested(self) -> "GameSession | bool":
        if self.identity is None:
            return False
        if self._sessions >= self._max_sessions:
            self.refused("sessions_per_connection")
            self.log.warning("%s: refused a session channel beyond %d on one connection",
                             self.identity, self._max_sessions,
                             extra={"event": "limit", "limit": "max_sessions_per_connection"})
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            SECOND_SESSION.format(
                                                limit=self._max_sessions,
                                                s="" if self._max_sessions == 1 else "s"))
        self._sessions += 1
        session_id = self.id if self._sessions == 1 else f"{self.id}.{self._sessions}"
        # The timer goes on: a channel whose session never starts (no shell or command
        # asked for) holds the connection for nothing.
        identity = self.identity
        refusal = self._limits.open_session(self._address, identity.person,
                                            guest=identity.guest)
        if refusal is not None:
            # Refused once the session has started, in the person's own language.
            self.refused(refusal[0].removeprefix("limit."))
            self.log.warning("%s: refused a session: %s (limit %d)", identity, *refusal,
                             extra={"event": "limit", "limit": refusal[0]})
            return self._session_factory(identity, self._start_timer, refusal, session_id)

        def ended() -> None:
            self._session = None
            self._limits.close_session(self._address, identity.person)
            self._start_timer()

        self._session = self._session_factory(identity, ended, None, session_id)
        return self._session

    # --- a connection without a session is closed after the log-in time -----------------

    def _start_timer(self) -> None:
        self._stop_timer()
        if self._conn is not None:
            self._timer = asyncio.get_running_loop().call_later(
                self._session_timeout, self._no_session)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _no_session(self) -> None:
        self._timer = None
        if self._conn is None or (self._session is not None and self._session.app is not None):
            return  # gone already, or its session runs: its app is up
        self.log.info("%s: no session open for %g seconds; connection closed", self.identity,
                      self._session_timeout, extra={"event": "limit", "limit": "login_timeout"})
        self._conn.disconnect(asyncssh.DISC_BY_APPLICATION,
                              f"no session open for {self._session_timeout:g} seconds")
