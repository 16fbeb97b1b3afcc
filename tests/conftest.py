"""Suite-wide checks, and fixtures shared by the storage and start-up tests."""

import contextlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.discord_limits import violations
from tests.postgres import postgres_server, postgres_url  # noqa: F401 - fixtures for every test under tests/


@pytest.fixture(autouse=True)
def every_payload_within_discord_limits(request):
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
def holder(tmp_path):
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
            assert child.stdout.readline() == "open\n", child.stderr.read()
            yield path, child
        finally:
            if child.poll() is None:
                child.kill()
            child.wait(timeout=30)


@pytest.fixture
def small_tmpfs(tmp_path):
    """A real 1 MiB tmpfs mounted at tmp_path/mnt (needs root and a kernel that allows it, else the test skips).

    Room for a new database and every migration (one rebuilds a table), and little more.
    """
    with mounted_tmpfs(tmp_path / "mnt", "1m") as mount_point:
        yield mount_point


@contextlib.contextmanager
def mounted_tmpfs(mount_point, size):
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
