"""`python -m db.restore BACKUP [--database FILE]`: put a backup back in place of the bot's database, after checking it.

1. Stop the bot: the restore takes the lock the bot holds on its database (`<FILE>.lock`, see `db/_opening.py`) and
   refuses while a bot, or anything else with the database open through the store, holds it.
2. The backup is copied beside FILE (SQLite's backup, so a backup that still has a -wal beside it comes whole) and
   checked as `db.backup` checks its copies: `quick_check`, the schema version, every running game's snapshot
   against its move log. A backup that fails is refused, and FILE is left as it was.
3. FILE (with its -wal and -shm, if a stopped bot left them) is kept as `<FILE>.before-restore-<UTC time>`, so that
   nothing is lost, and the checked copy takes its place. Then start the bot.

FILE is `DATABASE_PATH` (from the environment or `.env`), else `data/bot.db`. It prints one line, e.g.
`restored data/bot.db from backups/bot-20261203T090000Z.db: 123 games, 4 running, checked (...); the file it
replaced is kept as data/bot.db.before-restore-20261203T101500Z`.

Exit status: 0 restored; 1 the backup failed its check (FILE unchanged); 2 bad arguments; 4 the database is in use
by a bot process (stop it first); 5 the backup cannot be read (missing, not a database); 6 FILE's folder cannot be
written.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from db._opening import DatabaseLock
from db.backup import (
    EXIT_BAD_ARGUMENTS,
    EXIT_CHECK_FAILED,
    EXIT_IN_USE,
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_UNWRITABLE,
    BackupError,
    Check,
    check_copy,
    copy_pages,
    default_database,
    parse_arguments,
    say,
    sync_folder,
    utc_stamp,
)
from db.errors import DatabaseLockedError, DatabaseUnusableError

__all__ = ["RestoreReport", "main", "restore"]

USAGE: Final = "usage: python -m db.restore BACKUP [--database FILE]"
_SIDE_FILES: Final = ("-wal", "-shm")  # SQLite's names for them: `<file>-wal`, `<file>-shm`


@dataclass(frozen=True, slots=True)
class RestoreReport:
    """A backup put in place: the check it passed, and where the file it replaced was kept (None: there was none)."""

    backup: Path
    database: Path
    check: Check
    kept: Path | None

    def line(self) -> str:
        """The one line the command prints."""
        kept = f"the file it replaced is kept as {self.kept}" if self.kept else "there was no file to replace"
        return f"restored {self.database} from {self.backup}: {self.check.summary()}; {kept}"


def restore(
    backup: Path, database: Path, *, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> RestoreReport:
    """Check `backup` and put it in place of `database`, keeping the file it replaces.

    Raises:
        BackupError: the database is held by a bot (4), the backup cannot be read (5) or fails its check (1), or
            the database's folder cannot be written (6); `database` is then as it was.
    """
    if not backup.is_file():
        raise BackupError(f"{backup} does not exist or is not a file; give the path of a backup", EXIT_UNREADABLE)
    if database.is_dir():
        raise BackupError(f"{database} is a folder; --database names the bot's database file", EXIT_BAD_ARGUMENTS)
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
        lock = DatabaseLock.acquire(database)
    except DatabaseLockedError as error:
        holder = f"pid {error.pid}" if error.pid is not None else "pid unknown"
        raise BackupError(
            f"{database} is in use by a running bot ({holder}): stop the bot, then restore", EXIT_IN_USE
        ) from None
    except DatabaseUnusableError as error:
        raise BackupError(str(error), EXIT_UNWRITABLE) from None
    except OSError as error:
        raise BackupError(f"{database.parent} cannot be written ({error.strerror})", EXIT_UNWRITABLE) from None
    restoring = database.with_name(database.name + ".restoring")
    try:
        with contextlib.suppress(FileNotFoundError):
            restoring.unlink()  # left by a restore that was killed
        copy_pages(backup, restoring)
        check = check_copy(restoring)
        if not check.ok:
            raise BackupError(f"{backup} failed its check, {database} was not changed: {check.failure()}",
                              EXIT_CHECK_FAILED)  # fmt: skip
        kept = _keep_current(database, utc_stamp(clock()))
        try:
            os.replace(restoring, database)
            sync_folder(database.parent)
        except OSError as error:
            raise BackupError(f"{database} cannot be written ({error.strerror})", EXIT_UNWRITABLE) from None
    finally:
        with contextlib.suppress(OSError):
            restoring.unlink(missing_ok=True)
        lock.release()
    return RestoreReport(backup, database, check, kept)


def _keep_current(database: Path, stamp: str) -> Path | None:
    """Rename the database and its side files to `<name>.before-restore-<stamp>`; the new name (None: no file)."""
    if not database.exists():
        return None
    kept = database.with_name(f"{database.name}.before-restore-{stamp}")
    try:
        # The -wal may hold moves a stopped bot had not yet checkpointed: it goes with the file, under the name SQLite
        # looks for beside the kept file, so that opening the kept file still reads them.
        for suffix in _SIDE_FILES:
            side = database.with_name(database.name + suffix)
            if side.exists():
                os.replace(side, kept.with_name(kept.name + suffix))
        os.replace(database, kept)
    except OSError as error:
        raise BackupError(f"{database} cannot be moved aside ({error.strerror})", EXIT_UNWRITABLE) from None
    return kept


def main(argv: Sequence[str] | None = None) -> int:
    """Restore one backup from the command line; the exit status (see the module's docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        say(__doc__ or "")
        return EXIT_OK
    parsed = parse_arguments(args, ())
    if parsed is None or len(parsed[0]) != 1:
        say(USAGE, error=True)
        return EXIT_BAD_ARGUMENTS
    (backup,), database, _ = parsed
    try:
        report = restore(Path(backup), database or default_database())
    except BackupError as error:
        say(str(error), error=True)
        return error.status
    say(report.line())
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
