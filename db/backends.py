"""Which storage the bot runs on: an SQLite file by default, PostgreSQL when `DATABASE_URL` names a server.

SQLite needs nothing installed and suits one bot process. PostgreSQL lets several processes share the games: each
runs some of the bot's shards and looks after its own shards' games in the background (start-up check, timers,
computer turns, catching up with Discord), while any of them can act on any game, one action at a time per game
across all of them (`db.postgres.locks.AdvisoryLocks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from db.postgres.locks import AdvisoryLocks
from db.postgres.store import PostgresStore
from db.sql_store import ALL_GAMES, SqlStore, shard_condition
from db.store import Store


@dataclass(frozen=True, slots=True)
class Storage:
    """An open store, and the coordinator its backend needs (None: one process, whose own locks suffice)."""

    store: SqlStore
    locks: AdvisoryLocks | None = None

    async def close(self) -> None:
        """Close the store (the locks' connections are the store's)."""
        await self.store.close()


async def open_storage(
    database_path: Path,
    database_url: str | None = None,
    *,
    shard_ids: Sequence[int] | None = None,
    shard_count: int | None = None,
) -> Storage:
    """PostgreSQL at `database_url` if given (this process's games: those of `shard_ids`), else SQLite at the path.

    Raises:
        StoreError: the database cannot be used (its subclasses say why, in one line).
    """
    if database_url is None:
        return Storage(await Store.open(database_path))
    own = ALL_GAMES if shard_ids is None or shard_count is None else shard_condition(shard_ids, shard_count)
    store = await PostgresStore.open(database_url, own_games=own)
    return Storage(store, AdvisoryLocks(store))
