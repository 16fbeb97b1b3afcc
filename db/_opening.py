"""Opening a database safely: one process per file (an flock beside it), and one-line reasons for a file that fails.

The lock is `<database>.lock`, taken with a non-blocking exclusive `flock` and holding the holder's pid. The OS
drops it when the process ends, however it ends, so a crash never leaves a stale lock behind. The file itself is
never deleted: unlinking a lock file lets a waiting process lock an inode nobody else will look at.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
from pathlib import Path
from typing import Final

from db.errors import (
    DatabaseCorruptError,
    DatabaseLockedError,
    DatabaseUnusableError,
    DatabaseUnwritableError,
)

_NEARLY_FULL: Final = 1 << 20  # bytes; below this an I/O error is taken to mean the disk is full
_RESTORE: Final = "restore it from a backup, or move it away so that the bot starts with an empty database"


class DatabaseLock:
    """An exclusive lock on `<database>.lock`, held from `acquire` until `release` (or the process's end)."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, database: Path) -> DatabaseLock:
        """Lock the file beside `database` and write this process's pid into it.

        Raises:
            DatabaseLockedError: another process holds the lock.
            DatabaseUnusableError: the lock file cannot be created or written (read-only, full, no permission).
        """
        path = database.with_name(database.name + ".lock")
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise from_os_error(database, error) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            raise DatabaseLockedError(database, holder) from None
        except OSError as error:
            os.close(fd)
            raise from_os_error(database, error) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as error:
            os.close(fd)  # closing the only descriptor releases the lock
            raise from_os_error(database, error) from None
        return cls(fd, path)

    def release(self) -> None:
        """Unlock; calling it again does nothing."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # releases the flock held through this descriptor


def _read_pid(fd: int) -> int | None:
    # The holder may be between its ftruncate and its write: then there is no pid to name.
    with contextlib.suppress(OSError, ValueError):
        return int(os.pread(fd, 32, 0).decode("ascii").strip())
    return None


def folder_error(database: Path) -> DatabaseUnusableError:
    """The database path names a folder."""
    return DatabaseUnusableError(
        f"{database} is a folder, not a database file; set DATABASE_PATH to a file path such as {database / 'bot.db'}."
    )


def from_os_error(database: Path, error: OSError) -> DatabaseUnusableError:
    """The one-line reason for a failure to create or write the database's folder or lock file."""
    code = error.errno
    if code == errno.EROFS:
        return _read_only_file_system(database)
    if code in (errno.EACCES, errno.EPERM):
        return _permission_denied(database)
    if code in (errno.ENOSPC, errno.EDQUOT):
        return _disk_full(database)
    if code == errno.EISDIR:
        return folder_error(database)
    if code in (errno.ENOTDIR, errno.EEXIST):  # EEXIST: mkdir found a file where a folder should be
        return DatabaseUnusableError(
            f"{database} cannot be created: part of its folder path is a file, not a folder; fix DATABASE_PATH."
        )
    return DatabaseUnusableError(f"{database} cannot be opened ({error.strerror}); check DATABASE_PATH and the disk.")


def from_sqlite_error(database: Path, error: sqlite3.Error) -> DatabaseUnusableError | None:
    """The one-line reason for an SQLite failure caused by the file or its disk; None for any other failure."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # the primary result code
    detail = " ".join(str(error).split())
    if code == sqlite3.SQLITE_NOTADB:
        return DatabaseCorruptError(
            f"{database} is not an SQLite database (or is damaged beyond reading); set DATABASE_PATH to the bot's "
            f"database, or {_RESTORE}."
        )
    if code == sqlite3.SQLITE_CORRUPT:
        return DatabaseCorruptError(f"{database} is damaged ({detail}); {_RESTORE}.")
    if code == sqlite3.SQLITE_READONLY:
        return DatabaseUnwritableError(
            f"{database} is read-only ({detail}); give the bot write access to it and its folder, or move it to a "
            "writable disk."
        )
    if code == sqlite3.SQLITE_FULL:
        return _disk_full(database)
    if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
        return DatabaseUnwritableError(
            f"{database} cannot be opened for writing ({detail}); check that the bot may write the file, its -wal "
            "and -shm files, and its folder."
        )
    if code == sqlite3.SQLITE_IOERR:
        # SQLite reports some ENOSPC failures (growing the -shm file, for one) as plain I/O errors.
        if _free_bytes(database.parent) < _NEARLY_FULL:
            return _disk_full(database)
        return DatabaseUnusableError(
            f"{database}: the disk reported an I/O error ({detail}); check the disk, then {_RESTORE} if it persists."
        )
    return None


def corrupt_pages(database: Path, problems: list[str]) -> DatabaseCorruptError:
    """`PRAGMA quick_check` reported `problems`."""
    first = " ".join(problems[0].split())
    return DatabaseCorruptError(
        f"{database} is damaged: PRAGMA quick_check found {len(problems)} problem(s), the first: {first}; {_RESTORE}."
    )


def _free_bytes(folder: Path) -> int:
    try:
        stats = os.statvfs(folder)
    except OSError:
        return _NEARLY_FULL  # unknown: do not claim the disk is full
    return stats.f_bavail * stats.f_frsize


def _read_only_file_system(database: Path) -> DatabaseUnwritableError:
    return DatabaseUnwritableError(
        f"{database} is on a read-only file system; remount it read-write, or set DATABASE_PATH to a writable disk."
    )


def _permission_denied(database: Path) -> DatabaseUnwritableError:
    return DatabaseUnwritableError(
        f"{database}: permission denied; let the bot's user write the file and its folder {database.parent}."
    )


def _disk_full(database: Path) -> DatabaseUnwritableError:
    return DatabaseUnwritableError(f"{database}: the disk is full; free some space on it and start the bot again.")
