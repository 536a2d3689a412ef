"""The server's SSH host key: made once in the data folder, then reused on every start.

Players' clients remember the key; a new key on each start would make every
``ssh`` client warn of a possible attack, so an existing key is never replaced.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import asyncssh

log = logging.getLogger(__name__)

HOST_KEY_NAME = "ssh_host_ed25519_key"


class HostKeyError(RuntimeError):
    """The host key cannot be read or written; the message says which file and why."""


def load_or_create(data_dir: Path) -> asyncssh.SSHKey:
    """The ed25519 host key in ``data_dir``, generated (mode 0600) if there is none yet."""
    path = data_dir / HOST_KEY_NAME
    if data_dir.exists() and not data_dir.is_dir():
        raise HostKeyError(f"the data folder {data_dir} cannot be used: it is a file, not a "
                           f"folder; choose another folder with --data-dir")
    if path.exists():
        return read(path)
    try:
        data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        key = asyncssh.generate_private_key("ssh-ed25519", comment="diamant server")
        # Create the file with 0600 from the start: never a moment where others may read it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key.export_private_key())
        (data_dir / (HOST_KEY_NAME + ".pub")).write_bytes(key.export_public_key())
    except OSError as exc:
        raise HostKeyError(f"cannot write host key {path}: {exc.strerror or exc}") from None
    log.info("generated a new host key in %s", path)
    return key


def read(path: Path) -> asyncssh.SSHKey:
    """The host key in the file ``path``; a :class:`HostKeyError` says what to do if it
    cannot be read (it is never replaced: players' clients remember it)."""
    try:
        return asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise HostKeyError(f"cannot read the host key {path}: {reason}; restore it from a "
                           f"backup, or move it away and a new one is made (players' ssh "
                           f"will then warn that the server's key changed)") from None


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The SHA256 fingerprint, as ``ssh`` shows it."""
    return key.get_fingerprint("sha256")
