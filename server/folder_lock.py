"""One server to a data folder: the lock a running server holds on it.

Two servers on one data folder would both rebuild its saved tables and play them on, and
keep each of those games twice, rated twice. So a server holds an exclusive lock on the
file ``diamant.lock`` in its data folder for as long as it runs. The lock is the operating
system's (``flock``; ``msvcrt.locking`` on Windows): it goes with the process however the
process ends (a stop, a crash, ``kill -9``), so a lock left behind never stops a start.
The file holds the process id of the server that holds it, for the message, and is
emptied when that server stops cleanly: a process id found in it by the next start is
that of a server that did not stop cleanly (``kill -9``, out of memory, a power cut), which
the next server says in its log (:attr:`FolderLock.left_by`).

``diamant backup`` and ``diamant export`` only read the database (SQLite lets them do so
beside a server): they do not take the lock.
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt

LOCK_NAME = "diamant.lock"
"""The lock file's name in the data folder."""


class FolderLockError(Exception):
    """The data folder cannot be locked; the message names it and says what to do."""


class FolderInUse(FolderLockError):
    """Another server holds the data folder."""


def not_a_folder(folder: Path) -> str | None:
    """Why ``folder`` cannot be a data folder because it, or a folder above it, is a file
    (with what to do), or None."""
    existing = Path(folder)
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return (f"the data folder {folder} cannot be used: {existing} is a file, not a "
                f"folder; choose another folder with --data-dir")
    return None


class FolderLock:
    """The lock on one data folder, held from :meth:`take` until :meth:`release`."""

    def __init__(self, path: Path, fd: int, left_by: int | None = None) -> None:
        self.path = path
        self._fd: int | None = fd
        self.left_by = left_by
        """The process id of the server before this one, if it did not stop cleanly."""

    @classmethod
    def take(cls, folder: Path) -> "FolderLock":
        """Lock ``folder`` (made if need be) for this process; raises
        :class:`FolderInUse` if another server holds it, :class:`FolderLockError` if it
        cannot be made or written."""
        folder = Path(folder)
        problem = not_a_folder(folder)
        if problem:
            raise FolderLockError(problem)
        path = folder / LOCK_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError as exc:
            raise FolderLockError(
                f"the data folder {folder} cannot be written ({exc.strerror or exc}); make "
                f"it writable by the user running the server, or choose another folder "
                f"with --data-dir") from None
        if not _lock(fd):
            holder = _holder(fd)
            os.close(fd)
            raise FolderInUse(in_use(folder, holder))
        # Whoever held it last and left its process id in it never stopped cleanly.
        left_by = _holder(fd, RUNNING)
        # The holder's process id, for the message a second server prints.
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()} {RUNNING}\n".encode())
        except OSError:
            pass  # the lock is what matters; the message then names no process
        return cls(path, fd, left_by)

    def release(self, *, clean: bool = False) -> None:
        """Let the folder go (closing the file does: the lock is the open file's);
        ``clean``: the server stopped cleanly, everything saved (the file is emptied)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            if clean:
                try:
                    os.ftruncate(fd, 0)
                except OSError:
                    pass  # the next start then says this one did not stop cleanly
            os.close(fd)


def check_free(folder: Path) -> None:
    """Raise :class:`FolderInUse` if a server holds ``folder`` now; nothing is made or
    changed (a folder without the lock file has never been held)."""
    path = Path(folder) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return  # none (or not ours to open): the real start says what is wrong, if anything
    try:
        if not _lock(fd):
            raise FolderInUse(in_use(Path(folder), _holder(fd)))
    finally:
        os.close(fd)  # and the lock just taken with it


def in_use(folder: Path, holder: int | None) -> str:
    """What a server is told when another one holds its data folder."""
    process = f" (process {holder})" if holder else ""
    return (f"the data folder {folder} is in use by another Diamant server{process}; two "
            f"servers on one folder would play its saved tables twice: stop that server "
            f"first, or give this one another folder with --data-dir")


def _lock(fd: int) -> bool:
    """Take the exclusive lock on ``fd`` without waiting; False if another holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:  # BlockingIOError on POSIX, PermissionError on Windows
        return False
    return True


RUNNING = "running"
"""Written after the process id: a file from a Diamant that left its id there after a
clean stop too (before this mark) is not taken for a crash."""


def _holder(fd: int, mark: str | None = None) -> int | None:
    """The process id the holder wrote in the lock file, if it can be read (with
    ``mark``: only if the mark follows it)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        words = os.read(fd, 64).decode().split()
        if mark is not None and words[1:2] != [mark]:
            return None
        return int(words[0]) or None
    except (OSError, ValueError, IndexError):
        return None
