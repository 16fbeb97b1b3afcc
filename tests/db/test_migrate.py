"""Schema migrations: from an empty file, from every earlier version, already current, newer than the code."""

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db.errors import SchemaTooNewError
from db.migrate import MIGRATIONS_DIR, load_migrations, migrate, schema_version
from db.sql_store import SqlStore
from db.store import Store
from tests.db.helpers import new_lobby

MIGRATIONS = load_migrations()
LATEST = MIGRATIONS[-1].version
TABLES = {"games", "seats", "moves", "results", "ratings"}


async def schema_of(path: Path) -> list[tuple[Any, ...]]:
    """Every table, index and trigger of the file with its SQL, for comparing two files."""
    async with aiosqlite.connect(path) as conn:
        rows = await conn.execute_fetchall(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        )
        return [tuple(row) for row in rows]


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
        return version


def test_migration_files_are_numbered_without_gaps_and_give_a_reason() -> None:
    assert [migration.version for migration in MIGRATIONS] == list(range(1, LATEST + 1))
    assert all(migration.sql.startswith("-- Reason:") for migration in MIGRATIONS)


async def test_open_migrates_an_empty_file_to_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "new" / "bot.db"
    store = await Store.open(path)
    await store.close()
    assert user_version(path) == LATEST
    assert {name for kind, name, _ in await schema_of(path) if kind == "table"} >= TABLES


@pytest.mark.parametrize("start", range(LATEST))
async def test_migrates_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    # Each new migration adds a case here on its own: the file is built up to `start`, then opened.
    fresh, old = tmp_path / "fresh.db", tmp_path / "old.db"
    await (await Store.open(fresh)).close()
    async with aiosqlite.connect(old, isolation_level=None) as conn:
        assert await migrate(conn, target=start) == start
        assert await schema_version(conn) == start
    store = await Store.open(old)
    await store.close()
    assert user_version(old) == LATEST
    assert await schema_of(old) == await schema_of(fresh)


async def test_an_already_current_file_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    lobby = await new_lobby(store)
    await store.close()
    schema = await schema_of(path)

    store = await Store.open(path)
    try:
        assert await store.get_game(lobby.id) == lobby
    finally:
        await store.close()
    assert user_version(path) == LATEST
    assert await schema_of(path) == schema


async def test_a_file_newer_than_the_code_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(SchemaTooNewError, match=r"newer version of the bot") as refused:
        await Store.open(path)
    assert f"schema version {LATEST + 1}" in str(refused.value)
    assert str(path) in str(refused.value)
    assert user_version(path) == LATEST + 1


async def test_a_failing_migration_leaves_schema_and_version_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    broken = folder / f"{LATEST + 1:04d}_broken.sql"
    broken.write_text("-- Reason: a test.\nCREATE TABLE extra (x);\nSELECT * FROM no_such_table;\n", encoding="utf-8")
    path = tmp_path / "bot.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
            await migrate(conn, folder)
        assert await schema_version(conn) == LATEST
        tables = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE name = 'extra'")
        assert list(tables) == []


@pytest.mark.parametrize(
    ("name", "text", "error"),
    [
        ("0002_gap.sql", "-- Reason: skips a number.\n", "should be number"),
        ("0001_no_reason.sql", "CREATE TABLE x (y);\n", "Reason"),
        ("1_bad_name.sql", "-- Reason: misnamed.\n", "NNNN_reason"),
    ],
)
def test_load_migrations_rejects_gaps_missing_reasons_and_bad_names(
    tmp_path: Path, name: str, text: str, error: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=error):
        load_migrations(tmp_path)


@pytest.mark.sqlite_only  # SQLite's own pragmas and connections
async def test_open_sets_wal_full_sync_and_foreign_keys(store: SqlStore) -> None:
    async with store.transaction() as conn:
        pragmas = {
            name: next(iter(await conn.execute_fetchall(f"PRAGMA {name}")))[0]
            for name in ("journal_mode", "synchronous", "foreign_keys")
        }
    assert pragmas == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1}


async def test_0005_gives_running_games_their_next_timer(tmp_path: Path) -> None:
    # Version 4: three running games with a 2-minute deadline (one already warned, one 24-hour turn), one untimed.
    path = tmp_path / "v4.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, target=4)
        await conn.executemany(
            """INSERT INTO games (id, kind, guild_id, channel_id, status, host_id, settings, seed, max_seats, state,
                                  deadline, warned, turn_seconds, created_at, updated_at)
               VALUES (?, 'kasino', 1, 1, 'running', 1, '{}', '1', 2, '{}', ?, ?, ?, 'x', 'x')""",
            [
                (1, "2025-03-01T12:02:00.250000+00:00", 0, 120),
                (2, "2025-03-01T12:02:00.250000+00:00", 1, 120),
                (3, "2025-03-02T00:00:00.000000+00:00", 0, 86_400),
                (4, None, 0, None),
            ],
        )
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as conn:
        timers = dict(conn.execute("SELECT id, timer_at FROM games ORDER BY id"))
    assert timers == {
        1: "2025-03-01T12:01:30.250000+00:00",  # warned a quarter of the turn before the deadline
        2: "2025-03-01T12:02:00.250000+00:00",  # already warned: the deadline
        3: "2025-03-01T23:00:00.000000+00:00",  # at most an hour before
        4: None,
    }
