"""Suite-wide checks, and fixtures shared by the storage and start-up tests."""

import contextlib
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from db.postgres.store import PostgresStore
from db.sql_store import SqlStore
from db.store import Store
from tests.discord_limits import violations
from tests.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures for every test under tests/

ON_POSTGRES = pytest.StashKey[set[str]]()
# The storage backends a test of the store's ports, or of the service on them, runs against (fixture `any_store`).
BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that uses `backend` runs once per backend, unless marked `sqlite_only` (it opens the file itself)."""
    if "backend" in metafunc.fixturenames:
        only_sqlite = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", ("sqlite",) if only_sqlite else BACKENDS)


def _on_postgres(item: pytest.Item) -> bool:
    """Whether the test runs against PostgreSQL (a `[postgres]` backend, or a PostgreSQL fixture of its own)."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("backend") == "postgres":
        return True
    return bool({"postgres_server", "postgres_url"} & set(getattr(item, "fixturenames", ())))


def pytest_collection_finish(session: pytest.Session) -> None:
    session.config.stash[ON_POSTGRES] = {item.nodeid for item in session.items if _on_postgres(item)}


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """One line that says the PostgreSQL tests ran (CI's output shows it), or how many did not."""
    on_postgres = config.stash.get(ON_POSTGRES, set())
    if not on_postgres:
        return
    outcomes = {
        outcome: sum(report.nodeid in on_postgres and report.when == "call" for report in reports)
        if outcome != "skipped"
        else sum(report.nodeid in on_postgres for report in reports)
        for outcome, reports in terminalreporter.stats.items()
        if outcome in ("passed", "failed", "skipped", "error")
    }
    said = ", ".join(f"{count} {outcome}" for outcome, count in outcomes.items() if count)
    terminalreporter.write_line(f"PostgreSQL: {len(on_postgres)} tests on a real server: {said or 'none run'}")


@pytest.fixture
async def any_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[SqlStore]:
    """An open store on `backend`: a new SQLite file, or a new PostgreSQL database; closed afterwards."""
    if backend == "sqlite":
        opened: SqlStore = await Store.open(tmp_path / "data" / "bot.db")
    else:
        opened = await PostgresStore.open(request.getfixturevalue("postgres_url"))
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture(autouse=True)
def every_payload_within_discord_limits(request: pytest.FixtureRequest) -> Iterator[None]:
    """In every SimCord test, each request the bot sent respects Discord's limits on messages and components."""
    if "simcord_env" not in request.fixturenames:
        yield
        return
    env = request.getfixturevalue("simcord_env")
    yield
    broken = [
        f"{entry.method} {entry.path}: {problem}"
        for entry in env.http_requests
        for problem in violations(entry.json)
    ]
    assert not broken, "payloads past Discord's limits:\n" + "\n".join(broken)


ROOT = Path(__file__).resolve().parent.parent
# A process that opens the store, says so, and holds it until stdin closes (or it is killed).
HOLDER = """
import asyncio, sys
from db.store import Store
async def main():
    store = await Store.open(sys.argv[1])
    print("open", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await store.close()
asyncio.run(main())
"""



@pytest.fixture
def holder(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A second process with the database at tmp_path/bot.db open."""
    path = tmp_path / "bot.db"
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None and child.stderr is not None  # both are pipes
            assert child.stdout.readline() == "open\n", child.stderr.read()
            yield path, child
        finally:
            if child.poll() is None:
                child.kill()
            child.wait(timeout=30)


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MiB tmpfs mounted at tmp_path/mnt (needs root and a kernel that allows it, else the test skips).

    Room for a new database and every migration (one rebuilds a table), and little more.
    """
    with mounted_tmpfs(tmp_path / "mnt", "1m") as mount_point:
        yield mount_point


@contextlib.contextmanager
def mounted_tmpfs(mount_point: Path, size: str) -> Iterator[Path]:
    """A real tmpfs of `size` (mount's notation) at `mount_point`; skips the test where it cannot be mounted."""
    mount_point.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command here")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)
