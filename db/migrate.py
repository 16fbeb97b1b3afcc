"""Forward-only schema migrations, tracked in `PRAGMA user_version`.

Each file `db/migrations/NNNN_reason.sql` (numbered from 0001 without gaps, never edited once merged) opens with a
`-- Reason:` comment and runs in its own transaction together with `PRAGMA user_version = NNNN`, so a failing file
leaves both the schema and the version as they were. A database newer than this code is refused.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from db.errors import SchemaTooNewError

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
    for migration in migrations:
        if current < migration.version <= target:
            await _apply(conn, migration)
            current = migration.version
    return current


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    # PRAGMA takes no parameters; the version is an int parsed from the file name, never outside input.
    script = f"BEGIN IMMEDIATE;\n{migration.sql}\n;PRAGMA user_version = {migration.version};\nCOMMIT;"
    try:
        await conn.executescript(script)
    except sqlite3.Error:
        try:
            await conn.rollback()
        finally:
            log.exception("migration %s failed and was rolled back", migration.path.name)
        raise
    log.info("database migrated to schema version %d (%s)", migration.version, migration.path.name)
