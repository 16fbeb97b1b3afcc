"""The connections and transactions the SQL roles share: what a backend (SQLite, PostgreSQL) provides.

A backend supplies its connections and its transactions through the hooks of `SqlBackend`: `transaction` (a durable
write), `_bookkeeping` (a write whose loss costs only a redraw), `_reading`, `_run_single` (one statement, atomic on
its own: SQLite commits those of many coroutines together), `_recovering` and `_begin_on` (the start-up check's own
connection and transactions), and the few statements its database says its own way. The roles (`db.sql_games`,
`db.sql_checks`, `db.sql_delivery`, `db.sql_boards`, `db.sql_settings`, `db.sql_members`) are written once on these
hooks, for both databases; `db.sql_store.SqlStore` composes them.

Every write that depends on what it read names the version it read, and a backend where several processes write
at once (PostgreSQL) locks the game's row first (`_lock_game`): the read, the check and the write then see one game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Final, TypeVar

from db._queries import fetch_game
from db.records import GameRecord, GameStatus
from db.sql import Connection

UNFINISHED: Final[tuple[GameStatus, ...]] = ("lobby", "running")
# Statuses a game may be cancelled from: a frozen game is cleared by cancelling it.
CANCELLABLE: Final[tuple[GameStatus, ...]] = (*UNFINISHED, "frozen")
ALL_GAMES: Final = "1 = 1"

T = TypeVar("T")


def shard_condition(shard_ids: Iterable[int], shard_count: int) -> str:
    """The SQL condition for games of servers on `shard_ids` (Discord's rule: (guild_id >> 22) % shard_count).

    Raises:
        ValueError: no shard, or a shard id outside 0..shard_count-1.
    """
    ids = sorted(set(shard_ids))
    if not ids or shard_count < 1 or not all(0 <= shard < shard_count for shard in ids):
        raise ValueError(f"shard ids {ids} must be within 0..{shard_count - 1}")
    # Plain integers checked above: safe to write into the statement, and both databases read this form.
    return f"((guild_id / 4194304) % {shard_count}) IN ({', '.join(str(shard) for shard in ids)})"


class SqlBackend:
    """A database's connections and transactions, as the SQL roles use them; a backend subclass gives them."""

    def __init__(self, own_games: str = ALL_GAMES) -> None:
        # The games this process looks after in the background (start-up check, timers, computers, catching up):
        # every game with one process; with several, the games of its shards' servers.
        self.own_games = own_games

    # -- what a backend provides ------------------------------------------------------------------------------------

    def describe(self) -> str:
        """Where the games are kept, for the log (never a password)."""
        raise NotImplementedError

    async def flush(self) -> None:
        """Wait until every write queued so far is saved or refused."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close the connections once the writes in progress are done."""
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One durable write transaction: committed (and on disk) when the block ends, rolled back if it raises."""
        raise NotImplementedError

    def _bookkeeping(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction for notes on what Discord shows: losing it to a power cut costs only a redraw."""
        raise NotImplementedError

    def _reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads that see every committed write."""
        raise NotImplementedError

    async def _run_single(self, write: Callable[[Connection], Awaitable[T]]) -> T:
        """Run and commit `write`, one statement (with reads), durably; its result once committed."""
        raise NotImplementedError

    def _recovering(self) -> AbstractAsyncContextManager[Connection]:
        """The connection the start-up check reads and writes with, held for the whole check of one game."""
        raise NotImplementedError

    def _begin_on(self, conn: Connection) -> AbstractAsyncContextManager[Connection]:
        """A durable transaction on the start-up check's connection."""
        raise NotImplementedError

    async def _read_checked(self, game_id: int, unless_version: int | None) -> GameRecord:
        """A checked game's read (`fetch_game`); a backend may take the game's action lock with it.

        Raises:
            GameNotFoundError: no game has this id.
        """
        async with self._reading() as conn:
            return await fetch_game(conn, game_id, unless_version=unless_version)

    def _give_back_with(self, game_id: int) -> str | None:
        """A column for a move's RETURNING that gives the game's action lock back as the move is saved, if any.

        A backend whose action lock is held that way (`PostgresStore.hold_game`) gives SQL with one `?`, for the
        game's id; the move's write then calls `_given_back`. None: nothing to give back.
        """
        return None

    def _given_back(self, game_id: int) -> None:
        """The move's write gave the game's action lock back (see `_give_back_with`)."""

    async def _lock_game(self, conn: Connection, game_id: int) -> None:
        """Within a transaction: keep other writers off the game until it ends (nothing to do with one writer)."""

    async def _lock_board(self, conn: Connection, game: GameRecord) -> None:
        """Within a transaction: keep other writers off the game's ratings until it ends (nothing with one writer)."""

    async def _start_up_rows(self, conn: Connection) -> Iterable[Sequence[Any]]:
        """Unfinished games as (id, status, kind, move_count, snapshot's kind, snapshot's move count, last logged)."""
        raise NotImplementedError
