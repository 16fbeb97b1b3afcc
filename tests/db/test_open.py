"""Opening the database: one process per file, and every damaged or unusable file refused in one line naming it."""

import asyncio
import contextlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from db.errors import (
    DatabaseCorruptError,
    DatabaseLockedError,
    DatabaseUnusableError,
    DatabaseUnwritableError,
    StoreError,
)
from db.store import Store
from tests.db.helpers import filled_database

ROOT = Path(__file__).resolve().parents[2]


def one_line_naming(error: BaseException, path: Path) -> str:
    text = str(error)
    assert "\n" not in text
    assert str(path) in text
    return text


async def test_second_store_on_the_same_file_is_refused_naming_the_holder(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    path, child = holder
    with pytest.raises(DatabaseLockedError) as refused:
        await Store.open(path)
    assert one_line_naming(refused.value, path) == (
        f"{path} is in use by another bot process (pid {child.pid}); stop that bot first, or set DATABASE_PATH to "
        "another file."
    )
    assert refused.value.pid == child.pid


async def test_the_lock_dies_with_its_process_even_under_sigkill(holder: tuple[Path, subprocess.Popen[str]]) -> None:
    path, child = holder
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    store = await Store.open(path)
    await store.close()


async def test_a_closed_store_frees_the_file_for_the_next_one(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    first = await Store.open(path)
    with pytest.raises(DatabaseLockedError, match=f"pid {os.getpid()}"):
        await Store.open(path)
    await first.close()
    second = await Store.open(path)
    await second.close()
    await second.close()  # closing twice is harmless


async def test_a_file_of_random_bytes_is_refused_as_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(random.Random(1).randbytes(64 * 1024))
    with pytest.raises(DatabaseCorruptError) as refused:
        await Store.open(path)
    assert "is not an SQLite database" in one_line_naming(refused.value, path)
    assert path.read_bytes() == random.Random(1).randbytes(64 * 1024)  # left as it was


async def test_a_database_truncated_mid_page_is_refused_as_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await filled_database(path)
    size = path.stat().st_size
    assert size > 16 * 4096
    with path.open("r+b") as file:
        file.truncate(size // 2 + 1000)  # cuts a page in two, and loses the pages after it
    with pytest.raises(DatabaseCorruptError) as refused:
        await Store.open(path)
    assert "damaged" in one_line_naming(refused.value, path)


async def test_a_database_with_a_page_of_garbage_is_refused_by_quick_check(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await filled_database(path)
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        # A page of the moves table's tree (not page 1, so the file still looks like a database at first sight).
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'moves'").fetchone()[0]
    assert root > 1
    with path.open("r+b") as file:
        file.seek((root - 1) * page_size + 100)
        file.write(random.Random(2).randbytes(page_size - 200))
    with pytest.raises(DatabaseCorruptError) as refused:
        await Store.open(path)
    assert "damaged" in one_line_naming(refused.value, path)


async def test_a_folder_given_as_the_database_path_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "data"
    path.mkdir()
    with pytest.raises(DatabaseUnusableError) as refused:
        await Store.open(path)
    assert "is a folder" in one_line_naming(refused.value, path)


async def test_a_database_path_below_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a folder")
    path = tmp_path / "data" / "bot.db"
    with pytest.raises(DatabaseUnusableError) as refused:
        await Store.open(path)
    assert "is a file, not a folder" in one_line_naming(refused.value, path)


async def test_a_read_only_file_system_is_refused_as_unwritable(small_tmpfs: Path) -> None:
    path = small_tmpfs / "bot.db"
    await (await Store.open(path)).close()
    remount = await asyncio.create_subprocess_exec("mount", "-o", "remount,ro", str(small_tmpfs))
    assert await remount.wait() == 0
    with pytest.raises(DatabaseUnwritableError) as refused:
        await Store.open(path)
    assert "read-only file system" in one_line_naming(refused.value, path)


async def test_a_full_disk_is_refused_as_unwritable(small_tmpfs: Path) -> None:
    path = small_tmpfs / "bot.db"
    (small_tmpfs / "bot.db.lock").write_text("0\n")  # the lock fits; the schema will not
    filler = small_tmpfs / "filler"
    with filler.open("wb", buffering=0) as file, pytest.raises(OSError, match="No space left"):
        while True:
            file.write(b"\0" * 4096)
    filler.write_bytes(b"\0" * (filler.stat().st_size - 8 * 4096))  # leaves two pages' room: less than the schema
    with pytest.raises(DatabaseUnwritableError) as refused:
        await Store.open(path)
    assert "the disk is full" in one_line_naming(refused.value, path)


# A folder user nobody may enter, and a context to act as nobody (see the fixture).
AsNobody = tuple[Path, Callable[[], AbstractContextManager[None]]]


@pytest.fixture
def as_nobody(tmp_path: Path) -> Iterator[AsNobody]:
    """A folder user nobody may enter, and a context to act as nobody (root ignores file permissions)."""
    if os.geteuid() != 0:
        pytest.skip("acting as another user needs root")
    folder = Path(tempfile.mkdtemp(prefix="bot-perm-"))
    folder.chmod(0o755)

    @contextlib.contextmanager
    def nobody() -> Iterator[None]:
        os.setegid(65534)
        os.seteuid(65534)
        try:
            yield
        finally:
            os.seteuid(0)
            os.setegid(0)

    try:
        yield folder, nobody
    finally:
        shutil.rmtree(folder)


async def test_a_folder_the_bot_may_not_write_is_refused_as_unwritable(as_nobody: AsNobody) -> None:
    folder, nobody = as_nobody
    path = folder / "bot.db"
    with nobody(), pytest.raises(DatabaseUnwritableError) as refused:
        await Store.open(path)
    assert one_line_naming(refused.value, path) == (
        f"{path}: permission denied; let the bot's user write the file and its folder {folder}."
    )


async def test_a_read_only_database_file_is_refused_as_unwritable(as_nobody: AsNobody) -> None:
    folder, nobody = as_nobody
    path = folder / "bot.db"
    await (await Store.open(path)).close()
    folder.chmod(0o777)  # the -wal and -shm files may be made; the database itself stays root's and read-only
    path.with_name("bot.db.lock").chmod(0o666)
    path.chmod(0o444)
    with nobody(), pytest.raises(DatabaseUnwritableError) as refused:
        await Store.open(path)
    # SQLite reports the read-only file, or the permission denied on its -wal/-shm companions, depending on which it
    # meets first (both happen on real machines); either way the file is unwritable and the line says how to fix it.
    text = one_line_naming(refused.value, path)
    assert "is read-only" in text or "permission denied" in text


def test_every_unusable_reason_is_a_store_error() -> None:
    assert issubclass(DatabaseCorruptError, DatabaseUnusableError)
    assert issubclass(DatabaseUnwritableError, DatabaseUnusableError)
    assert issubclass(DatabaseUnusableError, StoreError)
    assert issubclass(DatabaseLockedError, StoreError)
