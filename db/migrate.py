"""Forward-only schema migrations, tracked in `PRAGMA user_version`.

Each file `db/migrations/NNNN_reason.sql` (numbered from 0001 without gaps, never edited once merged) opens with a
`-- Reason:` comment and runs in its own transaction together with `PRAGMA user_version = NNNN`, so a failing file
leaves both the schema and the version as they were. A database newer than this code is refused.

Foreign keys are off while a file runs, so that a file may rebuild a table (the only way to change a constraint in
SQLite) without cascading deletes; `PRAGMA foreign_key_check` must then find nothing before the file commits.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from db.errors import MigrationError, SchemaTooNewError

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_FILE_NAME = re.compile(r"^(?P<version>[0-9]{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its version number, its path and its SQL."""

    version: int
    path: Path
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> tuple[Migration, ...]:
    """The migration files in version order.

    Raises:
        ValueError: a misnamed file, a gap in the numbering, or a file without its `-- Reason:` comment.
    """
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration file {path.name} is not named NNNN_reason.sql")
        sql = path.read_text(encoding="utf-8")
        if not sql.startswith("-- Reason:"):
            raise ValueError(f"migration {path.name} must open with a '-- Reason:' comment")
        migrations.append(Migration(int(match["version"]), path, sql))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(f"migration {migration.path.name} should be number {expected:04d}: no gaps, no repeats")
    return tuple(migrations)


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The database's `PRAGMA user_version` (0 for a new file)."""
    rows = await conn.execute_fetchall("PRAGMA user_version")
    return int(next(iter(rows))[0])


async def migrate(conn: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR, *, target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the newest migration) and return the version reached.

    `conn` must be in autocommit mode (`isolation_level=None`).

    Raises:
        SchemaTooNewError: the database is newer than the newest migration this code knows.
        sqlite3.Error: a migration failed; it was rolled back and the database is at the previous version.
        MigrationError: a migration would leave dangling foreign keys; it was rolled back the same way.
    """
    migrations = load_migrations(directory)
    newest = migrations[-1].version if migrations else 0
    target = newest if target is None else target
    current = await schema_version(conn)
    if current > newest:
        raise SchemaTooNewError(
            f"The database file is at schema version {current}, but this version of the bot only knows versions up "
            f"to {newest}. A newer version of the bot wrote it: run that version (or a newer one), or restore a "
            "backup made for this version. The file was not changed."
        )
    start = current
    for migration in migrations:
        if current < migration.version <= target:
            await _apply(conn, migration)
            current = migration.version
    if current != start:
        # A new file is "created", not migrated step by step: the start-up log stays one line either way.
        what = "created the database schema" if start == 0 else f"migrated the database from schema version {start}"
        log.info("%s (now version %d)", what, current)
    return current


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    # Foreign keys go off around the file (the pragma is a no-op inside a transaction, so before BEGIN): rebuilding a
    # table is CREATE new, copy, DROP old, RENAME, and with foreign keys on that DROP deletes every row that points
    # at the old table. PRAGMA foreign_key_check then stands in for the checks skipped, before anything commits.
    enforced = next(iter(await conn.execute_fetchall("PRAGMA foreign_keys")))[0]
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        # executescript COMMITs an open transaction before it starts, so BEGIN goes inside the script; COMMIT does
        # not, so that the check below still sees the uncommitted result. PRAGMA takes no parameters; the version
        # is an int parsed from the file name, never outside input.
        await conn.executescript(f"BEGIN IMMEDIATE;\n{migration.sql}\n;PRAGMA user_version = {migration.version};")
        dangling = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
        if dangling:
            table, rowid, parent, _ = next(iter(dangling))
            raise MigrationError(
                f"migration {migration.path.name} was rolled back: it would leave {len(dangling)} row(s) whose foreign "
                f"key points nowhere (the first: {table} row {rowid} -> {parent}); the database is unchanged. This is "
                "a bug in the migration: report it."
            )
        await conn.execute("COMMIT")
    except (sqlite3.Error, MigrationError):
        try:
            await _rollback(conn)
        finally:
            log.exception("migration %s failed and was rolled back", migration.path.name)
        raise
    finally:
        await conn.execute(f"PRAGMA foreign_keys = {'ON' if enforced else 'OFF'}")
    log.debug("database migrated to schema version %d (%s)", migration.version, migration.path.name)


async def _rollback(conn: aiosqlite.Connection) -> None:
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError:
        log.debug("no transaction left to roll back")  # BEGIN failed, or SQLite already rolled back
