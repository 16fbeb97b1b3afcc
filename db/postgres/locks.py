"""One action at a time per game across every process on one PostgreSQL: `service.ports.Coordinator`'s shared form.

An action holds the game's advisory lock (`PostgresStore.hold_game`) while it reads, checks and saves the game;
another process's action on that game waits for it, LOCK_WAIT_SECONDS at most. The lock is the database's, so it
holds whichever process a server's shard has moved to, and it ends with its connection: a process that dies, or
loses its connection, leaves nothing held. Waiters within one process queue on an `asyncio.Lock` first, so that
they hold no connection while they wait.

Saving stays version-checked besides: an action whose lock was lost with its connection can still not overwrite a
move made meanwhile.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from db.errors import GameBusyError
from db.postgres.store import LOCK_WAIT_SECONDS, PostgresStore


class AdvisoryLocks:
    """Game locks taken through `store`, whose statements in an action then run on the lock's connection."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store
        self._local: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[object]:
        """Held while one action reads, checks and saves the game, in this process and every other.

        Every wait is bounded by LOCK_WAIT_SECONDS: here, behind this process's other actions on the game; then for
        a free connection, and for the game's lock on the server (`PostgresStore.hold_game`). A game stalled by a
        holder that never lets go (a process stopped but not dead) is refused in words, and holds at most one of the
        process's connections while other games play on.

        Raises:
            GameBusyError: the game's lock was not free in time (nothing is held).
            DatabaseUnreachableError, DatabaseBusyError: the server cannot be reached, or is busy (nothing is held).
        """
        local = self._local.get(game_id)
        if local is None:
            local = self._local[game_id] = asyncio.Lock()
        try:
            async with asyncio.timeout(LOCK_WAIT_SECONDS):
                await local.acquire()
        except TimeoutError:
            raise GameBusyError(game_id) from None
        try:
            async with self.store.hold_game(game_id):
                yield local
        finally:
            local.release()
