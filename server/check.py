"""``diamant serve --check``: would the server start with these settings, and how?

It checks, in the order a start needs them, the data folder (there and writable, or able
to be made, and held by no other server), the host key (readable, or able to be made), and the ports (each bound and
closed at once), without changing anything the server keeps; then it says where the
server would listen, how players would join, and which settings differ from the
defaults. The first problem stops the check with one line that says what to do.
"""

from __future__ import annotations

import errno
import os
import socket
import tempfile
from dataclasses import fields
from pathlib import Path

from .addresses import fingerprint_line, join_commands
from .config import ServerConfig
from . import hostkey
from .folder_lock import FolderInUse, check_free, not_a_folder
from .hostkey import HOST_KEY_NAME
from .storage import DATABASE, Storage, StorageError

SHOWN_ELSEWHERE = ("host", "port", "data_dir")
"""Settings the check's report shows on lines of their own."""


class CheckFailed(Exception):
    """A problem that would stop the server; the message says what to do."""


def check(config: ServerConfig) -> list[str]:
    """The lines that say what the server would do; raises :class:`CheckFailed` on the
    first problem."""
    folder, key_line, listening = _check_start(config)
    lines = ["The settings are good: the server would start."]
    if config.port:
        lines.append(f"It would listen on {config.host or 'every address'} port "
                     f"{config.port}; players would join with:")
        lines += [f"  {command}" for command in
                  join_commands(listening, config.port, config.public_host)]
    else:
        lines.append(f"It would listen on {config.host or 'every address'}, on a free port "
                     f"(port 0), printed when it starts.")
    lines.append(f"Host key: {key_line}")
    lines.append(f"Data folder: {config.data_path} ({folder})")
    lines.append(f"Database: {_check_database(config.data_path)}")
    lines.append("Metrics: " + (f"http://{_url_host(config.metrics_host)}:"
                                f"{config.metrics_port}/metrics" if config.metrics_port
                                else "off"))
    changed = _changed_settings(config)
    lines.append("Settings that differ from the defaults: " + (", ".join(changed) or "none"))
    return lines


def preflight(config: ServerConfig) -> None:
    """What a real start checks before it makes anything: the same checks as ``--check``
    (but the database's, which the start makes itself), so that a start refused for a
    busy port, a held folder or a damaged host key says what ``--check`` says, and leaves
    no database or host key behind it. Raises :class:`CheckFailed`."""
    _check_start(config)


def _check_start(config: ServerConfig) -> tuple[str, str, list[tuple[int, str]]]:
    """The data folder, the lock on it, the host key and the ports, in the order a start
    needs them; returns what the report shows of them."""
    folder = _check_data_folder(config.data_path)
    try:
        check_free(config.data_path)
    except FolderInUse as exc:
        raise CheckFailed(str(exc)) from None
    key_line = _check_host_key(config.data_path)
    listening = _check_port("the server", config.host, config.port, "--port")
    if config.metrics_port:
        _check_port("the metrics endpoint", config.metrics_host, config.metrics_port,
                    "--metrics-port")
    return folder, key_line, listening


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _changed_settings(config: ServerConfig) -> list[str]:
    defaults = ServerConfig()
    changed = []
    for field in fields(ServerConfig):
        value = getattr(config, field.name)
        if field.name not in SHOWN_ELSEWHERE and value != getattr(defaults, field.name):
            changed.append(f"{field.name} = {value!r}" if isinstance(value, str)
                           else f"{field.name} = {value}")
    return changed


def _check_data_folder(folder: Path) -> str:
    """Whether the server could keep its data in ``folder``: ``writable`` or ``would be
    created``."""
    problem = not_a_folder(folder)
    if problem:
        raise CheckFailed(problem)
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    try:
        fd, probe = tempfile.mkstemp(dir=existing, prefix=".check-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise CheckFailed(
            f"the data folder {folder} cannot be written ({exc.strerror or exc}: {existing}); "
            f"make it writable by the user running the server, or choose another folder "
            f"with --data-dir") from None
    return "writable" if existing == folder else "would be created"


def _check_database(folder: Path) -> str:
    """Whether the server could use the database in ``folder``, read without a change:
    a damaged file, another program's or a newer version's is a problem."""
    path = folder / DATABASE
    if not path.exists():
        return f"{path} would be created"
    try:
        Storage.open(folder, create=False).close()
    except StorageError as exc:
        raise CheckFailed(str(exc)) from None
    return f"{path}"


def _check_host_key(folder: Path) -> str:
    path = folder / HOST_KEY_NAME
    if not path.exists():
        return f"none yet; a new ED25519 key would be made in {path}"
    try:
        key = hostkey.read(path)
    except hostkey.HostKeyError as exc:
        raise CheckFailed(str(exc)) from None
    return fingerprint_line(key)


def _check_port(what: str, host: str, port: int, flag: str) -> list[tuple[int, str]]:
    """Bind and close at once every socket ``what`` would listen on; returns their
    families and addresses."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CheckFailed(f"{what} cannot listen on {host!r}: {exc.strerror}; give an "
                          f"address of this machine, or 0.0.0.0 for all of them") from None
    listening: list[tuple[int, str]] = []
    for family, kind, proto, _, address in infos:
        if (family, address[0]) in listening:
            continue
        with socket.socket(family, kind, proto) as sock:
            # As asyncio does for a server: no waiting for old connections' ports, and an
            # IPv6 socket for IPv6 only.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                raise CheckFailed(bind_problem(what, address[0], port, flag, exc)) from None
        listening.append((family, address[0]))
    return listening


def bind_problem(what: str, address: str, port: int, flag: str, exc: OSError) -> str:
    """Why ``what`` cannot listen on ``address`` port ``port``, and what to do (``flag``
    chooses another port), from the error binding it gave."""
    where = f"{what} cannot listen on {address} port {port}"
    if exc.errno == errno.EADDRINUSE:
        return (f"{where}: another program listens there (a server already running?); "
                f"stop it, or choose another port with {flag}")
    if exc.errno == errno.EACCES:
        return (f"{where}: ports below 1024 need a privilege; run it as the shipped systemd "
                f"unit does (CAP_NET_BIND_SERVICE), or choose a port above 1023 with {flag}")
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"{where}: that is not an address of this machine; choose one of its "
                f"addresses, or 0.0.0.0 for all of them")
    return f"{where}: {exc.strerror or exc}"
