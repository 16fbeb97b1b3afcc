"""The start-up check against a second writer: whatever lands between its reads and its writes, snapshot == replay.

The file lock keeps a second bot out, but any SQLite client can still write; so every write of the start-up check
names the version it read. Here a second writer (a Store on its own connection, past the lock) saves a move, or
cancels a game, before each statement the start-up check runs, one interleaving per (statement, game).
"""

import logging
import random
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db import recovery
from db.sql_store import SqlStore
from db.store import Store
from engine.registry import game_class
from tests.db.helpers import later, play_random, real_game

# (kind, seats, snapshot): "bad" snapshots make the check write the replay back; "log" breaks the move log instead.
GAMES = (("kasino", (1, 2), "bad"), ("garbage", (3, 4), "ok"), ("kasino", (5, 6, 7), "bad"), ("garbage", (8, 9), "log"))


@pytest.fixture(scope="module")
def base_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A closed file with the four games above, snapshots and logs damaged as listed."""
    import asyncio

    path = tmp_path_factory.mktemp("races") / "base.db"

    async def build() -> None:
        store = await Store.open(path)
        try:
            rng = random.Random(8)
            for seed, (kind, users, damage) in enumerate(GAMES):
                record, game = await real_game(store, kind, users, seed=seed)
                await play_random(store, record, game, 12, rng)
                async with store.transaction() as conn:
                    if damage == "bad":
                        await conn.execute("UPDATE games SET state = '{\"schema\": 1}' WHERE id = ?", (record.id,))
                    if damage == "log":
                        query = "UPDATE moves SET move = 'nonsense' WHERE game_id = ? AND seq = 2"
                        await conn.execute(query, (record.id,))
        finally:
            await store.close()

    asyncio.run(build())
    return path


async def second_writer(path: Path) -> Store:
    """A store on its own connection, as another SQLite client would write (it does not take the file lock)."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA busy_timeout = 5000")
    await conn.execute("PRAGMA foreign_keys = ON")
    return Store(conn, path)


async def foreign_action(writer: Store, game_id: int) -> tuple[Any, ...] | None:
    """Save the first legal move of a replayable game (played from its log), or cancel one whose log is broken."""
    record = await writer.get_game(game_id)
    assert record is not None
    if record.status != "running":
        return None
    moves = await writer.game_moves(game_id)
    try:
        game = recovery.replay(record.kind, len(record.seats), record.seed, record.settings, moves)
    except Exception:
        await writer.cancel_game(game_id, later(999))
        return ("cancelled", game_id)
    seat = game.to_move
    assert seat is not None
    move = game.legal_moves(seat)[0]
    game.apply(seat, move)
    saved = await writer.save_move(game_id, record.version, seat, str(move), game.to_dict(), later(999))
    return ("moved", game_id, saved.move_count, str(move))


def pause_before_statement(
    store: SqlStore, number: int, action: Callable[[], Awaitable[None]] | None
) -> list[tuple[str, bool]]:
    """Run `action` before the store's statement `number` (counting from 0), unless that statement runs inside the
    store's own write transaction (where the second writer would wait for a lock the first one holds forever).

    Returns a list that collects (SQL, whether the second writer can act there) for every statement run.
    """
    assert isinstance(store, Store)  # SQLite's connection
    conn = store._conn
    seen: list[tuple[str, bool]] = []
    writing = False

    def wrap(method: Any) -> Any:
        async def wrapped(sql: str, *args: Any, **kwargs: Any) -> Any:
            nonlocal writing
            if len(seen) == number and not writing:
                assert action is not None
                await action()
            seen.append((sql, not writing))
            verb = sql.strip().split()[0].upper()
            writing = (writing or sql.strip().upper() == "BEGIN IMMEDIATE") and verb not in ("COMMIT", "ROLLBACK")
            return await method(sql, *args, **kwargs)

        return wrapped

    vars(conn)["execute"] = wrap(conn.execute)  # this connection's own
    vars(conn)["execute_fetchall"] = wrap(conn.execute_fetchall)
    return seen


async def check_consistent(path: Path) -> None:
    """Every game's snapshot equals the replay of its log (running ones), and move_count is the log's length."""
    conn = await aiosqlite.connect(path)
    store = Store(conn, path)
    try:
        for game_id in range(1, len(GAMES) + 1):
            record = await store.get_game(game_id)
            moves = await store.game_moves(game_id)
            assert record is not None
            assert record.move_count == len(moves)
            if record.status == "running":
                cls = game_class(record.kind)
                replayed = recovery.replay(record.kind, len(record.seats), record.seed, record.settings, moves)
                assert record.state is not None
                assert cls.from_dict(record.state) == replayed, f"game #{game_id}: the snapshot is not the replay"
    finally:
        await conn.close()


async def test_interleaved_start_up_check_and_a_second_writer_keep_snapshot_equal_to_replay(
    base_file: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A dry run counts the statements of the start-up check.
    dry = tmp_path / "dry.db"
    shutil.copy(base_file, dry)
    store = await Store.open(dry)
    try:
        statements = pause_before_statement(store, -1, None)
        await store.load_unfinished()
    finally:
        await store.close()

    interleavings = [
        (number, game_id, moves)
        for number, (_, open_to_writer) in enumerate(statements)
        if open_to_writer
        for game_id in range(1, len(GAMES) + 1)
        for moves in (1, 2)
    ]
    assert len(interleavings) >= 50, len(interleavings)
    for case, (number, game_id, moves) in enumerate(interleavings):
        path = tmp_path / f"case{case}.db"
        shutil.copy(base_file, path)
        store = await Store.open(path)
        writer = await second_writer(path)
        done: list[tuple[Any, ...] | None] = []

        async def act(
            writer: Store = writer, game_id: int = game_id, moves: int = moves, done: list[Any] = done
        ) -> None:
            for _ in range(moves):
                done.append(await foreign_action(writer, game_id))

        try:
            pause_before_statement(store, number, act)
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="db.store"):
                loaded = await store.load_unfinished()
        finally:
            await writer.close()
            await store.close()
        where = f"writer before statement {number} ({statements[number][0].split()[0]}), game #{game_id} x{moves}"
        assert done, where
        await check_consistent(path)
        assert all(record.status in ("lobby", "running", "frozen") for record in loaded), where
        errors = [rec.getMessage() for rec in caplog.records if rec.levelname == "ERROR"]
        assert len(errors) <= 1 and all("game #4 could not be restored" in text for text in errors), where
        conn = await aiosqlite.connect(path)
        try:
            for action in filter(None, done):
                if action[0] == "moved":  # the second writer's acknowledged move is in the log
                    _, moved_id, seq, move = action
                    query = "SELECT move FROM moves WHERE game_id = ? AND seq = ?"
                    assert [row[0] for row in await conn.execute_fetchall(query, (moved_id, seq))] == [move], where
                else:  # a cancel is never undone by freezing
                    query = "SELECT status FROM games WHERE id = ?"
                    assert [row[0] for row in await conn.execute_fetchall(query, (action[1],))] == ["cancelled"], where
        finally:
            await conn.close()
        path.unlink()
