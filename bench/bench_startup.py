"""Start-up time and peak memory against the number of running games.

    python -m bench.bench_startup [--runs N] [--sizes 1,1000,10000] [--owed 10000]

Builds one database per size (recorded random games cut at random points, see `bench/running_games.py`) in a
temporary folder, then starts a fresh Python process on a copy of it `--runs` times and prints the median:

    start-up with 10000 running games: 0.41 s (1 game: 0.12 s), peak 58 MB

A run measures what `python bot.py` does before it logs in to Discord, from process start to the bot ready to take
interactions: importing the bot, `Store.open` (lock, `quick_check`, migrations), then the bot's `setup_hook`: the
table service, the start-up check of every unfinished game (`service.recover()`) and loading the cogs. Only the
command sync, a request to Discord after login, is left out. Peak memory is the process's peak resident set size.

Then two lines about what the bot does once connected, each for `--owed` (10,000) running games:

    after READY with 10000 owed games: peak 98 MB, settled in 1299 s
    event-loop lag during the full check of 10000 games: p99 5.9 ms, max 20.9 ms

The first: every game is owed to Discord (`shown_version = version - 1`: its last move's table, panels and ping are
not shown; its one-off posts went out). A bot process logs in to a fake Discord served by this process on
127.0.0.1 (`bench/fake_discord.py`, through `discord.http.Route.BASE`), runs `setup_hook`, then what READY starts:
the catch-up of every owed game (`cogs/runtime/catch_up.py`) and the full check of every log. No gateway. Peak is the
bot process's own VmHWM. The catch-up runs in virtual time: its request budget (40 a second for play and catch-up)
keeps its own clock, which moves only when the budget makes the catch-up wait, while each request to the fake
Discord takes no virtual time; so "settled in" is what the budget allows, not the machine's speed (the real time
taken is printed on the next line).
The second: a process runs the full check of every running game's log (`service.check_games()`) while a ticker
sleeps 5 ms at a time and records how late it wakes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.fake_discord import FakeDiscord
from bench.running_games import build_database, logged_moves

ROOT = Path(__file__).resolve().parents[1]
SIZES = (1, 1000, 10_000)
READY = "ready"
OWED = 10_000
TICK = 0.005  # seconds the lag ticker sleeps


def peak_kilobytes() -> int:
    """This process's peak resident set size (VmHWM: unlike `ru_maxrss`, it starts afresh at exec, so the memory of
    the parent the process was forked from does not count)."""
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # not Linux: the best there is


async def child(path: str) -> None:
    """The measured process: everything `python bot.py` does before Discord's login, then one line and exit."""
    from bot import create_bot
    from db.store import Store

    store = await Store.open(path)
    bot = create_bot(path, store=store)

    async def no_sync(*_: object, **__: object) -> list[object]:
        return []  # the command sync is a request to Discord, made after login

    setattr(bot.tree, "sync", no_sync)  # noqa: B010 - in place of the method (mypy: method-assign)
    await bot.setup_hook()
    print(f"{READY} {peak_kilobytes()}", flush=True)
    await bot.close()
    await store.close()


class VirtualTime:
    """The catch-up's clock: it moves only when the catch-up waits for its request budget."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


async def owed_child(path: str, base: str) -> None:
    """The bot process after READY with every game owed: log in to the fake Discord at `base`, settle, check."""
    import discord.http

    discord.http.Route.BASE = base
    from bot import create_bot
    from cogs.runtime.budget import RequestBudget
    from db.store import Store

    store = await Store.open(path)
    bot = create_bot(path, store=store)
    virtual = VirtualTime()
    bot.budget = RequestBudget(clock=virtual.clock, sleep=virtual.sleep)

    async def no_sync(*_: object, **__: object) -> list[object]:
        return []

    setattr(bot.tree, "sync", no_sync)  # noqa: B010 - in place of the method (mypy: method-assign)
    started = time.perf_counter()
    try:
        await bot.login("bench-token")  # static login, application info, setup_hook
        await bot.on_ready()  # what READY starts: the catch-up and the full check, in the background
        await bot.start_up_done()
        real = time.perf_counter() - started
        done = bot.caught_up
        assert done is not None
        print(f"{READY} {peak_kilobytes()} {done.settled} {done.seconds:.1f} {real:.1f} {done.requests}", flush=True)
    finally:
        await bot.close()
        await store.close()


async def lag_child(path: str) -> None:
    """The full check of every running game's log, with a ticker measuring how late the event loop wakes it."""
    from datetime import UTC, datetime

    from db.store import Store
    from service.tables import TableService

    store = await Store.open(path)
    service = TableService(store, clock=lambda: datetime.now(UTC))
    await service.recover()
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    checking = True

    async def ticker() -> None:
        while checking:
            before = loop.time()
            await asyncio.sleep(TICK)
            lags.append(loop.time() - before - TICK)

    ticking = asyncio.create_task(ticker())
    checked = len(await store.unchecked_games())
    await service.check_games()
    checking = False
    await ticking
    lags.sort()
    p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))] * 1000
    print(f"{READY} {checked} {p99:.1f} {lags[-1] * 1000:.1f}", flush=True)
    await store.close()


def owe_everything(path: Path) -> None:
    """Every game owes Discord its last move's table, panels and ping (a failed call, or a crash before showing)."""
    # Closed before the file is copied: the update must be in the file itself, not only in its write-ahead log
    # (`with sqlite3.connect(...)` commits but does not close, and the copy takes the main file alone).
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE games SET shown_version = version - 1, shown_moves = move_count")


def run_child(*arguments: str, timeout: float) -> str:
    """Run `bench.bench_startup` with these child arguments; its READY line."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_startup", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    line = next((line for line in done.stdout.splitlines() if line.startswith(READY)), None)
    if line is None:
        raise RuntimeError(f"the child process failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return line


def measure(path: Path) -> tuple[float, float]:
    """Seconds from process start until ready, and the peak resident set size in MB."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.bench_startup", "--child", str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    ready = time.perf_counter() - started
    _, errors = process.communicate(timeout=120)
    if not line.startswith(READY):
        raise RuntimeError(f"the start-up process failed ({process.returncode}): {errors.strip()}")
    return ready, int(line.split()[1]) / 1024


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default=",".join(str(size) for size in SIZES))
    parser.add_argument("--owed", type=int, default=OWED, help="games owed to Discord after READY, and checked")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--owed-child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--lag-child", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        asyncio.run(child(arguments.child))
        return
    if arguments.owed_child:
        asyncio.run(owed_child(*arguments.owed_child))
        return
    if arguments.lag_child:
        asyncio.run(lag_child(arguments.lag_child))
        return
    sizes = [int(size) for size in arguments.sizes.split(",") if size]
    print(f"load average before: {os.getloadavg()[0]:.2f}; {arguments.runs} runs per size, median shown")
    results: dict[int, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            built = time.perf_counter()
            source = Path(folder) / f"games-{size}.db"
            asyncio.run(build_database(source, size))
            megabytes = source.stat().st_size / 2**20
            print(
                f"built {size} running games: {logged_moves(source)} logged moves, {megabytes:.0f} MB file,"
                f" in {time.perf_counter() - built:.1f} s"
            )
            runs = []
            for run in range(arguments.runs):
                copy = Path(folder) / f"run-{size}-{run}.db"
                shutil.copy(source, copy)
                runs.append(measure(copy))
                copy.unlink()
            source.unlink()
            results[size] = (statistics.median(t for t, _ in runs), max(peak for _, peak in runs))
        if arguments.owed:
            after_ready(Path(folder), arguments.owed)
    if not results:
        return
    base = results[min(results)][0]
    for size, (seconds, peak) in results.items():
        noun = "game" if size == 1 else "games"
        print(
            f"start-up with {size} running {noun}: {seconds:.2f} s ({min(results)} game: {base:.2f} s),"
            f" peak {peak:.0f} MB"
        )


def after_ready(folder: Path, owed: int) -> None:
    """The catch-up of `owed` games against a fake Discord, then the event-loop lag of the full check."""
    source = folder / f"owed-{owed}.db"
    asyncio.run(build_database(source, owed))
    owe_everything(source)
    copy = folder / "owed-run.db"
    shutil.copy(source, copy)
    with FakeDiscord() as discord:
        line = run_child("--owed-child", str(copy), discord.base, timeout=3600)
        calls = sum(discord.requests.values())
    _, kilobytes, settled, seconds, real, requests = line.split()
    print(
        f"after READY with {owed} owed games: peak {int(kilobytes) / 1024:.0f} MB, settled in {float(seconds):.0f} s"
    )
    print(
        f"  ({settled} settled; {requests} counted requests, {calls} seen by the fake Discord; virtual time,"
        f" {float(real):.0f} s real with the full check running alongside)"
    )
    shutil.copy(source, copy)
    _, checked, p99, longest = run_child("--lag-child", str(copy), timeout=3600).split()
    print(f"event-loop lag during the full check of {checked} games: p99 {p99} ms, max {longest} ms")


if __name__ == "__main__":
    main()
