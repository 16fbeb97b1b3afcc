"""One action at a time per game across every process on one PostgreSQL: `service.ports.Coordinator`'s shared form.

An action holds the game's transaction-scoped advisory lock (`pg_advisory_xact_lock(game_id)`) on a connection of
its own while it reads, checks and saves the game; another process's action on that game waits for it. The lock is
the database's, so it holds whichever process a server's shard has moved to, and it ends with its transaction: a
process that dies, or loses its connection, leaves nothing held. Waiters within one process queue on an
`asyncio.Lock` first, so that they hold no connection while they wait.

Saving stays version-checked besides: an action whose lock was lost with its connection can still not overwrite a
move made meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

import asyncpg

from db.postgres.store import open_pool

log = logging.getLogger(__name__)

LOCK_POOL_SIZE: Final = 20  # actions in progress at once in one process (others wait for a connection)


class AdvisoryLocks:
    """Game locks on their own pool, apart from the store's, so that holding one never starves the store."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self._local: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @classmethod
    async def open(cls, url: str, *, size: int = LOCK_POOL_SIZE) -> AdvisoryLocks:
        """Locks on a new pool of connections to `url` (`db.postgres.store.open_pool`'s refusals)."""
        return cls(await open_pool(url, min_size=1, max_size=size))

    async def close(self) -> None:
        """Close the pool (after the locks held are released)."""
        await self.pool.close()

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[object]:
        """Held while one action reads, checks and saves the game, in this process and every other."""
        local = self._local.get(game_id)
        if local is None:
            local = self._local[game_id] = asyncio.Lock()
        async with local, self.pool.acquire() as conn:
            # BEGIN and the lock in one round trip (the simple protocol runs both; the id is an int, never text).
            await conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({int(game_id)})")
            try:
                yield local
            finally:
                # Nothing was written on this connection: ending the transaction only releases the lock. Should
                # the connection be gone, the server released it already, and the action's outcome stands.
                try:
                    await conn.execute("ROLLBACK")
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                    log.warning("game #%d: the lock's connection failed on release (%s)", game_id, error)
