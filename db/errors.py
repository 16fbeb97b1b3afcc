"""Errors the store raises.

Refusals a player can cause (a full lobby, a stale click, a game no longer running) carry the facts as attributes,
never a sentence: the service says each kind as a message (`service.errors.refusal_message`), so the store holds no
player's words. Their `str()` names the facts, for logs. Errors only whoever runs the bot sees (a locked, damaged or
too new database) keep their sentence for that person.
"""

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
    """The storage could not take the action; nothing was saved, and players are told why in words.

    Raised as such, it means the disk is full or cannot be written (SQLite's full or read-only file, PostgreSQL's
    disk full 53100 or read-only transaction 25006). Each other cause has its own subclass, so that nobody is told
    "full" when the server is only gone or busy.
    """

    def __init__(self, reason: str = "storage full or not writable") -> None:
        super().__init__(f"{reason}; nothing was saved")


class DatabaseUnreachableError(StorageUnavailableError):
    """The database server cannot be reached: refused or lost connections, a server shutting down or starting."""

    def __init__(self) -> None:
        super().__init__("the database cannot be reached")


class DatabaseBusyError(StorageUnavailableError):
    """The database server is up but too busy: too many connections, a statement timeout, no connection free."""

    def __init__(self) -> None:
        super().__init__("the database is busy")


class GameBusyError(StoreError):
    """The game's lock was not free within the bound (another action holds it, perhaps a stalled process's)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game_id={game_id} is busy")
        self.game_id = game_id


class MigrationError(StoreError):
    """A schema migration would have broken the data (dangling foreign keys); it was rolled back."""


class GameNotFoundError(StoreError, LookupError):
    """No game has that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game_id={game_id}")
        self.game_id = game_id


class StaleVersionError(StoreError):
    """The game changed since the caller read it (a double click, or two players at once)."""

    def __init__(self) -> None:
        super().__init__("the game's version moved on")


class GameStatusError(StoreError):
    """The game is not in a status that allows this (not a lobby any more, not running, already over)."""

    def __init__(self, status: str) -> None:
        super().__init__(f"status={status}")
        self.status = status  # the game's status now: `lobby`, `running`, `frozen`, `cancelled` or `finished`


class NotInLobbyError(GameStatusError):
    """Joining, leaving or starting a game that is no longer a lobby."""


class GameNotRunningError(GameStatusError):
    """A move for a game that has not started or is over."""


class GameAlreadyOverError(GameStatusError):
    """Cancelling a game that has already finished or been cancelled."""


class LobbyFullError(StoreError):
    """Every seat of the lobby is taken."""

    def __init__(self, taken: int, seats: int) -> None:
        super().__init__(f"taken={taken}, seats={seats}")
        self.taken = taken
        self.seats = seats


class AlreadySeatedError(StoreError):
    """The player already has a seat in this game."""

    def __init__(self) -> None:
        super().__init__("already seated")


class NotSeatedError(StoreError, LookupError):
    """The player, the computer called `name`, or seat number `seat` is not part of this game."""

    def __init__(self, *, name: str | None = None, seat: int | None = None) -> None:
        super().__init__(f"name={name!r}, seat={seat}")
        self.name = name  # a computer player's name the host asked to remove
        self.seat = seat  # a seat number a bookkeeping write named (not a player's doing)


class HostCannotLeaveError(StoreError):
    """The host tried to leave their own lobby (they cancel it instead)."""

    def __init__(self) -> None:
        super().__init__("the host cannot leave")
