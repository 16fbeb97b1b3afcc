"""Table-rebuilding migrations keep every row: foreign keys are off while a file runs and checked before it commits."""

import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db.errors import MigrationError
from db.migrate import MIGRATIONS_DIR, load_migrations, migrate, schema_version
from db.sql_store import SqlStore
from db.store import Store
from tests.db.helpers import NOW, finish_game, new_lobby, play_random, real_game, running_game

TABLES = ("games", "seats", "moves", "results", "ratings")
REBUILD = next(migration for migration in load_migrations() if migration.version == 3)


def columns_of(path: Path) -> dict[str, list[str]]:
    """Each table's columns in the file's schema."""
    with sqlite3.connect(path) as conn:
        return {table: [row[1] for row in conn.execute(f"PRAGMA table_info({table})")] for table in TABLES}


def rows_of(path: Path, columns: dict[str, list[str]]) -> dict[str, list[Any]]:
    """Every row of every table (the given columns of each: a later schema may have added some), in a fixed order."""
    with sqlite3.connect(path) as conn:
        return {
            table: sorted(conn.execute(f"SELECT {', '.join(columns[table])} FROM {table}").fetchall(), key=repr)
            for table in TABLES
        }


async def full_file_at(path: Path, version: int) -> None:
    """A file at schema `version` full of games: lobbies, running games with moves, finished and cancelled ones.

    They are played through the store on the current schema, then copied into a file migrated only to `version`
    (the columns that schema has), since the store's statements need the current schema.
    """
    source = path.with_name(f"source-{path.name}")
    store = await Store.open(source)
    try:
        rng = random.Random(3)
        for host in (100, 200):
            lobby = await new_lobby(store, host=host)
            await store.join_lobby(lobby.id, host + 1, f"u{host + 1}", NOW)
        for seed in range(4):
            record, game = await real_game(store, ("kasino", "garbage")[seed % 2], (1, 2, None), seed=seed)
            await play_random(store, record, game, 20, rng)
        for places in ((1, 2), (2, 1), (1, 1)):
            await finish_game(store, (1, 2), places)
        await finish_game(store, (3, 4, 5), (3, 1, 2), kind="garbage")
        cancelled = await running_game(store, (6, 7))
        await store.cancel_game(cancelled.id, NOW)
    finally:
        await store.close()
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA journal_mode = WAL")
        assert await migrate(conn, target=version) == version
        await conn.execute("ATTACH DATABASE ? AS source", (str(source),))
        for table, columns in columns_of(path).items():
            names = ", ".join(columns)
            await conn.execute(f"INSERT INTO main.{table} ({names}) SELECT {names} FROM source.{table}")
        await conn.execute("DETACH DATABASE source")


async def test_rebuilding_games_keeps_every_row_of_every_table(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await full_file_at(path, 2)
    columns = columns_of(path)
    before = rows_of(path, columns)
    assert all(before[table] for table in TABLES)  # something to lose in every table

    store = await Store.open(path)  # migrates 2 -> 3
    try:
        record, game = await real_game(store, "kasino", (8, 9))
        await play_random(store, record, game, 3, random.Random(1))  # trigger log_move still logs moves
        assert len(await store.game_moves(record.id)) == 3
    finally:
        await store.close()
    after = rows_of(path, columns)
    assert {table: [row for row in after[table] if row[0] != record.id] for table in ("seats", "moves")} == {
        table: before[table] for table in ("seats", "moves")
    }
    assert [row for row in after["games"] if row[0] != record.id] == before["games"]
    assert after["results"] == before["results"]
    assert after["ratings"] == before["ratings"]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 3


async def test_the_same_rebuild_with_foreign_keys_on_would_delete_seats_and_moves(tmp_path: Path) -> None:
    # Why the runner switches foreign keys off: run migration 3 by hand with them on, and the rows are gone.
    path = tmp_path / "bot.db"
    await full_file_at(path, 2)
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.executescript(f"BEGIN;\n{REBUILD.sql}\nCOMMIT;")
        assert conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0


async def test_a_migration_that_leaves_a_dangling_foreign_key_is_rolled_back(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    latest = load_migrations()[-1].version
    (folder / f"{latest + 1:04d}_dangling.sql").write_text(
        "-- Reason: a test.\nCREATE TABLE extra (x);\n"
        "INSERT INTO seats (game_id, seat, user_id, name) VALUES (999999, 0, 1, 'ghost');\n",
        encoding="utf-8",
    )
    path = tmp_path / "bot.db"
    await (await Store.open(path)).close()
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(MigrationError, match=r"1 row\(s\) whose foreign key points nowhere \(the first: seats"):
            await migrate(conn, folder)
        assert await schema_version(conn) == latest
        assert list(await conn.execute_fetchall("SELECT * FROM seats WHERE game_id = 999999")) == []
        assert list(await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE name = 'extra'")) == []
        assert next(iter(await conn.execute_fetchall("PRAGMA foreign_keys")))[0] == 1  # switched back on


async def test_a_new_game_kind_needs_no_migration_the_store_checks_kinds(store: SqlStore) -> None:
    async with store.transaction() as conn:  # the schema itself accepts any kind now
        await conn.execute(
            """INSERT INTO games (kind, guild_id, channel_id, status, host_id, settings, seed, max_seats, created_at,
                                  updated_at) VALUES ('whist', 1, 1, 'lobby', 1, '{}', '1', 4, 'x', 'x')"""
        )
    with pytest.raises(ValueError, match="unknown game kind 'whist'"):
        await new_lobby(store, kind="whist")
