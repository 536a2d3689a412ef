"""Game records as files (``diamant export``): each written whole or not at all.

The server keeps its games in its database (:mod:`.storage`); a record becomes a file
only when it is exported.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from diamant_tui.engine.record import parse_time, record_to_json


def record_file_name(table: str, game: int, started: datetime, token: str) -> str:
    """``20250301T184502Z+cave-1+game2+5f3a9c.json``: when the game started, its table,
    the game's number at that table and a random token.

    ``+`` never appears in a table name (any other character than letters, digits, ``_``,
    ``.`` and ``-`` becomes ``_``), so the parts cannot be mistaken for one another, and
    the token keeps two games that started in the same second at a table of the same
    name apart.
    """
    safe = re.sub(r"[^\w.-]", "_", table) or "table"
    stamp = started.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}+{safe}+game{game}+{token}.json"


def write_record(folder: Path, record: dict[str, Any], *, table: str, game: int) -> Path:
    """Write ``record`` as a new file in ``folder`` (created if needed); returns its path.

    The name (:func:`record_file_name`) is one no file in the folder has; the file appears
    whole or not at all: it is written to a temporary file in the same folder first, then
    renamed over.
    """
    folder.mkdir(parents=True, exist_ok=True)
    started = _started(record)
    while True:
        path = folder / record_file_name(table, game, started, secrets.token_hex(3))
        if not path.exists():
            break
    write_atomically(path, record_to_json(record))
    return path


def followed(path: Path) -> Path:
    """The file ``path`` names, links followed: what a file renamed into place must
    replace (renamed over a link, /dev/stdout for one, it would replace the link)."""
    return Path(os.path.realpath(path))


def is_special_file(path: Path) -> bool:
    """Whether ``path`` is there and neither a regular file nor a folder (followed if a
    link): a device such as /dev/null, a named pipe or a socket, which a file renamed
    over would replace."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False  # nothing there (or nothing reachable): a file is made
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file in the same
    folder first, synced to disk, then renamed over ``path`` (and the folder synced, so
    the new name survives a crash too)."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".record-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make a new name in ``folder`` survive a crash (where the file system allows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # a folder that cannot be opened cannot be synced either; the file is there
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(fd)


def _started(record: dict[str, Any]) -> datetime:
    """When the recorded game started (``meta.started``), or now when it does not say."""
    started = record.get("meta", {}).get("started")
    if isinstance(started, str):
        try:
            return parse_time(started)
        except ValueError:
            pass
    return datetime.now(timezone.utc)
