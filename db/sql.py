"""What the store's SQL needs of a database connection, whichever database it is.

The store's statements are written once, in the SQL both backends read: `?` marks for parameters (`?1` for a
numbered one), plain `CASE` rather than either database's own functions. `aiosqlite.Connection` satisfies
`Connection` as it is; `db.postgres.connection.PgConnection` wraps an asyncpg connection to do the same.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from typing import Any, Protocol


class Cursor(Protocol):
    """What a write reports: how many rows it changed."""

    @property
    def rowcount(self) -> int:
        """Rows changed by the statement."""
        ...


class Connection(Protocol):
    """One connection's statements, each awaited: `execute`, `execute_fetchall` and `executemany`."""

    def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> Awaitable[Cursor]:
        """Run one statement."""
        ...

    def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None) -> Awaitable[Iterable[Any]]:
        """Run one statement and return all its rows (each indexable by column position)."""
        ...

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Awaitable[Cursor]:
        """Run one statement once per parameter tuple."""
        ...
