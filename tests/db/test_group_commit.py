"""Group commit: moves that arrive together are saved by one COMMIT, each answered only after it, each on its own."""

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db._group_commit import GroupCommit
from db.errors import StaleVersionError
from db.records import GameRecord
from db.sql_store import SqlStore
from db.store import Store
from tests.db.helpers import later, running_game


def statements(conn: aiosqlite.Connection) -> list[str]:
    """Every statement run on `conn` from now on, in order."""
    seen: list[str] = []
    for name in ("execute", "execute_fetchall"):
        method = getattr(conn, name)

        def wrapped(sql: str, *args: Any, method: Any = method, **kwargs: Any) -> Any:
            seen.append(" ".join(sql.split())[:20])
            return method(sql, *args, **kwargs)

        setattr(conn, name, wrapped)
    return seen


async def test_moves_that_arrive_together_share_one_commit_and_each_gets_its_own_record(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    try:
        games = [await running_game(store, (2 * n + 1, 2 * n + 2)) for n in range(8)]
        seen = statements(store._conn)
        saved = await asyncio.gather(
            *(store.save_move(game.id, game.version, 0, f"move {game.id}", {"n": game.id}, later(1)) for game in games)
        )
        assert [(record.id, record.version, record.state) for record in saved] == [
            (game.id, game.version + 1, {"n": game.id}) for game in games
        ]
        assert seen.count("COMMIT") < len(games) and seen.count("BEGIN IMMEDIATE") == seen.count("COMMIT")
    finally:
        await store.close()
    store = await Store.open(path)  # durable: in the file after a reopen
    try:
        for game in games:
            assert [move.move for move in await store.game_moves(game.id)] == [f"move {game.id}"]
    finally:
        await store.close()


async def test_a_stale_move_is_refused_alone_and_the_others_of_its_round_are_saved(store: SqlStore) -> None:
    games = [await running_game(store, (2 * n + 1, 2 * n + 2)) for n in range(3)]
    versions = [games[0].version, games[1].version - 1, games[2].version]  # the middle one read an old version
    results = await asyncio.gather(
        *(
            store.save_move(game.id, version, 0, "m", {"n": 1}, later(1))
            for game, version in zip(games, versions, strict=True)
        ),
        return_exceptions=True,
    )
    assert isinstance(results[1], StaleVersionError)
    assert isinstance(results[0], GameRecord) and isinstance(results[2], GameRecord)
    assert [results[0].version, results[2].version] == [games[0].version + 1, games[2].version + 1]
    assert [len(await store.game_moves(game.id)) for game in games] == [1, 0, 1]


async def lone_table(tmp_path: Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(tmp_path / "plain.db", isolation_level=None)
    await conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY, y INTEGER NOT NULL CHECK (y > 0))")
    return conn


def insert(x: int, y: int) -> Callable[[aiosqlite.Connection], Awaitable[int]]:
    async def write(conn: aiosqlite.Connection) -> int:
        await conn.execute("INSERT INTO t (x, y) VALUES (?, ?)", (x, y))
        return x

    return write


async def rows(conn: aiosqlite.Connection) -> list[Any]:
    return [row[0] for row in await conn.execute_fetchall("SELECT x FROM t ORDER BY x")]


async def test_a_statement_sqlite_refuses_takes_nothing_else_with_it(tmp_path: Path) -> None:
    conn = await lone_table(tmp_path)
    try:
        group = GroupCommit(conn, asyncio.Lock())
        results = await asyncio.gather(
            group.run(insert(1, 1)), group.run(insert(2, -1)), group.run(insert(3, 3)), return_exceptions=True
        )
        assert results[0] == 1 and results[2] == 3 and isinstance(results[1], sqlite3.IntegrityError)
        assert await rows(conn) == [1, 3]
    finally:
        await conn.close()


async def test_a_failed_commit_fails_every_write_of_its_round_and_saves_none(tmp_path: Path) -> None:
    conn = await lone_table(tmp_path)
    try:
        execute = conn.execute

        def failing_commit(sql: str, *args: Any, **kwargs: Any) -> Any:
            if sql == "COMMIT":
                raise sqlite3.OperationalError("disk I/O error")
            return execute(sql, *args, **kwargs)

        vars(conn)["execute"] = failing_commit  # this connection's own, as statements() does
        group = GroupCommit(conn, asyncio.Lock())
        results = await asyncio.gather(*(group.run(insert(x, x)) for x in (1, 2, 3)), return_exceptions=True)
        assert all(isinstance(result, sqlite3.OperationalError) for result in results)
        vars(conn)["execute"] = execute
        assert await rows(conn) == [] and not conn.in_transaction
    finally:
        await conn.close()


async def test_no_write_is_answered_before_the_commit_of_its_round_has_returned(tmp_path: Path) -> None:
    conn = await lone_table(tmp_path)
    try:
        seen = statements(conn)
        group = GroupCommit(conn, asyncio.Lock())
        answered: list[tuple[int, list[str]]] = []

        async def save(x: int) -> None:
            await group.run(insert(x, x))
            answered.append((x, list(seen)))

        await asyncio.gather(*(save(x) for x in range(1, 6)))
        for _, log in answered:
            assert log[-1] == "COMMIT"
        lone = GroupCommit(conn, asyncio.Lock())
        seen.clear()
        assert await lone.run(insert(9, 9)) == 9
        assert seen == ["INSERT INTO t (x, y)"]  # a round of one is a statement of its own: no BEGIN, no COMMIT
    finally:
        await conn.close()


async def test_closing_the_store_answers_every_queued_move_first(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    games = [await running_game(store, (2 * n + 1, 2 * n + 2)) for n in range(4)]
    moves = [asyncio.create_task(store.save_move(game.id, game.version, 0, "m", {"n": 1}, later(1))) for game in games]
    await asyncio.sleep(0)
    await store.close()
    assert all(task.done() and task.result().move_count == 1 for task in moves)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "bot.db")
    try:
        yield opened
    finally:
        await opened.close()
