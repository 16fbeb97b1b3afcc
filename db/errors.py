"""Errors the store raises. Refusals a player can cause carry a sentence the bot may show unchanged."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every storage refusal; nothing was written when one is raised."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot than this one."""


class DatabaseLockedError(StoreError):
    """Another process (another bot) has the database open; two writers would corrupt games."""

    def __init__(self, path: object, pid: int | None) -> None:
        holder = f"pid {pid}" if pid is not None else "pid unknown"
        super().__init__(
            f"{path} is in use by another bot process ({holder}); stop that bot first, or set DATABASE_PATH to "
            "another file."
        )
        self.path = path
        self.pid = pid


class DatabaseUnusableError(StoreError):
    """The database file cannot be used at all (damaged, unwritable, or not a file); the message says what to do."""


class DatabaseCorruptError(DatabaseUnusableError):
    """The file is not an SQLite database, is truncated, or has damaged pages (`PRAGMA quick_check` failed)."""


class DatabaseUnwritableError(DatabaseUnusableError):
    """The file or its folder cannot be written: read-only file or file system, permission denied, disk full."""


class StorageUnavailableError(StoreError):
    """A write failed because the disk is full or cannot be written; nothing was saved. The message is for players."""

    def __init__(self) -> None:
        super().__init__(
            "The bot could not save that: its storage is full or cannot be written right now. Nothing changed; "
            "try again in a moment (if it keeps happening, tell whoever runs the bot)."
        )


class MigrationError(StoreError):
    """A schema migration would have broken the data (dangling foreign keys); it was rolled back."""


class GameNotFoundError(StoreError, LookupError):
    """No game has that id."""


class StaleVersionError(StoreError):
    """The game changed since the caller read it (a double click, or two players at once)."""

    def __init__(self, message: str = "that move is out of date; the table has changed") -> None:
        super().__init__(message)


class GameStatusError(StoreError):
    """The game is not in a status that allows this (not a lobby any more, not running, already over)."""


class NotInLobbyError(GameStatusError):
    """Joining, leaving or starting a game that is no longer a lobby."""


class GameNotRunningError(GameStatusError):
    """A move for a game that has not started or is over."""


class GameAlreadyOverError(GameStatusError):
    """Cancelling a game that has already finished or been cancelled."""


class LobbyFullError(StoreError):
    """Every seat of the lobby is taken."""


class AlreadySeatedError(StoreError):
    """The player already has a seat in this game."""


class NotSeatedError(StoreError, LookupError):
    """The player (or seat number) is not part of this game."""


class HostCannotLeaveError(StoreError):
    """The host tried to leave their own lobby."""

    def __init__(self, message: str = "the host cannot leave; cancel the game instead") -> None:
        super().__init__(message)
