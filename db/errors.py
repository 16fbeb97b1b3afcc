"""Errors the store raises. Refusals a player can cause carry a sentence the bot may show unchanged."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every storage refusal; nothing was written when one is raised."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot than this one."""


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


class DatabaseLockedError(StoreError):
    """Another bot process holds the database file."""


class DatabaseUnusableError(StoreError):
    """The database file cannot be used as it is."""


class DatabaseCorruptError(DatabaseUnusableError):
    """The file is damaged or is not a database."""


class DatabaseUnwritableError(DatabaseUnusableError):
    """The file or its file system cannot be written."""
