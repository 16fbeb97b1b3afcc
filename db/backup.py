"""`python -m db.backup PATH`: a consistent copy of the bot's SQLite database, taken while the bot runs, and checked.

The copy is SQLite's online backup (`sqlite3.Connection.backup`), a few hundred pages at a time with a short pause
between steps, read inside one read transaction: in WAL mode that pins one snapshot of the database for the whole
copy (so it is consistent, and never restarts because a move was saved meanwhile), while the bot goes on writing
moves beside it (WAL readers never hold up writers). The copy is written beside PATH as `PATH.partial`, made one
self-contained file (rollback journal, no -wal), checked, and only then renamed to PATH:

- `PRAGMA quick_check` finds no problem;
- its schema version is this code's (the newest migration);
- every running game's snapshot equals the replay of its move log (the start-up check's own verdict,
  `db.sql_checks.replayed_check`).

The check replays every running game: pure Python, which in the bot (a worker thread) would hold the GIL from the
moves being played; there it rests after each game as long as the replay took (`CHECK_SHARE`), which keeps the moves'
p99 latency near what it is without a backup (`python -m bench.bench_db`).

It prints one line, e.g. `backup of data/bot.db to backups/bot.db: 123 games, 4 running, checked (quick_check ok,
schema 13, 4 snapshots match their logs) in 0.4 s`.

Usage: `python -m db.backup PATH [--database FILE] [--force]`. FILE is the bot's database: `DATABASE_PATH` (from the
environment or `.env`), else `data/bot.db`. PATH must not exist unless `--force` (it is replaced only once the new
copy has passed its check). The bot takes these by itself with `BACKUP_DIR`, `BACKUP_EVERY` and `BACKUP_KEEP`.

Exit status: 0 copied and checked; 1 the copy failed its check (the problem is printed; nothing is left at PATH);
2 bad arguments, or PATH exists; 5 the database cannot be read (missing, not a database, damaged); 6 PATH cannot be
written (permission, read-only or full disk).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from db._codec import GAME_COLUMNS, MOVE_COLUMNS, game_from_row
from db.migrate import load_migrations
from db.sql_checks import replayed_check  # the start-up check's own verdict on a snapshot
from db.store import BUSY_TIMEOUT_MS

__all__ = [
    "CHECK_SHARE",
    "EXIT_CHECK_FAILED",
    "EXIT_OK",
    "BackupError",
    "BackupReport",
    "Check",
    "ScheduledBackups",
    "check_copy",
    "copy_pages",
    "main",
    "take_backup",
]

log = logging.getLogger(__name__)

EXIT_OK: Final = 0
EXIT_CHECK_FAILED: Final = 1
EXIT_BAD_ARGUMENTS: Final = 2
EXIT_IN_USE: Final = 4  # db.restore: the bot's own status for a database another process holds
EXIT_UNREADABLE: Final = 5
EXIT_UNWRITABLE: Final = 6

PAGES_PER_STEP: Final = 256  # 1 MiB at SQLite's default 4 KiB pages
PAUSE_SECONDS: Final = 0.002  # between steps: the disk and the GIL go to the bot's moves now and then
CHECK_SHARE: Final = 0.5  # of the GIL, for the check of a backup the bot takes while it plays (see check_copy)
DEFAULT_DATABASE: Final = "data/bot.db"
USAGE: Final = "usage: python -m db.backup PATH [--database FILE] [--force]"
_SHOWN_PROBLEMS: Final = 3


class BackupError(Exception):
    """A backup (or restore) that was refused or failed; `status` is the command's exit status, the message one line."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(" ".join(message.split()))
        self.status = status


@dataclass(frozen=True, slots=True)
class Check:
    """What checking a copy found: `problems` is empty when it passed."""

    games: int
    running: int
    schema: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Every check passed."""
        return not self.problems

    def summary(self) -> str:
        """`123 games, 4 running, checked (quick_check ok, schema 13, 4 snapshots match their logs)`."""
        return (
            f"{self.games} games, {self.running} running, checked (quick_check ok, schema {self.schema}, "
            f"{self.running} snapshots match their logs)"
        )

    def failure(self) -> str:
        """The problems found, on one line (the first few, and how many more)."""
        shown = "; ".join(self.problems[:_SHOWN_PROBLEMS])
        more = len(self.problems) - _SHOWN_PROBLEMS
        return shown + (f"; and {more} more" if more > 0 else "")


@dataclass(frozen=True, slots=True)
class BackupReport:
    """A backup taken and checked."""

    source: Path
    target: Path
    check: Check
    seconds: float

    def line(self) -> str:
        """The one line the command prints and the bot logs."""
        return f"backup of {self.source} to {self.target}: {self.check.summary()} in {self.seconds:.1f} s"


def copy_pages(source: Path, target: Path, *, pages: int = PAGES_PER_STEP, pause: float = PAUSE_SECONDS) -> None:
    """Copy the database at `source` into a new file `target` with SQLite's online backup, in steps of `pages`.

    One read transaction on the source spans every step, so the copy is one snapshot of the database however many
    moves are saved meanwhile (WAL: those writers do not wait for it). Nothing is written to the source.

    Raises:
        BackupError: the source cannot be read (status 5), or the target cannot be written (status 6).
    """
    if not source.is_file():
        raise BackupError(
            f"{source} does not exist or is not a file; give the bot's database (DATABASE_PATH or --database)",
            EXIT_UNREADABLE,
        )
    try:
        # Opened read-write (the file exists: it is not created) so that, when it is the last connection, closing it
        # folds the WAL back and removes it as the bot's own close does; query_only keeps it from writing anything.
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as error:
        raise _unreadable(source, error) from None
    try:
        try:
            src.execute("PRAGMA query_only = ON")
            src.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            src.execute("BEGIN")
            src.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot is pinned from here on
        except sqlite3.Error as error:
            raise _unreadable(source, error) from None
        try:
            dst = sqlite3.connect(target, isolation_level=None)
        except sqlite3.Error as error:
            raise _unwritable(target, error) from None
        try:
            src.backup(dst, pages=pages, sleep=pause)
            # One self-contained file: no -wal beside it to forget when it is moved or archived.
            dst.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.Error as error:
            raise _copy_error(source, target, error) from None
        finally:
            dst.close()
    finally:
        src.close()


def _unreadable(source: Path, error: sqlite3.Error) -> BackupError:
    return BackupError(f"{source} cannot be read as an SQLite database ({error})", EXIT_UNREADABLE)


def _unwritable(target: Path, error: BaseException) -> BackupError:
    detail = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return BackupError(f"{target} cannot be written ({detail}); check the folder, its permissions and free space",
                       EXIT_UNWRITABLE)  # fmt: skip


def _copy_error(source: Path, target: Path, error: sqlite3.Error) -> BackupError:
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_IOERR):
        return _unreadable(source, error)
    return _unwritable(target, error)


def check_copy(path: Path, *, share: float = 1.0) -> Check:
    """Check a copy: `quick_check`, its schema version against this code's, every running game against its log.

    Reads only; the replays are pure computation. In the bot it runs in a worker thread, where each replay holds
    Python's GIL from the event loop: `share` below 1 rests after each game for as long as its replay took times
    (1 - share) / share, so that the moves being played meanwhile get the GIL back (0.5: half the time).

    Raises:
        BackupError: the file cannot be opened as a database at all (status 5).
    """
    newest = len(load_migrations())
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as error:
        raise _unreadable(path, error) from None
    try:
        try:
            damaged = [row[0] for row in conn.execute("PRAGMA quick_check")]
            schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.Error as error:
            return Check(0, 0, 0, (f"{path} is not a readable SQLite database ({error})",))
        if damaged != ["ok"]:
            first = " ".join(damaged[0].split())
            return Check(0, 0, schema, (f"PRAGMA quick_check found {len(damaged)} problem(s), the first: {first}",))
        if schema != newest:
            newer = "a newer bot wrote it" if schema > newest else "start the bot of this version on it once first"
            return Check(0, 0, schema, (f"its schema version is {schema}, this code's is {newest} ({newer})",))
        return _check_games(conn, schema, share)
    finally:
        conn.close()


def _check_games(conn: sqlite3.Connection, schema: int, share: float) -> Check:
    problems: list[str] = []
    try:
        games = int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
        rows = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'running' ORDER BY id").fetchall()
    except sqlite3.Error as error:
        return Check(0, 0, schema, (f"its games cannot be read ({error})",))
    for row in rows:
        game_id = row[0]
        try:
            game = game_from_row(row, tolerate_bad_state=True)
            moves = conn.execute(
                f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        except (sqlite3.Error, ValueError, TypeError, KeyError) as error:
            problems.append(f"game #{game_id} cannot be read ({type(error).__name__}: {error})")
            continue
        if len(moves) != game.move_count:
            problems.append(f"game #{game_id}: its row counts {game.move_count} moves, its log holds {len(moves)}")
            continue
        began = time.perf_counter()
        verdict = replayed_check(game, moves)
        if share < 1:
            time.sleep((time.perf_counter() - began) * (1 - share) / share)
        if isinstance(verdict, Exception):
            problems.append(f"game #{game_id}: its move log cannot be replayed ({type(verdict).__name__})")
        elif verdict.problem is not None:
            problems.append(f"game #{game_id}: {verdict.problem}")
    return Check(games, len(rows), schema, tuple(problems))


def take_backup(
    source: Path,
    target: Path,
    *,
    force: bool = False,
    pages: int = PAGES_PER_STEP,
    pause: float = PAUSE_SECONDS,
    share: float = 1.0,
    copy: Callable[..., None] = copy_pages,
) -> BackupReport:
    """Copy `source` to `target` (through `target.partial`), check the copy, then put it in place.

    Blocking: the bot calls it in a worker thread, with `share` (see `check_copy`) below 1.

    Raises:
        BackupError: `target` exists and not `force` (2), the copy failed its check (1; nothing is left at
            `target`), the source cannot be read (5) or the target written (6).
    """
    started = time.perf_counter()
    if target.exists() and not force:
        raise BackupError(f"{target} already exists; give another path, or --force to replace it", EXIT_BAD_ARGUMENTS)
    if target.is_dir():
        raise BackupError(f"{target} is a folder; give a file path such as {target / source.name}", EXIT_BAD_ARGUMENTS)
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)  # left by a backup that was killed
    except OSError as error:
        raise _unwritable(target, error) from None
    try:
        copy(source, partial, pages=pages, pause=pause)
        check = check_copy(partial, share=share)
        if not check.ok:
            raise BackupError(f"the copy of {source} failed its check: {check.failure()}", EXIT_CHECK_FAILED)
        try:
            os.replace(partial, target)
            sync_folder(target.parent)
        except OSError as error:
            raise _unwritable(target, error) from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
    return BackupReport(source, target, check, time.perf_counter() - started)


def sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (the file's own data was flushed by SQLite's commit)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def utc_stamp(moment: datetime) -> str:
    """`20261203T090601Z`: a time in file names, sorting as it counts."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


class ScheduledBackups:
    """The bot's own backups: `<stem>-<UTC time>.db` in `folder` every `every` hours, keeping the newest `keep`.

    Blocking (files and SQLite): the bot calls `take_if_due` in a worker thread. Only files named like its own
    backups are ever deleted from the folder.
    """

    def __init__(self, database: Path, folder: Path, every_hours: int, keep: int) -> None:
        self.database, self.folder, self.every_hours, self.keep = database, folder, every_hours, keep
        self._name = re.compile(rf"^{re.escape(database.stem)}-(?P<stamp>[0-9]{{8}}T[0-9]{{6}}Z)\.db$")

    def taken(self) -> list[Path]:
        """The backups of the database in the folder, oldest first."""
        try:
            names = sorted(entry.name for entry in os.scandir(self.folder) if self._name.match(entry.name))
        except FileNotFoundError:
            return []
        return [self.folder / name for name in names]

    def is_due(self, now: datetime) -> bool:
        """No backup yet, or the newest is `every_hours` old (by the time in its name; survives restarts)."""
        taken = self.taken()
        if not taken:
            return True
        match = self._name.match(taken[-1].name)
        assert match is not None  # `taken` lists matching names only
        newest = datetime.strptime(match["stamp"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        return (now - newest).total_seconds() >= self.every_hours * 3600

    def take_if_due(self, now: datetime) -> str | None:
        """Take a backup if one is due, then keep the newest `keep`; the line to log, or None when none was due.

        Raises:
            BackupError: as `take_backup`; an older backup is then never deleted.
        """
        if not self.is_due(now):
            return None
        target = self.folder / f"{self.database.stem}-{utc_stamp(now)}.db"
        report = take_backup(self.database, target, share=CHECK_SHARE)
        removed = 0
        for old in self.taken()[: -self.keep]:
            with contextlib.suppress(FileNotFoundError):
                old.unlink()
                removed += 1
        return f"{report.line()}; {self.keep} kept at most, {removed} older removed"

    def run_if_due(self, now: datetime) -> bool:
        """`take_if_due`, saying what happened in one log line: whether a backup was taken."""
        try:
            line = self.take_if_due(now)
        except BackupError as error:
            log.error("The scheduled backup failed: %s", error)
            return False
        if line is not None:
            log.info("%s", line)
        return line is not None

    def describe(self) -> str:
        """One line for the log at start-up."""
        return (
            f"Backups of {self.database} every {self.every_hours} h into {self.folder}, keeping the newest {self.keep}."
        )


# -- command line ------------------------------------------------------------------------------------------------------


def default_database(env: Mapping[str, str] | None = None) -> Path:
    """The bot's database as the bot finds it: DATABASE_PATH from the environment or `.env`, else the default."""
    if env is None:
        from dotenv import dotenv_values, find_dotenv  # only the command line reads .env

        env = {**{k: v for k, v in dotenv_values(find_dotenv(usecwd=True)).items() if v is not None}, **os.environ}
    return Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)


def parse_arguments(args: Sequence[str], flags: tuple[str, ...]) -> tuple[list[str], Path | None, set[str]] | None:
    """Positional arguments, `--database FILE` and the `flags` given; None when they do not parse."""
    positional: list[str] = []
    database: Path | None = None
    given: set[str] = set()
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--database" and rest:
            database = Path(rest.pop(0))
        elif arg.startswith("--database="):
            database = Path(arg.removeprefix("--database="))
        elif arg in flags:
            given.add(arg)
        elif arg.startswith("-"):
            return None
        else:
            positional.append(arg)
    return positional, database, given


def say(line: str, *, error: bool = False) -> None:
    """Write one line to stdout (or stderr for a refusal): the command's output, not a log."""
    (sys.stderr if error else sys.stdout).write(f"{line}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Take one backup from the command line; the exit status (see the module's docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        say(__doc__ or "")
        return EXIT_OK
    parsed = parse_arguments(args, ("--force",))
    if parsed is None or len(parsed[0]) != 1:
        say(USAGE, error=True)
        return EXIT_BAD_ARGUMENTS
    (target,), database, flags = parsed
    source = database or default_database()
    try:
        report = take_backup(source, Path(target), force="--force" in flags)
    except BackupError as error:
        say(str(error), error=True)
        return error.status
    say(report.line())
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
