"""The last resort against a decision that will not stop: the program gives up on it.

A decision that runs over its time is interrupted by an exception raised from a signal
(see :func:`~diamant_tui.bots.outside.checked_decision`). A player that swallows it (a
bare ``except:`` around its work) goes on for ever, and the program with it. So once it
has had :data:`GRACE` seconds more, the process ends: the line that names the player is
written first, to standard error, or to :data:`REPORT_FILE` in a process of ``--jobs``,
whose parent reads it (:func:`reported`) and tells it as any failure.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

GRACE = 1.0
"""Seconds a decision is given, once told to stop, before the program gives up on it."""

PREFIX = ""
"""Put before the line on standard error (the command's own, e.g. ``diamant sim: error: ``)."""

REPORT_FILE: str | None = None
"""Where a worker process writes what happened, for its parent, instead of standard error."""

_stopped_at: float | None = None
_told: tuple[str, str] | None = None


def armed() -> None:
    """A decision starts: nothing stopped yet."""
    global _stopped_at, _told
    _stopped_at = _told = None


def stopped(name: str, problem: str) -> None:
    """The decision of ``name`` was just told to stop, for ``problem``."""
    global _stopped_at, _told
    _stopped_at, _told = time.monotonic(), (name, problem)


def was_stopped() -> bool:
    """Whether the running decision has been told to stop already."""
    return _stopped_at is not None


def give_up_if_late() -> None:
    """Called by each later alarm: past the grace, say who went on, and end the process."""
    if _stopped_at is None or _told is None or time.monotonic() - _stopped_at < GRACE:
        return
    name, problem = _told
    problem = f"{problem.rstrip('.')}, and went on when told to stop."
    try:
        if REPORT_FILE is not None:
            Path(REPORT_FILE).write_text(json.dumps([name, problem]))
        else:
            os.write(2, f"{PREFIX}computer player {name!r} {problem}\n".encode())
    finally:
        os._exit(2)  # nothing else can stop it: it catches whatever is raised in it


def reported(path: str) -> tuple[str, str] | None:
    """The (name, problem) a worker process wrote to ``path`` before it ended, if any."""
    try:
        name, problem = json.loads(Path(path).read_text())
    except (OSError, ValueError, TypeError):
        return None
    return str(name), str(problem)
