"""PostgreSQL for the tests: a server for the session, and a fresh empty database for each test that asks.

`postgres_server` yields an admin DSN: `TEST_DATABASE_URL` when set (`.ci/run` sets it to the server it started);
else a throwaway PostgreSQL started here from the binaries found (`initdb`, `pg_ctl`, `postgres`), listening on a
Unix socket in a temporary folder only, stopped at the end of the session; else the tests that use it skip, with
one line saying why. With `REQUIRE_POSTGRES=1` (CI) that skip is a failure: a CI run never passes by skipping them.

`postgres_url` gives each test its own empty database on that server (`CREATE DATABASE t_<random>`), dropped after;
`fresh_database` makes more, for a test that needs two (a copy's source and target, say). `migrated_postgres_url` is
the same with the bot's schema already in it: a copy of a database migrated once per session (per pytest-xdist
worker), for the tests of what the store does on a migrated database (`any_store`), which need not migrate each time.

The binaries refuse to run as root: as root they run as the `postgres` user (`runuser`). `POSTGRES_BIN_DIRS`
(folders separated by `os.pathsep`) replaces where they are looked for; set it empty to see the skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

NO_SERVER = "no server (set TEST_DATABASE_URL, or install PostgreSQL 15: initdb, pg_ctl, postgres)"
NEEDED = ("initdb", "pg_ctl", "postgres")


def bin_dir() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres: PATH first, then the newest /usr/lib/postgresql/*/bin."""
    given = os.environ.get("POSTGRES_BIN_DIRS")
    if given is not None:
        candidates = [Path(folder) for folder in given.split(os.pathsep) if folder]
    else:
        found = shutil.which("initdb")
        on_path = [Path(found).resolve().parent] if found else []
        # Debian keeps the server binaries off PATH; newest version first.
        packaged = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True)
        candidates = on_path + [Path(folder) for folder in packaged]
    for folder in candidates:
        if all((folder / name).is_file() and os.access(folder / name, os.X_OK) for name in NEEDED):
            return folder
    return None


def _version(folder: str) -> int:
    name = Path(folder).parent.name
    return int(name) if name.isdigit() else 0


def _as_postgres(command: list[str]) -> list[str]:
    """The command as the `postgres` user when we are root (PostgreSQL refuses to run as root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextlib.contextmanager
def throwaway_server(binaries: Path) -> Iterator[str]:
    """Start a PostgreSQL listening only on a socket in a new temporary folder; yield its admin DSN; stop it."""
    folder = Path(tempfile.mkdtemp(prefix="pg-test-"))
    folder.chmod(0o755)  # the socket must be reachable by whoever runs the tests
    if os.geteuid() == 0:
        shutil.chown(folder, user="postgres")
    data, log = folder / "data", folder / "log"

    def run(*command: str) -> None:
        # cwd: the postgres user may not be allowed into the folder the tests started from.
        done = subprocess.run(_as_postgres(list(command)), cwd=folder, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            logged = log.read_text(errors="replace") if log.exists() else ""
            pytest.fail(f"{' '.join(command)} failed: {done.stderr.strip()}\n{logged}", pytrace=False)

    try:
        run(str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
        options = f"-k {folder} -c listen_addresses='' -c max_connections=200"
        run(str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "start")
        try:
            yield f"postgresql://postgres@/postgres?host={folder}"
        finally:
            run(str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def no_server() -> None:
    """Skip the test (fail it under REQUIRE_POSTGRES=1): no PostgreSQL to test against."""
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL tests failed, REQUIRE_POSTGRES=1: {NO_SERVER}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {NO_SERVER}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """An admin DSN of a PostgreSQL server for this session (see the module's docstring for where it comes from)."""
    given = os.environ.get("TEST_DATABASE_URL", "").strip()
    if given:
        yield given
        return
    binaries = bin_dir()
    if binaries is None:
        no_server()
    assert binaries is not None
    with throwaway_server(binaries) as dsn:
        yield dsn


def database_dsn(admin_dsn: str, name: str) -> str:
    """The admin DSN with its database replaced by `name` (user, password, host, port and options kept)."""
    parts = urlsplit(admin_dsn)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _admin(admin_dsn: str, statement: str) -> None:
    """Run one statement on the admin database, in a thread with its own event loop.

    Not on the test's loop, which may not be running yet; and not `asyncio.run` on this thread, which would unset
    the current event loop pytest-asyncio may have set.
    """

    async def execute() -> None:
        connection = await asyncpg.connect(admin_dsn)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, execute()).result()


@contextlib.contextmanager
def fresh_database(admin_dsn: str, template: str | None = None) -> Iterator[str]:
    """A new empty database on the server of `admin_dsn` (a copy of `template` if given): yield its DSN; drop it
    after (with any connection left).
    """
    name = f"t_{uuid.uuid4().hex[:16]}"
    _admin(admin_dsn, f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    try:
        yield database_dsn(admin_dsn, name)
    finally:
        _admin(admin_dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """The DSN of a new empty database on the session's server, for this test only (`fresh_database` for more).

    A plain fixture (its statements run on their own event loop), so that sync and async tests alike can use it.
    """
    with fresh_database(postgres_server) as dsn:
        yield dsn


def _migrate(dsn: str) -> None:
    """Bring the database at `dsn` to the bot's latest schema, on an event loop of its own (as `_admin` does)."""
    from db.postgres.store import PostgresStore

    async def migrate() -> None:
        store = await PostgresStore.open(dsn)
        await store.close()

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, migrate()).result()


@pytest.fixture(scope="session")
def migrated_template(postgres_server: str) -> Iterator[str]:
    """The name of a database on the session's server migrated to the latest schema, to copy; dropped at the end.

    Nobody connects to it after its migration (PostgreSQL copies a database only while no one is connected to it).
    """
    with fresh_database(postgres_server) as dsn:
        _migrate(dsn)
        yield urlsplit(dsn).path.lstrip("/")


@pytest.fixture
def migrated_postgres_url(postgres_server: str, migrated_template: str) -> Iterator[str]:
    """The DSN of a new database holding the bot's latest schema and no rows, for this test only."""
    with fresh_database(postgres_server, migrated_template) as dsn:
        yield dsn
