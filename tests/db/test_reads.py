"""Reads on the store's second, read-only connection: they see every committed write and none in progress, and do
not wait for writes (nor their flush to disk)."""

import asyncio
import sqlite3

import pytest

from db.sql_store import SqlStore
from db.store import Store
from tests.db.helpers import later, record_in, running_game


async def test_a_read_during_a_write_transaction_sees_the_last_commit_without_waiting_for_it(store: SqlStore) -> None:
    game = await running_game(store)
    inside, release = asyncio.Event(), asyncio.Event()

    async def slow_writer() -> None:
        async with store.transaction() as conn:
            await conn.execute("UPDATE games SET host_id = 99 WHERE id = ?", (game.id,))
            inside.set()
            await release.wait()

    writer = asyncio.create_task(slow_writer())
    await inside.wait()
    during = await asyncio.wait_for(store.get_game(game.id), timeout=5)  # the lock is held: this must not wait
    assert during is not None
    assert game is not None
    assert during.host_id == game.host_id  # nothing half done is seen
    release.set()
    await writer
    assert (await record_in(store, game.id)).host_id == 99


async def test_a_saved_move_is_seen_by_the_next_read(store: SqlStore) -> None:
    game = await running_game(store)
    saved = await store.save_move(game.id, game.version, 0, "m", {"n": 1}, later(1))
    assert await store.get_game(game.id) == saved
    assert [move.move for move in await store.game_moves(game.id)] == ["m"]


@pytest.mark.sqlite_only  # SQLite's own pragmas and connections
async def test_the_reading_connection_cannot_write(store: SqlStore) -> None:
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        assert isinstance(store, Store) and store._reader is not None  # SQLite's reading connection
        await store._reader.execute("DELETE FROM games")
