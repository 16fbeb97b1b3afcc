"""An asyncpg connection that runs the store's shared statements (`db.sql.Connection`).

The statements are written with SQLite's `?` marks; PostgreSQL numbers its parameters (`$1`), reads no booleans as
integers, and aggregates a game's seats in its own words. `to_postgres` rewrites a statement once (cached), and
`PgConnection` converts the values on the way in.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import asyncpg

from db._codec import SEATS_JSON, SEATS_JSON_POSTGRES

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

# A connection of its own, or one lent by a pool (generic only in the type stubs).
RawConnection: TypeAlias = "asyncpg.Connection | PoolConnectionProxy[asyncpg.Record]"
# A string literal (left as it is) or a parameter mark: `?` or `?N`.
_LITERAL_OR_MARK: Final = re.compile(r"'(?:[^']|'')*'|\?(\d*)")


@functools.lru_cache(maxsize=512)
def to_postgres(sql: str) -> str:
    """`sql` with PostgreSQL's parameter marks and seats aggregate.

    Raises:
        ValueError: plain `?` and numbered `?N` marks mixed in one statement.
    """
    plain = 0
    numbered = False

    def mark(match: re.Match[str]) -> str:
        nonlocal plain, numbered
        text = match.group(0)
        if text.startswith("'"):
            return text
        if match.group(1):
            numbered = True
            return f"${match.group(1)}"
        plain += 1
        return f"${plain}"

    rewritten = _LITERAL_OR_MARK.sub(mark, sql.replace(SEATS_JSON, SEATS_JSON_POSTGRES))
    if plain and numbered:
        raise ValueError("a statement uses either ? or ?N marks, not both")
    return rewritten


def _values(parameters: Iterable[Any] | None) -> list[Any]:
    # The schema keeps flags as 0/1 integers (as SQLite does); asyncpg encodes a bool only for a boolean column.
    return [int(value) if isinstance(value, bool) else value for value in parameters or ()]


@dataclass(frozen=True, slots=True)
class Done:
    """A statement's outcome: the rows it changed (`db.sql.Cursor`)."""

    rowcount: int


def _rowcount(status: str) -> int:
    # asyncpg returns the command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0".
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgConnection:
    """`db.sql.Connection` over one asyncpg connection (`raw`)."""

    __slots__ = ("raw",)

    def __init__(self, raw: RawConnection) -> None:
        self.raw = raw

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> Done:
        """Run one statement; how many rows it changed."""
        return Done(_rowcount(await self.raw.execute(to_postgres(sql), *_values(parameters))))

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] | None = None) -> Sequence[asyncpg.Record]:
        """Run one statement and return its rows."""
        rows: list[asyncpg.Record] = await self.raw.fetch(to_postgres(sql), *_values(parameters))
        return rows

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Done:
        """Run one statement once per parameter tuple (in the caller's transaction)."""
        await self.raw.executemany(to_postgres(sql), [_values(row) for row in parameters])
        return Done(-1)  # asyncpg does not count them; the store never asks
