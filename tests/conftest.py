"""Suite-wide checks, and fixtures shared by the storage and start-up tests."""

import contextlib
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from simcord.env import Env

from db.postgres.store import PostgresStore
from db.sql_store import SqlStore
from db.store import Store
from tests.discord_limits import violations
from tests.postgres import (  # noqa: F401 - fixtures for every test under tests/
    migrated_postgres_url,
    migrated_template,
    postgres_server,
    postgres_url,
)

# Hypothesis' defaults but no deadline: an example's time says nothing of the rules, and the suite shares the cores
# with its other worker (pytest-xdist), so a 200 ms deadline would fail at random. Each test keeps its max_examples.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

# A test that runs against PostgreSQL says so in its reports (a user property), which reach the process that prints
# the summary: under pytest-xdist that is the controller, which collects no tests itself.
ON_POSTGRES = "on_postgres"
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _on_postgres(item):
            item.user_properties.append((ON_POSTGRES, True))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """One line that says the PostgreSQL tests ran (CI's output shows it), or how many did not.

    Counted from the reports (each test once per outcome: its call, or the phase that skipped or erred), so that the
    line is the same with or without pytest-xdist's workers.
    """
    on_postgres: set[str] = set()
    outcomes: dict[str, set[str]] = {}
    for outcome, reports in terminalreporter.stats.items():
        for report in reports:
            if not any(name == ON_POSTGRES for name, _ in getattr(report, "user_properties", ())):
                continue
            on_postgres.add(report.nodeid)
            if outcome in ("skipped", "error") or (outcome in ("passed", "failed") and report.when == "call"):
                outcomes.setdefault(outcome, set()).add(report.nodeid)
    if not on_postgres:
        return
    said = ", ".join(
        f"{len(outcomes[outcome])} {outcome}"
        for outcome in ("passed", "failed", "skipped", "error")
        if outcome in outcomes
    )
    terminalreporter.write_line(f"PostgreSQL: {len(on_postgres)} tests on a real server: {said or 'none run'}")


# How often SimCord looks again at the bot's tasks while `advance_time` moves the virtual clock, in real seconds.
ADVANCE_IDLE = 0.002


@pytest.fixture(scope="session", autouse=True)
def quick_settling_while_time_advances() -> Iterator[None]:
    """SimCord settles each step of `advance_time` with a shorter wait between its looks at the bot's tasks.

    Settling (simcord 3.2.1, `Env._settle_internal`) waits for a task to finish, or `idle` real seconds (0.05), then
    looks again. A loop of the bot's that reads the database at its tick (the turn timers' every 5 s) never
    finishes: each virtual tick cost the whole 0.05 s once its read was back, and a test that lets half an hour pass
    spent most of its time there. Only the wait between looks changes, during `advance_time` only: what settling
    waits for, and its deadline, stay SimCord's.
    """
    original = Env._settle_internal
    default_idle = (original.__kwdefaults__ or {}).get("idle")
    assert isinstance(default_idle, float), "SimCord's settling changed: see quick_settling_while_time_advances"

    async def settle(self: Env, *, idle: float | None = None, **options: Any) -> None:
        if idle is None:
            idle = ADVANCE_IDLE if self._advancing else default_idle
        await original(self, idle=idle, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Env, "_settle_internal", settle)
        yield


@pytest.fixture
async def any_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[SqlStore]:
    """An open store on `backend`: a new SQLite file, or a new PostgreSQL database; closed afterwards."""
    if backend == "sqlite":
        opened: SqlStore = await Store.open(tmp_path / "data" / "bot.db")
    else:
        opened = await PostgresStore.open(request.getfixturevalue("migrated_postgres_url"))
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
