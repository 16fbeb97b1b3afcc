"""What a failure of PostgreSQL means, in the store's own refusals, and one log line per outage rather than per move.

Players are told the cause in words (`service.errors.store_message`), so each failure is sorted by what happened:
- the server cannot be reached (`DatabaseUnreachableError`): refused or lost connections, an administrator's or a
  crash's shutdown (57P01, 57P02), a server not yet taking connections (57P03), a session ended by a timeout;
- the server is up but busy (`DatabaseBusyError`): too many connections (53300), a statement timeout (57014), a lock
  not free in time (55P03) that is not a game's own (that one is `GameBusyError`, said with the game), out of memory;
- the storage cannot be written (`StorageUnavailableError` as such): disk full (53100), read-only (25006).

Every other error is the statement's own (a bug) and passes through unchanged.
"""

from __future__ import annotations

import logging
import time
from typing import Final

import asyncpg

from db.errors import DatabaseBusyError, DatabaseUnreachableError, StorageUnavailableError

log = logging.getLogger(__name__)

UNWRITABLE: Final = (asyncpg.DiskFullError, asyncpg.ReadOnlySQLTransactionError)
BUSY: Final = (
    asyncpg.QueryCanceledError,  # 57014, a statement_timeout; an OperatorInterventionError, so sorted before those
    asyncpg.LockNotAvailableError,
    asyncpg.InsufficientResourcesError,  # 53300 too many connections, 53200 out of memory (53100 is UNWRITABLE)
    asyncpg.TransactionRollbackError,  # a deadlock or serialization failure: nothing was applied; try again
)
# The connection or the server went away. A connection closed under us (the pool took back a proxy whose connection
# died) raises InterfaceError; one dropped in the middle of a statement InternalClientError or an OSError.
LOST: Final = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.OperatorInterventionError,  # 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now …
    asyncpg.IdleInTransactionSessionTimeoutError,
)
TROUBLE: Final = UNWRITABLE + BUSY + LOST


def refusal(error: BaseException) -> StorageUnavailableError | None:
    """The refusal `error` stands for (None: not a failure of the server or the connection)."""
    if isinstance(error, UNWRITABLE):
        return StorageUnavailableError()
    if isinstance(error, BUSY):
        return DatabaseBusyError()
    if isinstance(error, LOST):
        return DatabaseUnreachableError()
    return None


def connection_lost(error: BaseException) -> bool:
    """Whether `error` says that the connection itself is gone (so a read may be tried again on a fresh one)."""
    return isinstance(error, LOST) and not isinstance(error, (asyncpg.CannotConnectNowError, *BUSY))


def reason(error: BaseException) -> str:
    """The error in one line, for the log."""
    return " ".join(str(error).split()) or type(error).__name__


class Outages:
    """One warning when a kind of trouble starts (the server gone, busy, full), one line when it ends.

    Every refused action is counted, not logged: an outage of a minute under play would otherwise write a line per
    move. The first statement that succeeds afterwards ends every trouble under way.
    """

    def __init__(self) -> None:
        self._since: dict[type[StorageUnavailableError], float] = {}
        self._refused: dict[type[StorageUnavailableError], int] = {}

    def failed(self, refused: StorageUnavailableError, error: BaseException) -> None:
        """An action was refused with `refused` because of `error`."""
        kind = type(refused)
        self._refused[kind] = self._refused.get(kind, 0) + 1
        if kind in self._since:
            log.debug("PostgreSQL still %s (%s)", _WHAT[kind][0], reason(error))
            return
        self._since[kind] = time.monotonic()
        log.warning("PostgreSQL %s (%s); actions are refused in words until it recovers", _WHAT[kind][0], reason(error))

    def succeeded(self) -> None:
        """A statement went through: any trouble under way is over."""
        if not self._since:
            return
        now = time.monotonic()
        for kind, since in self._since.items():
            log.warning(
                "PostgreSQL %s after %.0f s (%d actions refused meanwhile)",
                _WHAT[kind][1],
                now - since,
                self._refused.get(kind, 0),
            )
        self._since.clear()
        self._refused.clear()

    @property
    def under_way(self) -> bool:
        """Whether some trouble has started and not ended yet."""
        return bool(self._since)


# How the log says each trouble starts, and how it ends.
_WHAT: Final[dict[type[StorageUnavailableError], tuple[str, str]]] = {
    StorageUnavailableError: ("cannot write (disk full or read-only)", "can write again"),
    DatabaseBusyError: ("is too busy (too many connections, a statement timeout, a lock not free)", "is busy no more"),
    DatabaseUnreachableError: ("cannot be reached", "can be reached again"),
}
