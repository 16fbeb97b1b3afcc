"""Forward-only schema migrations for PostgreSQL, numbered as SQLite's are (`db.migrate`), in their own folder.

Each file `db/postgres/migrations/NNNN_reason.sql` (from 0001 without gaps, never edited once merged, opening with a
`-- Reason:` comment) runs in its own transaction together with its row in `schema_migrations`, so a failing file
leaves both the schema and the version as they were. PostgreSQL's DDL is transactional, so no file can leave half a
change. Several processes may start at once: each file's transaction first takes an advisory lock, then looks again
at the version, so every file runs exactly once. A database newer than this code is refused.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Final

import asyncpg

from db.errors import SchemaTooNewError
from db.migrate import load_migrations
from db.postgres.connection import RawConnection

log = logging.getLogger(__name__)

MIGRATIONS_DIR: Final = Path(__file__).with_name("migrations")
# Advisory lock keys of the two-integer form: (1, n) are this package's own (games use the one-bigint form).
MIGRATION_LOCK: Final = (1, 0)

_CREATE_TABLE: Final = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER     PRIMARY KEY,
    name       TEXT        NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)"""


async def schema_version(conn: RawConnection) -> int:
    """The newest migration applied (0 for an empty database)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


async def migrate(conn: RawConnection, directory: Path = MIGRATIONS_DIR, *, target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the newest migration) and return the version reached.

    Raises:
        SchemaTooNewError: the database is newer than the newest migration this code knows.
        asyncpg.PostgresError: a migration failed; it was rolled back and the database is at the previous version.
    """
    migrations = load_migrations(directory)
    newest = migrations[-1].version if migrations else 0
    target = newest if target is None else target
    start = current = _known(await schema_version(conn), newest)
    for migration in migrations:
        if migration.version > target:
            break
        async with conn.transaction():
            # Another process's migration is waited out however long it takes (the pool bounds lock waits otherwise).
            await conn.execute("SET LOCAL lock_timeout = 0")
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
            await conn.execute(_CREATE_TABLE)
            current = _known(await schema_version(conn), newest)
            if current >= migration.version:
                continue  # another process applied it meanwhile
            try:
                await conn.execute(migration.sql)  # several statements: the simple protocol, no parameters
            except asyncpg.PostgresError:
                log.exception("migration %s failed and was rolled back", migration.path.name)
                raise
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", migration.version, migration.path.name
            )
            current = migration.version
    if current != start:
        what = "created the database schema" if start == 0 else f"migrated the database from schema version {start}"
        log.info("%s (now version %d)", what, current)
    return current


def _known(version: int, newest: int) -> int:
    """`version`, if this code knows it.

    Raises:
        SchemaTooNewError: a newer version of the bot migrated the database.
    """
    if version > newest:
        raise SchemaTooNewError(
            f"The database is at schema version {version}, but this version of the bot only knows versions up to "
            f"{newest}. A newer version of the bot wrote it: run that version (or a newer one). The database was not "
            "changed."
        )
    return version
