"""`python -m db.copy SOURCE TARGET`: copy a bot's SQLite database into an empty PostgreSQL database, and check it.

Moving a server's data from SQLite to PostgreSQL:

1. Stop the bot. The copy opens the SQLite file the way the bot does (taking its lock, and migrating it to the
   newest schema), so it refuses a file a running bot holds; and a bot still running would write moves that the
   copy misses.
2. Create an empty PostgreSQL database (`createdb -U postgres cardbot`, say) and run, from the bot's folder:
   `python -m db.copy data/bot.db postgresql://USER:PASSWORD@HOST/cardbot`
   (SOURCE is the file `DATABASE_PATH` names, `data/bot.db` by default; `sqlite:///data/bot.db` is read too).
   The target is migrated to the newest schema; every table is copied, all columns, in one transaction (all or
   nothing); the copy is then read back and checked: the row count of every table, the games of each status with
   their move counts, and every running game's snapshot against the replay of its move log.
3. When it prints `verified: ...` and exits with 0, set `DATABASE_URL` to the same URL (and keep the SQLite file as
   a backup: the copy changes nothing in it beyond the schema migrations the bot itself would make).
4. Start the bot.

Exit status: 0 copied and verified; 1 copied, but the check found a difference (printed): the target keeps the copy,
so drop that database (or make a new one) before another attempt; 2 refused, and nothing was written: bad arguments,
the bot still holds the file, a target that already holds data, tables whose columns differ, or a failed copy
(rolled back). The URL is printed with its password masked.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit

import aiosqlite
import asyncpg

from db._codec import MOVE_COLUMNS
from db._queries import fetch_game
from db.errors import DatabaseLockedError, StoreError
from db.postgres.connection import PgConnection, RawConnection
from db.postgres.store import PostgresStore
from db.recovery import SnapshotCheck
from db.sql import Connection
from db.sql_checks import replayed_check  # the start-up check's own verdict on a snapshot
from db.store import Store

__all__ = ["TABLES", "CopyError", "CopyReport", "Verification", "copy_database", "main", "mask_url", "verify"]

# Every table of the schema, parents before children (foreign keys are checked row by row as COPY inserts).
TABLES: Final = (
    "games",
    "seats",
    "moves",
    "results",
    "ratings",
    "guild_settings",
    "house_rule_presets",
    "seat_changes",
    "departed_guilds",
)
STATUSES: Final = ("running", "finished", "cancelled", "frozen", "lobby")
BATCH_ROWS: Final = 5000  # rows read from SQLite and sent as one COPY: memory stays flat however big the file
_SHOWN_DIFFERENCES: Final = 10  # per kind of difference; the rest are counted
USAGE: Final = "usage: python -m db.copy SOURCE TARGET (SOURCE: the bot's SQLite file; TARGET: a postgresql:// URL)"
_POSTGRES_SCHEMES: Final = ("postgresql", "postgres")
_SQLITE_PREFIX: Final = "sqlite:///"
_PER_GAME: Final = """SELECT id, status, move_count, (SELECT count(*) FROM moves WHERE moves.game_id = games.id)
                      FROM games ORDER BY id"""


class CopyError(StoreError):
    """The copy was refused or failed before its commit: nothing was written to the target."""


@dataclass(frozen=True, slots=True)
class Verification:
    """What reading the target back found: `differences` is empty when it agrees with the source in every check."""

    source_counts: Mapping[str, int]
    target_counts: Mapping[str, int]
    by_status: Mapping[str, int]  # the target's games per status
    replayed: int  # running games of the target whose snapshot equals the replay of their move log
    differences: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return not self.differences

    @property
    def counts_equal(self) -> bool:
        """True when every table holds as many rows in the target as in the source."""
        return dict(self.source_counts) == dict(self.target_counts)


@dataclass(frozen=True, slots=True)
class CopyReport:
    """Rows copied per table (in copy order) and the verification of the committed copy."""

    copied: Mapping[str, int]
    verification: Verification

    @property
    def ok(self) -> bool:
        """True when the copy was verified."""
        return self.verification.ok

    def lines(self) -> list[str]:
        """The report as printed by `main`."""
        lines = ["copied " + ", ".join(f"{table} {count}" for table, count in self.copied.items())]
        verification = self.verification
        statuses = ", ".join(
            f"{status} {verification.by_status.get(status, 0)}" for status in STATUSES if status != "running"
        )
        if verification.ok:
            lines.append(
                f"verified: counts equal; {verification.replayed} running games replay to their snapshots; {statuses}"
            )
        else:
            lines.append(f"verification FAILED ({len(verification.differences)} differences):")
            lines.extend(f"  {difference}" for difference in verification.differences)
            lines.append(
                "the target keeps this copy: drop that database (or create a new empty one) before another attempt"
            )
        return lines


async def copy_database(source: Path, target_url: str) -> CopyReport:
    """Copy the SQLite database at `source` into the empty PostgreSQL database at `target_url`, then verify it.

    The source is opened with `Store.open` (its lock taken, its schema migrated), the target with
    `PostgresStore.open` (its schema migrated). Every table is copied in one PostgreSQL transaction; after the
    commit, `verify` reads both back.

    Raises:
        CopyError: no file at `source`, a target that already holds rows, tables whose columns differ, or a copy
            that failed (rolled back); nothing was written to the target.
        DatabaseLockedError: a running bot (or another process) holds the source.
        StoreError: the source or the target cannot be opened (the message says why).
    """
    if not await asyncio.to_thread(source.is_file):
        # Store.open would create an empty database there, and the copy would "succeed" with nothing.
        raise CopyError(f"{source} does not exist or is not a file; give the path of the bot's database file")
    source_store = await Store.open(source)
    try:
        # What the bot does with each running game before it is next played: check its snapshot against its whole
        # log, repairing the snapshot from the log (or freezing a game whose log cannot be replayed). The copy then
        # holds what the bot would play on, and a snapshot damaged before the copy is no reason to refuse it.
        await source_store.load_unfinished()
        target_store = await PostgresStore.open(target_url, pool_size=2)
        try:
            copied = await _copy_tables(source_store, target_store)
            verification = await verify(source_store, target_store)
        finally:
            await target_store.close()
    finally:
        await source_store.close()
    return CopyReport(copied, verification)


async def _copy_tables(source: Store, target: PostgresStore) -> dict[str, int]:
    """Copy every table in one target transaction; the rows copied per table.

    Raises:
        CopyError: as `copy_database`; the target transaction was rolled back.
    """
    copied: dict[str, int] = {}
    # One source transaction: a consistent view of every table, and BEGIN IMMEDIATE keeps any other SQLite client
    # from writing while we read (the file lock keeps other bots out already).
    async with source.transaction() as reader:
        columns = await _source_columns(reader)
        try:
            async with target.pool.acquire() as raw, raw.transaction():
                await _check_target_columns(raw, columns)
                # Held until the commit: nobody else writes to these tables between the emptiness check and the copy.
                await raw.execute(f"LOCK TABLE {', '.join(TABLES)} IN EXCLUSIVE MODE")
                await _require_empty(raw)
                for table in TABLES:
                    copied[table] = await _copy_table(reader, raw, table, columns[table])
                # Rows inserted with their ids leave the identity's sequence behind: the next lobby would collide.
                await raw.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), max(id)) FROM games")
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
            raise CopyError(f"the copy failed and was rolled back, nothing was written ({_reason(error)})") from None
    return copied


async def _source_columns(reader: aiosqlite.Connection) -> dict[str, tuple[str, ...]]:
    """Each table's columns, as the SQLite table itself has them.

    Raises:
        CopyError: the source holds a table this copy does not know (it would be left behind).
    """
    rows = await reader.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    )
    unknown = sorted({row[0] for row in rows} - set(TABLES))
    if unknown:
        raise CopyError(f"the source has tables this copy does not know ({', '.join(unknown)}); nothing was copied")
    columns: dict[str, tuple[str, ...]] = {}
    for table in TABLES:
        # PRAGMA takes no parameters; `table` is one of TABLES.
        info = await reader.execute_fetchall(f"PRAGMA table_info({table})")
        columns[table] = tuple(row[1] for row in info)
        if not columns[table]:
            raise CopyError(f"the source has no table {table}; nothing was copied")
    return columns


async def _check_target_columns(raw: RawConnection, columns: Mapping[str, Sequence[str]]) -> None:
    """Raises CopyError unless each target table has exactly the source table's column names."""
    for table, names in columns.items():
        rows = await raw.fetch(
            """SELECT column_name FROM information_schema.columns
               WHERE table_schema = current_schema() AND table_name = $1""",
            table,
        )
        found = {str(row[0]) for row in rows}
        missing, extra = sorted(set(names) - found), sorted(found - set(names))
        if missing or extra:
            said = [f"missing {', '.join(missing)}" if missing else "", f"extra {', '.join(extra)}" if extra else ""]
            raise CopyError(
                f"table {table} differs in the target ({'; '.join(part for part in said if part)}): source and "
                "target must be at the same schema version; nothing was copied"
            )


async def _require_empty(raw: RawConnection) -> None:
    """Raises CopyError if any table of the target holds a row (copying is into an empty database only)."""
    for table in TABLES:
        if await raw.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise CopyError(
                f"the target already holds data (table {table} is not empty): copying is into an empty database "
                "only; nothing was written"
            )


async def _copy_table(reader: aiosqlite.Connection, raw: RawConnection, table: str, columns: Sequence[str]) -> int:
    """Send the table's rows in batches of COPY; how many were sent."""
    total = 0
    # Values go over as SQLite returns them: the schema is STRICT, so each column holds one type, and the 0/1 flags
    # are INTEGER columns on both sides.
    async with reader.execute(f"SELECT {', '.join(columns)} FROM {table}") as cursor:
        while records := [tuple(row) for row in await cursor.fetchmany(BATCH_ROWS)]:
            try:
                await raw.copy_records_to_table(table, records=records, columns=list(columns))
            except (asyncpg.PostgresError, ValueError, TypeError, OverflowError) as error:
                # Refused by the server (a constraint) or by asyncpg's encoder (a value its column cannot hold: an
                # SQLite INTEGER is 64 bits, a PostgreSQL INTEGER 32). Raised inside the transaction: rolled back.
                raise CopyError(
                    f"copying table {table} failed and was rolled back, nothing was written ({_reason(error)})"
                ) from None
            total += len(records)
    return total


def _reason(error: BaseException) -> str:
    """The error on one line, for a message."""
    return " ".join(str(error).split()) or type(error).__name__


# -- verification ------------------------------------------------------------------------------------------------------


async def verify(source: Store, target: PostgresStore) -> Verification:
    """Read source and target back and compare them; running games are checked against their move log in the target.

    Checks: every table's row count; the set of game ids of each status, and each game's move count (its row's and
    its log's); and each running game's snapshot against the replay of its log (as the bot's start-up check does).
    """
    async with source.transaction() as reader:
        source_counts = await _counts(reader)
        source_games = _per_game(await reader.execute_fetchall(_PER_GAME))
    differences: list[str] = []
    async with target.pool.acquire() as raw, raw.transaction(isolation="repeatable_read", readonly=True):
        conn = PgConnection(raw)
        target_counts = await _counts(conn)
        target_games = _per_game(await conn.execute_fetchall(_PER_GAME))
        running = [game_id for game_id, (status, _, _) in target_games.items() if status == "running"]
        replayed = 0
        failed: dict[int, str] = {}
        for game_id in running:
            problem = await _replay_problem(conn, game_id)
            if problem is None:
                replayed += 1
            else:
                failed[game_id] = problem
    differences.extend(f"game #{game_id}: {problem}" for game_id, problem in failed.items())
    differences[:0] = _count_differences(source_counts, target_counts) + _game_differences(source_games, target_games)
    by_status: dict[str, int] = {}
    for status, _, _ in target_games.values():
        by_status[status] = by_status.get(status, 0) + 1
    return Verification(source_counts, target_counts, by_status, replayed, _shortened(differences))


async def _counts(conn: Connection) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table in TABLES:
        row = next(iter(await conn.execute_fetchall(f"SELECT count(*) FROM {table}")))
        counts[table] = int(row[0])
    return counts


def _per_game(rows: Iterable[Any]) -> dict[int, tuple[str, int, int]]:
    """Game id → (status, the row's move count, the log's length)."""
    return {int(row[0]): (str(row[1]), int(row[2]), int(row[3])) for row in rows}


async def _replay_problem(conn: Connection, game_id: int) -> str | None:
    """Why the game's snapshot is not the replay of its log (both read on `conn`); None when it is."""
    game = await fetch_game(conn, game_id, tolerate_bad_state=True)
    rows = await conn.execute_fetchall(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
    # A replay is CPU work: off the event loop, as the store does it.
    check: SnapshotCheck | Exception = await asyncio.to_thread(replayed_check, game, [tuple(row) for row in rows])
    if isinstance(check, Exception):
        return f"its move log cannot be replayed ({type(check).__name__}: {_reason(check)})"
    return check.problem


def _count_differences(source: Mapping[str, int], target: Mapping[str, int]) -> list[str]:
    return [
        f"table {table}: {source[table]} rows in the source, {target[table]} in the target"
        for table in TABLES
        if source[table] != target[table]
    ]


def _game_differences(
    source: Mapping[int, tuple[str, int, int]], target: Mapping[int, tuple[str, int, int]]
) -> list[str]:
    differences = [f"game #{game_id} is missing from the target" for game_id in sorted(source.keys() - target.keys())]
    differences += [f"game #{game_id} is in the target only" for game_id in sorted(target.keys() - source.keys())]
    for game_id in sorted(source.keys() & target.keys()):
        if source[game_id] != target[game_id]:
            (status, count, logged), (status2, count2, logged2) = source[game_id], target[game_id]
            differences.append(
                f"game #{game_id}: source {status}, {count} moves ({logged} logged); "
                f"target {status2}, {count2} moves ({logged2} logged)"
            )
    return differences


def _shortened(differences: Sequence[str]) -> tuple[str, ...]:
    if len(differences) <= _SHOWN_DIFFERENCES:
        return tuple(differences)
    left = len(differences) - _SHOWN_DIFFERENCES
    return (*differences[:_SHOWN_DIFFERENCES], f"... and {left} more")


# -- command line ------------------------------------------------------------------------------------------------------


def mask_url(url: str) -> str:
    """`url` with its password (in the user part or a `password=` option) replaced by `***`."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}:***@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(key, "***" if key == "password" else value) for key, value in pairs], safe="/*")
    # Joined by hand: urlunsplit drops the `//` of an empty host (`postgresql:///db` is a local socket).
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")


def _source_path(given: str) -> Path | None:
    """The SQLite file SOURCE names (a path, or `sqlite:///path`); None for anything else (another URL)."""
    if given.startswith(_SQLITE_PREFIX):
        return Path(given.removeprefix(_SQLITE_PREFIX))
    if "://" in given:
        return None
    return Path(given)


def _say(line: str | None, *, error: bool = False) -> None:
    """Write one line to stdout (or stderr for a refusal): the command's output, not a log."""
    (sys.stderr if error else sys.stdout).write(f"{line}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the copy from the command line; the exit status (see the module's docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        _say(__doc__)
        return 0
    if len(args) != 2:
        _say(USAGE, error=True)
        return 2
    source, target = _source_path(args[0]), args[1]
    if source is None:
        _say(f"SOURCE must be an SQLite file path (or sqlite:///path), not {mask_url(args[0])}", error=True)
        return 2
    if urlsplit(target).scheme not in _POSTGRES_SCHEMES:
        _say(f"TARGET must be a postgresql:// URL, not {mask_url(target)}", error=True)
        return 2
    _say(f"copying {source} into {mask_url(target)}")
    try:
        report = asyncio.run(copy_database(source, target))
    except DatabaseLockedError as error:
        holder = f"pid {error.pid}" if error.pid is not None else "pid unknown"
        _say(f"{source} is in use by a running bot ({holder}): stop the bot, then copy its database", error=True)
        return 2
    except StoreError as error:
        _say(" ".join(str(error).split()), error=True)
        return 2
    for line in report.lines():
        _say(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
