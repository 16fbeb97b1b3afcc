"""Issue 27: the PostgreSQL fixtures give a real server and a fresh empty database per test."""

import asyncpg

from tests.postgres import database_dsn, fresh_database


async def test_the_server_is_postgresql_and_the_database_is_fresh_and_writable(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        assert "PostgreSQL" in await connection.fetchval("select version()")
        assert await connection.fetchval("select count(*) from pg_tables where schemaname = 'public'") == 0
        await connection.execute("create table seen (id bigint primary key)")
        await connection.execute("insert into seen values (1), (2)")
        assert await connection.fetchval("select sum(id) from seen") == 3
    finally:
        await connection.close()


async def test_two_test_databases_are_distinct(postgres_server: str, postgres_url: str) -> None:
    with fresh_database(postgres_server) as other:
        first, second = await asyncpg.connect(postgres_url), await asyncpg.connect(other)
        try:
            mine, theirs = await first.fetchval("select current_database()"), await second.fetchval(
                "select current_database()"
            )
            assert mine != theirs and mine.startswith("t_") and theirs.startswith("t_")
            await first.execute("create table only_here (id int)")
            assert await second.fetchval("select to_regclass('only_here')") is None
        finally:
            await first.close()
            await second.close()
    admin = await asyncpg.connect(postgres_server)
    try:  # the second is dropped once its block ends; this test's own is dropped after the test
        exists = "select exists (select from pg_database where datname = $1)"
        assert not await admin.fetchval(exists, theirs)
        assert await admin.fetchval(exists, mine)
    finally:
        await admin.close()


def test_a_database_dsn_keeps_everything_but_the_database() -> None:
    assert (
        database_dsn("postgresql://postgres@/postgres?host=/tmp/x", "t_1") == "postgresql://postgres@/t_1?host=/tmp/x"
    )
    assert (
        database_dsn("postgres://bot:secret@db.example:5433/admin?sslmode=require", "t_2")
        == "postgres://bot:secret@db.example:5433/t_2?sslmode=require"
    )
