"""One action at a time per game, within one process: an `asyncio.Lock` per game, kept only while in use."""

from __future__ import annotations

import asyncio
import weakref


class LocalLocks:
    """The `service.ports.Coordinator` of a bot that is the only process on its database."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock (the same object for everyone who holds or waits for it)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock
