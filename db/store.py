"""Game storage in SQLite, the default backend: lobbies, running games, their move logs, results and ratings.

The statements themselves are shared with PostgreSQL (`db.sql_store.SqlStore`); this module holds what is SQLite's
own: its connections, transactions, group commit, durability settings, the file lock and the start-up query.

One `Store` owns one aiosqlite connection for writing, opened in autocommit mode (`isolation_level=None`) so that
only our own `BEGIN IMMEDIATE` starts a transaction. Every write of more than one statement goes through
`Store.transaction()`, which holds an `asyncio.Lock`: aiosqlite runs all calls of a connection on one thread, so
without the lock two coroutines would share (and could roll back) each other's transaction. An ordinary `save_move`
is a single statement, atomic on its own: moves that arrive together are saved by one COMMIT (group commit,
`db/_group_commit.py`), each answered only after it. Plain reads go to a second, read-only connection: in WAL mode
each of its statements sees the last commit and nothing in progress, without waiting for a write or its fsync (two
reads in a row may see a commit land between them; a read that must agree with a write runs in its transaction).

Durability: WAL journal with `synchronous=FULL`. A COMMIT returns only after the WAL has been fsync'd, so once
`save_move` has returned, the move is on disk:
- the bot killed at any moment (kill -9, OOM killer, crash): every acknowledged move survives; a transaction cut
  short is rolled back as a whole when the file is next opened (kill -9 alone would be covered by NORMAL too);
- power loss or an OS crash: every acknowledged move survives as well, as long as the disk honours flush requests
  (a drive or virtual disk that acknowledges writes still in a volatile cache can lose the latest ones; the file
  then stays consistent but older). NORMAL would lose the last moves before a power cut; that is why it is not
  used. The cost is one fsync per move (measured by `python -m bench.bench_db`).

Bookkeeping of what Discord shows (delivery leases, message ids, panel digests, the notices posted) is written
without a flush (`synchronous=NORMAL` for that one commit): in WAL mode such a commit survives the process being
killed like any other, and only a power loss can take it back, which costs at most one redundant redraw or notice.
So a move costs one flush to disk however many of these notes its delivery writes (`CommitCounts`).

One process per file: `open` takes an flock on `<file>.lock` (see `db/_opening.py`) and refuses a file another
process holds, or one that is damaged or cannot be written, with a one-line `StoreError`. Other SQLite clients can
still write, so every write that depends on what was read names the version it read.

The caller owns the clock: every method that stamps a time takes `now` (an aware UTC datetime).
Needs SQLite 3.37 or newer (STRICT tables, RETURNING).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import aiosqlite

from db._group_commit import GroupCommit
from db._opening import DatabaseLock, corrupt_pages, folder_error, from_os_error, from_sqlite_error
from db._queries import marks
from db.errors import (
    DatabaseCorruptError,
    SchemaTooNewError,
    StorageUnavailableError,
    StoreError,
)
from db.migrate import migrate
from db.sql import Connection
from db.sql_store import ALL_GAMES, CANCELLABLE, UNFINISHED, SqlStore, T
from engine import registry
from engine.registry import game_class

__all__ = ["BOOKKEEPING_SYNCHRONOUS", "CANCELLABLE", "SYNCHRONOUS", "UNFINISHED", "CommitCounts", "Store"]

log = logging.getLogger(__name__)

SYNCHRONOUS: Final = "FULL"
BOOKKEEPING_SYNCHRONOUS: Final = "NORMAL"  # WAL: survives a killed process, not always a power loss
BUSY_TIMEOUT_MS: Final = 5000
_MIN_SQLITE: Final = (3, 37, 0)


@dataclass(slots=True)
class CommitCounts:
    """Commits made since the store opened: `synchronous` ones wait for a flush to disk, `unflushed` ones do not."""

    synchronous: int = 0
    unflushed: int = 0


class Store(SqlStore):
    """The bot's storage; open it with `await Store.open(path)` and close it with `await store.close()`."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        file_lock: DatabaseLock | None = None,
        reader: aiosqlite.Connection | None = None,
    ) -> None:
        super().__init__(ALL_GAMES)  # one process per file: every game is this process's
        self._conn = conn
        self._reader = reader  # read-only, for reads that need not wait for writes (None: reads share `conn`)
        self._lock = asyncio.Lock()
        self._file_lock = file_lock
        self.path = path
        self.commits = CommitCounts()
        # Ordinary moves, committed together when they arrive together; each round is one synchronous commit.
        self._group = GroupCommit(conn, self._lock, on_commit=self._count_synchronous)

    # -- connection -------------------------------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Lock, check and migrate the database at `path`, creating the folder and file if needed.

        Only one process may have a database open: the lock is released by `close()`, or by the OS when the
        process ends. `PRAGMA quick_check` reads every page before anything is written, so a damaged file is
        refused at start-up rather than in the middle of a game.

        Raises:
            DatabaseLockedError: another process has the file open.
            DatabaseCorruptError: not a database, truncated, or damaged pages.
            DatabaseUnwritableError: read-only file or file system, permission denied, or the disk is full.
            DatabaseUnusableError: any other reason the file cannot be used (a folder, an I/O error).
            SchemaTooNewError: the file was written by a newer version of the bot.
            StoreError: this Python's SQLite library is too old, or the file cannot use WAL.
        """
        if sqlite3.sqlite_version_info < _MIN_SQLITE:
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old; the bot needs 3.37 or newer")
        path = Path(path)
        if path.is_dir():
            raise folder_error(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise from_os_error(path, error) from None
        lock = DatabaseLock.acquire(path)
        conn: aiosqlite.Connection | None = None
        reader: aiosqlite.Connection | None = None
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
            await _configure(conn, path)
            await _probe_write(conn, await migrate(conn))
            reader = await _open_reader(path)
        except BaseException as error:
            for opened in (reader, conn):
                if opened is not None:
                    with contextlib.suppress(sqlite3.Error):
                        await opened.close()
            lock.release()
            if isinstance(error, SchemaTooNewError):
                raise SchemaTooNewError(f"{path}: {error}") from None
            if isinstance(error, sqlite3.Error) and (reason := from_sqlite_error(path, error)) is not None:
                raise reason from None
            if isinstance(error, OSError):
                raise from_os_error(path, error) from None
            raise
        return cls(conn, path, lock, reader)

    def describe(self) -> str:
        """The database file's path."""
        return str(self.path)

    async def flush(self) -> None:
        """Wait until every move queued so far is saved or refused (a caller that stopped waiting does not stop it)."""
        await self._group.drain()

    async def close(self) -> None:
        """Close the connections, after a transaction in progress has finished, then release the file's lock."""
        await self.flush()
        async with self._lock:
            try:
                if self._reader is not None:
                    await self._reader.close()
                await self._conn.close()
            finally:
                if self._file_lock is not None:
                    self._file_lock.release()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """`async with store.transaction() as conn:` one write transaction: BEGIN IMMEDIATE, then COMMIT or ROLLBACK.

        Raises:
            StorageUnavailableError: the disk is full or cannot be written; nothing was saved.
        """
        with self._storage_errors():
            async with self._lock, self._begin() as conn:
                yield conn
        self._count_synchronous()

    @contextlib.contextmanager
    def _storage_errors(self) -> Iterator[None]:
        """A write the disk refused becomes a refusal players can read; the log says what the admin should do."""
        try:
            yield
        except sqlite3.Error as error:
            reason = from_sqlite_error(self.path, error)
            if reason is None or isinstance(reason, DatabaseCorruptError):
                raise
            log.warning("a write was refused: %s", reason)
            raise StorageUnavailableError() from error

    @asynccontextmanager
    async def _bookkeeping(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction committed without a flush: for notes whose loss costs only a redraw (see the top)."""
        with self._storage_errors():
            async with self._lock:
                await self._conn.execute(f"PRAGMA synchronous = {BOOKKEEPING_SYNCHRONOUS}")
                try:
                    async with self._begin() as conn:
                        yield conn
                finally:
                    await self._conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        self.commits.unflushed += 1

    def _count_synchronous(self) -> None:
        self.commits.synchronous += 1

    @asynccontextmanager
    async def _begin(self) -> AsyncIterator[aiosqlite.Connection]:
        # Only with self._lock held. aiosqlite runs a connection's calls in the order they were queued, and a call
        # is queued as soon as it is awaited; so even when this task is cancelled mid-await, the ROLLBACK below
        # runs after the statement it undoes, and before any later transaction's BEGIN.
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
            yield self._conn
            await self._conn.execute("COMMIT")
        except BaseException:
            await self._rollback()
            raise

    async def _rollback(self) -> None:
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            # No transaction is open: BEGIN failed, COMMIT went through, or SQLite already rolled back on its own.
            log.debug("no transaction left to roll back")

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        # A read on the reader connection sees every committed write and none in progress (WAL: each statement
        # reads the last commit), so it need not wait for a write, nor its fsync. Without a reader, the lock keeps a
        # read on the one connection from seeing another coroutine's transaction half done.
        if self._reader is not None:
            yield self._reader
            return
        async with self._lock:
            yield self._conn

    async def _run_single(self, write: Callable[[Connection], Awaitable[T]]) -> T:
        # A single statement (trigger included) is atomic on its own, so it goes through group commit: those that
        # arrive while a commit is under way are saved together, by one COMMIT (db/_group_commit.py).
        with self._storage_errors():
            result: T = await self._group.run(write)
        return result

    @asynccontextmanager
    async def _recovering(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield self._conn

    @asynccontextmanager
    async def _begin_on(self, conn: Connection) -> AsyncIterator[Connection]:
        async with self._begin() as began:
            yield began

    async def _start_up_rows(self, conn: Connection) -> Iterable[Sequence[Any]]:
        paths = [(kind, f"$.{game_class(kind).MOVE_COUNT_KEY}") for kind in registry.KINDS]
        snapshot_moves = "CASE kind " + " ".join("WHEN ? THEN ?" for _ in paths) + " END"
        return await conn.execute_fetchall(
            f"""SELECT id, status, kind, move_count,
                       CASE WHEN json_valid(state) THEN json_extract(state, '$.kind') END,
                       CASE WHEN json_valid(state) THEN json_extract(state, {snapshot_moves}) END,
                       (SELECT max(seq) FROM moves WHERE moves.game_id = games.id)
                FROM games WHERE status IN ({marks(UNFINISHED)}) ORDER BY id""",
            (*(value for pair in paths for value in pair), *UNFINISHED),
        )


async def _configure(conn: aiosqlite.Connection, path: Path) -> None:
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    # Before the first write: a damaged file is refused as it is, not made worse.
    problems = [row[0] for row in await conn.execute_fetchall("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise corrupt_pages(path, problems)
    rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
    mode = next(iter(rows))[0]
    if mode != "wal":
        raise StoreError(f"the database could not switch to WAL mode (it is in {mode!r} mode)")
    # PRAGMA values cannot be parameters; these are constants of this module.
    await conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
    await conn.execute("PRAGMA foreign_keys = ON")


async def _open_reader(path: Path) -> aiosqlite.Connection:
    """A second, read-only connection: in WAL mode its reads go on while the first one writes and flushes."""
    reader = await aiosqlite.connect(path, isolation_level=None)
    try:
        await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await reader.execute("PRAGMA query_only = ON")
    except BaseException:
        await reader.close()
        raise
    return reader


async def _probe_write(conn: aiosqlite.Connection, version: int) -> None:
    """Fail now, not at the first move, when SQLite could only open the file read-only; changes nothing."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        # PRAGMA takes no parameters; `version` is the int the migration runner returned.
        await conn.execute(f"PRAGMA user_version = {version}")
    finally:
        await conn.execute("ROLLBACK")
