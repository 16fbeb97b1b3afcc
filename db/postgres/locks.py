"""One action at a time per game across every process on one PostgreSQL: `service.ports.Coordinator`'s shared form.

An action holds the game's advisory lock (`PostgresStore.hold_game`) while it reads, checks and saves the game;
another process's action on that game waits for it. The lock is the database's, so it holds whichever process a
server's shard has moved to, and it ends with its connection: a process that dies, or loses its connection, leaves
nothing held. Waiters within one process queue on an `asyncio.Lock` first, so that they hold no connection while
they wait.

Saving stays version-checked besides: an action whose lock was lost with its connection can still not overwrite a
move made meanwhile.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from db.postgres.store import PostgresStore


class AdvisoryLocks:
    """Game locks taken through `store`, whose statements in an action then run on the lock's connection."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store
        self._local: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[object]:
        """Held while one action reads, checks and saves the game, in this process and every other.

        Raises:
            StorageUnavailableError: the server cannot be reached (nothing is held).
        """
        local = self._local.get(game_id)
        if local is None:
            local = self._local[game_id] = asyncio.Lock()
        async with local, self.store.hold_game(game_id):
            yield local
