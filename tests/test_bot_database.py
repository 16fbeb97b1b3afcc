"""`python bot.py` on a database it cannot use: one line naming the file, and the exit status the README lists.

Each case runs the real bot as a subprocess with a well-formed fake token and Discord pointed at a closed port, so
a bot that wrongly got past the database check would be seen retrying instead of exiting.
"""

import asyncio
import random
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from db.store import Store
from tests.db.helpers import filled_database
from tests.startup_helpers import FAKE_TOKEN, start_bot, unused_port


def run_bot_on(tmp_path: Path, database: Path) -> tuple[int, list[str]]:
    bot = start_bot(tmp_path, f"http://127.0.0.1:{unused_port()}/api/v10", DATABASE_PATH=str(database))
    status = bot.wait(timeout=60)
    return status, [line for _, line in bot.lines]


def assert_one_line(lines: list[str], *fragments: str) -> None:
    output = "\n".join(lines)
    assert len(lines) == 1, lines
    assert "Traceback" not in output and FAKE_TOKEN not in output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


async def an_empty_database(path: Path) -> None:
    await (await Store.open(path)).close()


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(64 * 1024))


def truncated(path: Path) -> None:
    asyncio.run(filled_database(path))
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2 + 1000)


def garbage_page(path: Path) -> None:
    asyncio.run(filled_database(path))
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'moves'").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((root - 1) * page_size + 100)
        file.write(random.Random(2).randbytes(page_size - 200))


def a_folder(path: Path) -> None:
    path.mkdir()


def newer_schema(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 999")


@pytest.mark.parametrize(
    ("damage", "status", "words"),
    [
        (random_bytes, 5, "is not an SQLite database"),
        (truncated, 5, "damaged"),
        (garbage_page, 5, "damaged"),
        (a_folder, 5, "is a folder"),
        (newer_schema, 3, "schema version 999"),
    ],
    ids=["not a database", "truncated", "corrupted page", "folder as path", "newer schema"],
)
def test_a_damaged_database_stops_the_bot_in_one_line_with_its_exit_status(
    tmp_path: Path, damage: Callable[[Path], None], status: int, words: str
) -> None:
    database = tmp_path / "bot.db"
    damage(database)
    exited, lines = run_bot_on(tmp_path, database)
    assert exited == status
    assert_one_line(lines, "Cannot use the database", str(database), words)


def test_a_read_only_file_system_exits_6_in_one_line(tmp_path: Path, small_tmpfs: Path) -> None:
    database = small_tmpfs / "bot.db"
    asyncio.run(an_empty_database(database))
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    exited, lines = run_bot_on(tmp_path, database)
    assert exited == 6
    assert_one_line(lines, "Cannot use the database", str(database), "read-only file system")


def test_a_full_disk_exits_6_in_one_line(tmp_path: Path, small_tmpfs: Path) -> None:
    database = small_tmpfs / "bot.db"
    (small_tmpfs / "bot.db.lock").write_text("0\n")
    filler = small_tmpfs / "filler"
    with filler.open("wb", buffering=0) as file, pytest.raises(OSError, match="No space left"):
        while True:
            file.write(b"\0" * 4096)
    filler.write_bytes(b"\0" * (filler.stat().st_size - 8 * 4096))
    exited, lines = run_bot_on(tmp_path, database)
    assert exited == 6
    assert_one_line(lines, "Cannot use the database", str(database), "the disk is full")


def test_a_second_bot_on_the_same_database_exits_4_naming_the_first(
    tmp_path: Path, holder: tuple[Path, subprocess.Popen[str]]
) -> None:
    database, first = holder
    exited, lines = run_bot_on(tmp_path, database)
    assert exited == 4
    assert_one_line(lines, "Cannot use the database", str(database), f"another bot process (pid {first.pid})")
