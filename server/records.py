"""Game records on disk: each game gets a file of its own, written whole or not at all."""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from diamant_tui.engine.record import parse_time, record_to_json


class DataFolderError(Exception):
    """The data folder cannot be written; the message names it and says what to do."""


def check_data_folder(folder: Path) -> None:
    """Make sure game records can be written in ``folder`` (its ``records`` folder is
    created if needed), else raise a :class:`DataFolderError`: better a refusal to start
    than games lost one by one."""
    records = folder / "records"
    try:
        records.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=records, prefix=".probe-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        raise DataFolderError(
            f"the data folder {folder} cannot be written ({exc.strerror or exc}{where}); "
            f"make it writable by the user running the server, or choose another folder "
            f"with --data-dir") from None


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
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".record-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(record_to_json(record))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    return path


def _started(record: dict[str, Any]) -> datetime:
    """When the recorded game started (``meta.started``), or now when it does not say."""
    started = record.get("meta", {}).get("started")
    if isinstance(started, str):
        try:
            return parse_time(started)
        except ValueError:
            pass
    return datetime.now(timezone.utc)
