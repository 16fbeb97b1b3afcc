"""Game storage in PostgreSQL, for a bot that runs as several processes or outgrows one machine.

The same ports and statements as SQLite (the roles composed by `db.sql_store.SqlStore`), on an asyncpg pool. The
promises are the same:
- an acknowledged move is committed: `synchronous_commit` stays on for every write that changes a game, so COMMIT
  returns once the WAL is flushed (PostgreSQL flushes the commits that wait together at once); notes on what Discord
  shows commit with `synchronous_commit = off`, whose loss to a crash of the server costs a redraw at most;
- every write that depends on what it read names the version it read, and first locks the game's row
  (`SELECT ... FOR UPDATE`), so that a process's read, check and write are never interleaved with another's;
- a finishing move locks its server's board for that game kind (an advisory lock for the transaction), so that two
  games finishing together never both read the same ratings;
- the schema is migrated by numbered files, each in its own transaction (`db.postgres.migrate`).

Several processes share the database: a delivery lease is claimed with `FOR UPDATE SKIP LOCKED`, and a lease or
lock of a process that dies ends with its lease's time or its connection.

One action at a time per game, across the processes (`hold_game`, the coordinator `db.postgres.locks.AdvisoryLocks`):
the action holds the game's advisory lock on a pooled connection, and its own statements run on that connection, so
that an action takes one connection from the pool rather than one per statement. The lock rides on the action's own
statements: its first read takes it, and a move's write gives it back (migration 0002), so that a move costs two
round trips rather than four; each round trip costs a process about a tenth of a move's time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar

import asyncpg

from db._codec import game_from_row, time_to_text
from db._queries import fetch_game, game_columns, marks
from db.errors import DatabaseBusyError, DatabaseUnusableError, GameBusyError, GameNotFoundError, StoreError
from db.postgres import faults
from db.postgres.connection import PgConnection, RawConnection
from db.postgres.migrate import migrate
from db.records import GameRecord
from db.sql import Connection
from db.sql_delivery import SqlDelivery
from db.sql_store import ALL_GAMES, UNFINISHED, SqlStore, T
from engine import registry
from engine.registry import game_class

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

_Lent: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"  # a connection the pool lent

log = logging.getLogger(__name__)

POOL_SIZE: Final = 10  # connections for statements outside the actions that hold a game
ACTIONS: Final = 20  # actions holding their game at once in one process (each on a pooled connection of its own)
# The longest an action waits for its game's lock (PostgreSQL's lock_timeout, for every lock a statement waits
# for), and for a free one of the ACTIONS, before it is refused as busy in words. A game's lock is held for a move's
# few milliseconds (a computer's decision: under half a second), so only a stalled holder, such as a process
# stopped but not dead, makes anyone wait this long; and a player is answered while still looking.
LOCK_WAIT_SECONDS: Final = 5
CONNECT_SECONDS: Final = 10  # a new connection that takes longer counts as the server unreachable
# Advisory lock keys of the two-integer form: (1, n) are the store's own, apart from the coordinator's game locks.
_BOARD_LOCK_SPACE: Final = 2
R = TypeVar("R")


async def open_pool(url: str, *, max_size: int = POOL_SIZE) -> asyncpg.Pool:
    """A pool of connections to the database at `url`, each waiting at most LOCK_WAIT_SECONDS for any lock.

    Connections are opened as they are needed (and closed after 5 idle minutes): a pool that kept a floor of them
    would try to restore it again and again while the server is down, logging a traceback each time, where the
    store says an outage in one line when it starts and one when it ends.

    Raises:
        DatabaseUnusableError: the server cannot be reached or refuses the connection (one line, no password).
    """
    pool: asyncpg.Pool | None = None
    try:
        pool = await asyncpg.create_pool(
            url, min_size=0, max_size=max_size, reset=_nothing_to_reset, init=_bound_lock_waits, timeout=CONNECT_SECONDS
        )
        async with pool.acquire():  # one connection now, so that a wrong URL is said at start-up
            pass
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        if pool is not None:
            await pool.close()
        reason = " ".join(str(error).split()) or type(error).__name__
        raise DatabaseUnusableError(
            f"PostgreSQL at DATABASE_URL cannot be used ({reason}); check that the server runs and the URL's host, "
            "database, user and password."
        ) from None
    return pool


async def _bound_lock_waits(conn: asyncpg.Connection) -> None:
    """Once per new connection: no statement waits for a lock longer than LOCK_WAIT_SECONDS.

    A session setting rather than a startup parameter, which poolers may refuse; migrations lift it for their own
    transactions (`db.postgres.migrate`), since a process migrating makes the others wait as long as it takes.
    """
    await conn.execute(f"SET lock_timeout = '{LOCK_WAIT_SECONDS}s'")


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """No reset query for a connection back in the pool: one round trip saved each time.

    asyncpg still rolls back a transaction left open; the bot sets nothing for a session (only `SET LOCAL`), and a
    game's session lock is released, or its connection closed, before the connection goes back (`hold_game`), so
    there is nothing else to reset.
    """


@dataclass(slots=True)
class _Held:
    """The connection an action holds its game's lock on, in the store and the task that took it.

    `locked` says whether the session holds the lock now: it is taken by the action's first statement, and a move's
    write may give it back (see `PostgresStore.hold_game`).
    """

    store: PostgresStore
    task: asyncio.Task[Any] | None
    raw: _Lent
    game_id: int
    locked: bool = False


_HELD: ContextVar[_Held | None] = ContextVar("postgres_held_game", default=None)


class PgDelivery(SqlDelivery):
    """What Discord shows, as `SqlDelivery` keeps it, with a claim that never waits for another process's."""

    async def claim_delivery(self, game_id: int, owner: str, until: datetime, now: datetime) -> GameRecord | None:
        """Lease the game's delivery to `owner` until `until`; None if another owner holds it, or is claiming it now.

        `FOR UPDATE SKIP LOCKED`: a process that finds the row locked by another's claim moves on at once.
        """
        async with self._db._bookkeeping() as conn:
            claimed = await conn.execute(
                """UPDATE games SET delivery_owner = ?, delivery_until = ?
                   WHERE id = (SELECT id FROM games
                               WHERE id = ? AND (delivery_owner IS NULL OR delivery_owner = ? OR delivery_until < ?)
                               FOR UPDATE SKIP LOCKED)""",
                (owner, time_to_text(until), game_id, owner, time_to_text(now)),
            )
            if not claimed.rowcount:
                return None
            return await fetch_game(conn, game_id, tolerate_bad_state=True)


class PostgresStore(SqlStore):
    """The bot's storage on PostgreSQL; `await PostgresStore.open(url)`, and `await store.close()` at the end."""

    delivery_role = PgDelivery

    def __init__(self, pool: asyncpg.Pool, own_games: str = ALL_GAMES) -> None:
        super().__init__(own_games)
        self.pool = pool
        self._actions = asyncio.Semaphore(ACTIONS)  # so that statements outside actions always find a connection
        # Actions' connections between actions: kept rather than given back, which costs the pool a task each time.
        self._spare: list[_Lent] = []
        self._outages = faults.Outages()  # the log's one line when the server goes, one when it is back

    @classmethod
    async def open(cls, url: str, *, own_games: str = ALL_GAMES, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Connect to `url` and migrate its schema; `own_games` (an SQL condition) picks this process's games.

        Raises:
            DatabaseUnusableError: the server cannot be reached, or refuses.
            SchemaTooNewError: a newer version of the bot migrated the database.
        """
        pool = await open_pool(url, max_size=pool_size + ACTIONS)
        try:
            async with pool.acquire() as conn:
                await migrate(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, own_games)

    def describe(self) -> str:
        """PostgreSQL, from DATABASE_URL (whose password, if any, stays out of the log)."""
        return "PostgreSQL (DATABASE_URL)"

    async def flush(self) -> None:
        """Nothing waits to be saved: every write is committed before it returns."""

    async def close(self) -> None:
        """Close the pool once the connections in use are back."""
        spare, self._spare = self._spare, []
        for raw in spare:
            await self.pool.release(raw)
        await self.pool.close()

    # -- one action at a time per game ----------------------------------------------------------------------------

    @asynccontextmanager
    async def hold_game(self, game_id: int) -> AsyncIterator[None]:
        """Held while one action reads, checks and saves the game, in this process and every other.

        The game's session-level advisory lock, on a pooled connection that this task's statements then use. A
        process that dies, or loses the connection, leaves nothing held: the server ends the lock with the session.

        The lock is taken with the action's first statement, which is its read of the game as a rule (`take_game`
        in the same statement), and is given back as the block ends, or with the move's write (`give_game` in its
        RETURNING, which holds the game's commit gate until that write commits). Whoever takes the lock next passes
        the gate before reading, and a read whose row changed while it waited for the lock is read again.

        A connection found dead is never used: a kept one whose session ended is dropped, and should the first
        statement find its connection lost all the same, it is tried once more on a fresh one (`_first`).

        Raises:
            DatabaseUnreachableError: the server cannot be reached.
            DatabaseBusyError: none of this process's ACTIONS came free within LOCK_WAIT_SECONDS.
            GameBusyError: (from the first statement) the game's lock was not free within LOCK_WAIT_SECONDS.
        """
        async with self._slot():
            raw = await self._action_connection()
            held = _Held(self, asyncio.current_task(), raw, game_id)
            token = _HELD.set(held)
            ended_well = False
            try:
                yield
                ended_well = True
            finally:
                _HELD.reset(token)
                try:
                    if held.locked:
                        await _unlock(held.raw, game_id)
                finally:
                    await self._put_back(held.raw, ended_well)

    @asynccontextmanager
    async def _slot(self) -> AsyncIterator[None]:
        """One of the process's ACTIONS, waited for LOCK_WAIT_SECONDS at most (stalled games may hold them all).

        Raises:
            DatabaseBusyError: none came free in time.
        """
        try:
            async with asyncio.timeout(LOCK_WAIT_SECONDS):
                await self._actions.acquire()
        except TimeoutError:
            log.info("no connection for an action came free within %d s; it is refused as busy", LOCK_WAIT_SECONDS)
            raise DatabaseBusyError() from None
        try:
            yield
        finally:
            self._actions.release()

    async def _action_connection(self) -> _Lent:
        """A kept connection that is still alive, else one from the pool.

        A kept connection dies with its server session (a restart, `pg_terminate_backend`, `idle_session_timeout`):
        the pool then takes it back and its proxy answers nothing more, so it is dropped here, costing no move.
        """
        while self._spare:
            raw = self._spare.pop()
            if _alive(raw):
                return raw
            await self.pool.release(raw)  # nothing if the pool took it back already; else the pool replaces it
        with self._storage_errors():
            lent: _Lent = await self.pool.acquire()
        return lent

    async def _first(self, held: _Held, statement: Callable[[RawConnection], Awaitable[R]]) -> R:
        """The action's first statement, which takes its game's lock; once more on a fresh connection if it was lost.

        Safe to repeat: a first statement only reads (and takes the lock), and one that failed with its connection
        lost holds nothing afterwards, since the server ends its session, and the lock with it.
        """
        try:
            return await statement(held.raw)
        except BaseException as error:
            _end_session(held.raw)  # the lock may have been taken all the same: the session ends, and it with it
            if not faults.connection_lost(error):
                if isinstance(error, faults.TROUBLE):
                    raise self._refused(error, held.game_id) from error
                raise
            log.info("game #%d: its action's connection was lost (%s); once more", held.game_id, faults.reason(error))
        await self.pool.release(held.raw)  # nothing if the pool took it back already
        held.raw = await self._action_connection()
        with self._taking(held):
            return await statement(held.raw)

    async def _put_back(self, raw: _Lent, ended_well: bool) -> None:
        """An action's connection, after the action: kept for the next one if it can be, else back to the pool.

        Only after an action that ended well: one that failed or was cancelled may have left a statement being
        cancelled, which the pool waits out.
        """
        try:
            reusable = ended_well and not raw.is_closed() and not raw.is_in_transaction()
        except asyncpg.InterfaceError:
            return  # ended (`_end_session`): the pool took it back already
        if reusable:
            self._spare.append(raw)
        else:
            await self.pool.release(raw)  # which replaces a closed connection, or rolls a transaction back

    def _held(self) -> _Held | None:
        """The game this task holds (see `hold_game`), if any.

        Only the task that took the lock uses its connection: a task started during the action inherits the
        context, but may outlive the action, and a connection runs one statement at a time.
        """
        held = _HELD.get()
        if held is None or held.store is not self or held.task is not asyncio.current_task():
            return None
        return held

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[RawConnection]:
        """The held game's connection in an action (its lock taken first), else one from the pool for the block."""
        held = self._held()
        if held is not None:
            if not held.locked:
                await self._first(held, lambda raw: raw.execute("SELECT take_game($1)", held.game_id))
                held.locked = True
            yield held.raw
        else:
            async with self.pool.acquire() as raw:
                yield raw

    async def _read_checked(self, game_id: int, unless_version: int | None) -> GameRecord:
        """The action's first read takes its game's lock in the same statement (see `hold_game`)."""
        held = self._held()
        if held is None or held.locked or held.game_id != game_id:
            return await super()._read_checked(game_id, unless_version)
        columns, parameters = game_columns(unless_version)
        # The statement's snapshot may predate the lock's wait: its row stands only if no commit changed it since.
        rows = await self._first(
            held,
            lambda raw: PgConnection(raw).execute_fetchall(
                f"SELECT {columns}, xmin = take_game(id) FROM games WHERE id = ?", (*parameters, game_id)
            ),
        )
        if not rows:
            raise GameNotFoundError(game_id)  # no row, so take_game never ran: nothing is held
        held.locked = True
        row = rows[0]
        if not row[-1]:
            return await super()._read_checked(game_id, unless_version)  # under the lock now
        return game_from_row(row[:-1])

    def _give_back_with(self, game_id: int) -> str | None:
        held = self._held()
        return "give_game(?)" if held is not None and held.locked and held.game_id == game_id else None

    def _given_back(self, game_id: int) -> None:
        held = self._held()
        if held is not None and held.game_id == game_id:
            held.locked = False

    # -- the hooks of SqlStore ----------------------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One durable write transaction (on the held game's connection in an action, else a pooled one)."""
        with self._storage_errors():
            async with self._connection() as raw, raw.transaction():
                yield PgConnection(raw)

    @asynccontextmanager
    async def _bookkeeping(self) -> AsyncIterator[Connection]:
        with self._storage_errors():
            async with self._connection() as raw, raw.transaction():
                await raw.execute("SET LOCAL synchronous_commit = off")
                yield PgConnection(raw)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        # Outside a transaction each statement sees every commit before it.
        with self._storage_errors():
            async with self._connection() as raw:
                yield PgConnection(raw)

    async def _run_single(self, write: Callable[[Connection], Awaitable[T]]) -> T:
        # One statement (its trigger included) is atomic on its own and commits, synchronously, as it returns: no
        # BEGIN and COMMIT round trips around it.
        with self._storage_errors():
            async with self._connection() as raw:
                return await write(PgConnection(raw))

    @asynccontextmanager
    async def _recovering(self) -> AsyncIterator[Connection]:
        async with self._connection() as raw:
            yield PgConnection(raw)

    @asynccontextmanager
    async def _begin_on(self, conn: Connection) -> AsyncIterator[Connection]:
        assert isinstance(conn, PgConnection)
        with self._storage_errors():
            async with conn.raw.transaction():
                yield conn

    async def _lock_game(self, conn: Connection, game_id: int) -> None:
        await conn.execute("SELECT 1 FROM games WHERE id = ? FOR UPDATE", (game_id,))

    async def _lock_board(self, conn: Connection, game: GameRecord) -> None:
        await conn.execute(
            "SELECT pg_advisory_xact_lock(?, hashtext(?))", (_BOARD_LOCK_SPACE, f"{game.guild_id}:{game.kind}")
        )

    async def _start_up_rows(self, conn: Connection) -> Iterable[Sequence[Any]]:
        # json_valid (the schema's function, as SQLite's) guards the cast: a damaged snapshot reads as NULL.
        keys = [(kind, game_class(kind).MOVE_COUNT_KEY) for kind in registry.KINDS]
        snapshot_moves = "CASE kind " + " ".join("WHEN ? THEN ?" for _ in keys) + " END"
        return await conn.execute_fetchall(
            f"""SELECT id, status, kind, move_count,
                       CASE WHEN json_valid(state) THEN state::jsonb ->> 'kind' END,
                       CASE WHEN json_valid(state) THEN (state::jsonb ->> ({snapshot_moves}))::integer END,
                       (SELECT max(seq) FROM moves WHERE moves.game_id = games.id)
                FROM games WHERE status IN ({marks(UNFINISHED)}) AND {self.own_games} ORDER BY id""",
            (*(value for pair in keys for value in pair), *UNFINISHED),
        )

    # -- where several processes meet --------------------------------------------------------------------------------

    # -- what a failure of the server means ----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _storage_errors(self) -> Iterator[None]:
        """A statement the server could not take becomes a refusal players can read; the log says an outage once.

        A connection lost in the middle of a COMMIT leaves unknown whether it landed; a move said unsaved that did
        land is then refused as out of date when tried again, and the table shows it.
        """
        try:
            yield
        except faults.TROUBLE as error:
            raise self._refused(error, None) from error
        self._outages.succeeded()

    @contextlib.contextmanager
    def _taking(self, held: _Held) -> Iterator[None]:
        """Around a statement that takes the held game's lock.

        If the statement fails, or is cancelled, the lock may have been taken all the same: the session ends, and
        the lock with it. A lock not free in time means the game is busy, and is said so.
        """
        try:
            yield
        except BaseException as error:
            _end_session(held.raw)
            if isinstance(error, faults.TROUBLE):
                raise self._refused(error, held.game_id) from error
            raise
        self._outages.succeeded()

    def _refused(self, error: BaseException, game_id: int | None) -> StoreError:
        """The refusal for a failure of the server or the connection (`faults.TROUBLE`), noted for the log."""
        if game_id is not None and isinstance(error, asyncpg.LockNotAvailableError):
            log.info("game #%d: its lock was not free within %d s; refused as busy", game_id, LOCK_WAIT_SECONDS)
            return GameBusyError(game_id)
        refused = faults.refusal(error)
        assert refused is not None, error
        self._outages.failed(refused, error)
        return refused


async def _unlock(raw: RawConnection, game_id: int) -> None:
    """Release the game's lock before its connection goes back to the pool; if that fails, close the connection."""
    try:
        await raw.execute("SELECT pg_advisory_unlock($1)", game_id)
    except Exception as error:  # whatever failed, ending the session releases the lock
        # Lost, or busy with a statement the action left behind: the session ends, and the lock with it. The
        # action's outcome stands (what it saved was committed, or was not).
        log.warning("game #%d: its lock could not be released (%s); closing its connection", game_id, error)
        _end_session(raw)
    except BaseException:
        _end_session(raw)
        raise


def _end_session(raw: RawConnection) -> None:
    """Close the connection at once (its locks end with it), unless it is gone already."""
    with contextlib.suppress(asyncpg.InterfaceError):  # lost: the pool took it back, and the server ended the session
        raw.terminate()


def _alive(raw: _Lent) -> bool:
    """Whether a kept connection still has its server session (a proxy the pool took back answers nothing)."""
    try:
        return not raw.is_closed()
    except asyncpg.InterfaceError:
        return False
