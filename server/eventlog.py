"""The server's log: one line per event, each line about a connection with its session id.

A connection gets a short id when it is accepted (``s12``); every line about it, from the
connection to its end, starts with that id and carries it as the ``session`` field, so a
host can follow one person's visit with a single search. Lines carry fields for the
machines that read them (``event``, ``address``, ``table``...): ``--log-format json``
writes each line as one JSON object with the time, level, logger, message, session id
and those fields.

What is never logged: chat text (unless the host sets ``log_chat``), key material (a key
is named by its fingerprint only) and resume codes (a code gives a seat).
"""

from __future__ import annotations

import itertools
import json
import logging
import sys
from datetime import datetime, timezone
from typing import Any, MutableMapping

from .logtext import loggable

_ids = itertools.count(1)
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message", "asctime", "taskName"}
"""The attributes every log record has: whatever else a record holds is a field."""
ADMIN_LOGGER = "diamant_server.admin"


def new_session_id() -> str:
    """A short id for a new connection (``s1``, ``s2``...), unique in this process."""
    return f"s{next(_ids)}"


class SessionLog(logging.LoggerAdapter):
    """A logger for the lines about one session: each starts with the session's id and
    carries it as the ``session`` field, with the fields given as keywords in ``extra``."""

    def __init__(self, logger: logging.Logger, session: str) -> None:
        super().__init__(logger, {"session": session})

    @property
    def session(self) -> str:
        """The id every line of this logger carries."""
        return str(self.extra["session"])  # type: ignore[index]

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, Any]:
        # A field named as a record's own attribute would make logging raise: renamed.
        fields = {(name + "_" if name in _STANDARD else name): value
                  for name, value in (kwargs.get("extra") or {}).items()}
        fields["session"] = self.session
        kwargs["extra"] = fields
        return f"{self.session}: {msg}", kwargs


def admin_action(session: str, action: str, **fields: object) -> None:
    """Log an action an admin took (a kick, a ban, a table closed...): one line, with the
    admin's session id, always at warning level so that it shows in any host's log."""
    described = " ".join(f"{name}={loggable(value, 80)}" for name, value in fields.items())
    SessionLog(logging.getLogger(ADMIN_LOGGER), session).warning(
        "admin %s %s", action, described, extra={"event": "admin", "action": action, **fields})


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """The fields a record was given (``extra``), beyond what every record has."""
    return {name: value for name, value in vars(record).items() if name not in _STANDARD}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the
    session id when the line is about a session, then the line's fields."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        fields = fields_of(record)
        session = fields.pop("session", None)
        if session is not None:
            message = message.removeprefix(f"{session}: ")
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc)
            .isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": message,
        }
        if session is not None:
            entry["session"] = session
        entry.update(fields)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup_logging(level: str, form: str = "text") -> logging.Handler:
    """Send the log to the process's stderr (the journal, under systemd) as ``form``
    (text or json) from ``level`` up; returns the handler."""
    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level.upper())
    # asyncssh logs every packet exchange at INFO; keep only its warnings.
    logging.getLogger("asyncssh").setLevel(max(logging.WARNING, root.level))
    return handler
