"""A PostgreSQL of the test's own that it may stop, start and cut off, to play through outages (issue 44).

Never the session's shared server (`tests.postgres.postgres_server`), which other tests use at the same time: a
throwaway server per test module (`tests.postgres.throwaway_server`), stopped with `pg_ctl stop -m immediate` as a
crash would, started again with the same options, and its sessions ended with `pg_terminate_backend`.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import asyncpg
import pytest

from tests.postgres import _as_postgres, bin_dir, fresh_database, no_server, throwaway_server


class OwnServer:
    """The throwaway server at `dsn` (its socket folder holds its data and log, as `throwaway_server` made them)."""

    def __init__(self, dsn: str, binaries: Path) -> None:
        self.dsn = dsn
        self.binaries = binaries
        self.folder = Path(parse_qs(urlsplit(dsn).query)["host"][0])

    def _pg_ctl(self, *arguments: str) -> int:
        command = [str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), *arguments]
        return subprocess.run(_as_postgres(command), cwd=self.folder, capture_output=True, check=False).returncode

    def stop_immediately(self) -> None:
        """As a crash or a power cut: every backend ends at once, nothing is shut down cleanly."""
        assert self._pg_ctl("-m", "immediate", "-w", "stop") == 0

    def start(self) -> None:
        """Start it again as `throwaway_server` did; returns once it takes connections."""
        options = f"-k {self.folder} -c listen_addresses='' -c max_connections=200"
        assert self._pg_ctl("-o", options, "-l", str(self.folder / "log"), "-w", "start") == 0

    def running(self) -> bool:
        """Whether the server runs (pg_ctl status: 0 running, 3 not)."""
        return self._pg_ctl("status") == 0

    async def end_every_session(self, url: str) -> int:
        """`pg_terminate_backend` for every other session on `url`'s database; returns once they are gone."""
        # No statement timeout for this session, whatever the role's default a test set for the bot's sessions (a
        # connection's own settings win over the role's): on a loaded machine these statements may take longer.
        admin = await asyncpg.connect(url, server_settings={"statement_timeout": "0"})
        try:
            others = "datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ended = await admin.fetchval(
                f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE {others}"
            )
            for _ in range(200):
                if not await admin.fetchval(f"SELECT count(*) FROM pg_stat_activity WHERE {others}"):
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # and the clients' event loop has seen their connections close
            return int(ended)
        finally:
            await admin.close()


@pytest.fixture(scope="module")
def own_server() -> Iterator[OwnServer]:
    """A PostgreSQL for this module's tests alone; each test leaves it running (see `outage_url`)."""
    binaries = bin_dir()
    if binaries is None:
        no_server()
    assert binaries is not None
    with throwaway_server(binaries) as dsn:
        yield OwnServer(dsn, binaries)


@pytest.fixture
def outage_url(own_server: OwnServer) -> Iterator[str]:
    """A new empty database on the module's own server; the server is running again when the test ends."""
    with fresh_database(own_server.dsn) as url:
        try:
            yield url
        finally:
            if not own_server.running():
                own_server.start()
