"""Issue 27: PostgreSQL's migrations, numbered as SQLite's, each in its own transaction."""

from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from db.errors import SchemaTooNewError
from db.postgres.migrate import migrate, schema_version


@pytest.fixture
async def conn(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    connection = await asyncpg.connect(postgres_url)
    yield connection
    await connection.close()


def migrations(folder: Path, *files: tuple[str, str]) -> Path:
    for name, sql in files:
        (folder / name).write_text(sql, encoding="utf-8")
    return folder


async def test_a_failing_migration_leaves_the_schema_and_version_as_they_were(
    conn: asyncpg.Connection, tmp_path: Path
) -> None:
    folder = migrations(
        tmp_path,
        ("0001_first.sql", "-- Reason: a table\nCREATE TABLE kept (id INTEGER PRIMARY KEY);"),
        ("0002_broken.sql", "-- Reason: half a change\nCREATE TABLE lost (id INTEGER);\nSELECT no_such_function();"),
    )
    with pytest.raises(asyncpg.UndefinedFunctionError):
        await migrate(conn, folder)
    assert await schema_version(conn) == 1
    assert await conn.fetchval("SELECT to_regclass('kept') IS NOT NULL")
    assert not await conn.fetchval("SELECT to_regclass('lost') IS NOT NULL")  # rolled back with its file


async def test_migrations_run_in_order_once_and_up_to_a_target(conn: asyncpg.Connection, tmp_path: Path) -> None:
    folder = migrations(
        tmp_path,
        ("0001_a.sql", "-- Reason: a\nCREATE TABLE steps (n INTEGER);"),
        ("0002_b.sql", "-- Reason: b\nINSERT INTO steps VALUES (2);"),
        ("0003_c.sql", "-- Reason: c\nINSERT INTO steps VALUES (3);"),
    )
    assert await migrate(conn, folder, target=2) == 2
    assert await migrate(conn, folder) == 3
    assert await migrate(conn, folder) == 3
    assert [row["n"] for row in await conn.fetch("SELECT n FROM steps ORDER BY n")] == [2, 3]


async def test_a_schema_newer_than_the_code_is_refused_unchanged(conn: asyncpg.Connection, tmp_path: Path) -> None:
    folder = migrations(tmp_path, ("0001_a.sql", "-- Reason: a\nCREATE TABLE one (n INTEGER);"))
    await migrate(conn, folder)
    await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (2, '0002_future.sql')")
    with pytest.raises(SchemaTooNewError, match="version 2"):
        await migrate(conn, folder)
    assert await schema_version(conn) == 2
