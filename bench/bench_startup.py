"""Start-up time and peak memory against the number of running games.

    python -m bench.bench_startup [--runs N] [--sizes 1,1000,10000]

Builds one database per size (recorded random games cut at random points, see `bench/running_games.py`) in a
temporary folder, then starts a fresh Python process on a copy of it `--runs` times and prints the median:

    start-up with 10000 running games: 0.41 s (1 game: 0.12 s), peak 58 MB

A run measures what `python bot.py` does before it logs in to Discord, from process start to the bot ready to take
interactions: importing the bot, `Store.open` (lock, `quick_check`, migrations), then the bot's `setup_hook`: the
table service, the start-up check of every unfinished game (`service.recover()`) and loading the cogs. Only the
command sync, a request to Discord after login, is left out. Peak memory is the process's peak resident set size.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.running_games import build_database, logged_moves

ROOT = Path(__file__).resolve().parents[1]
SIZES = (1, 1000, 10_000)
READY = "ready"


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

    bot.tree.sync = no_sync  # type: ignore[method-assign, assignment]
    await bot.setup_hook()
    print(f"{READY} {peak_kilobytes()}", flush=True)
    await bot.close()
    await store.close()


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default=",".join(str(size) for size in SIZES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        asyncio.run(child(arguments.child))
        return
    sizes = [int(size) for size in arguments.sizes.split(",")]
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
    base = results[min(results)][0]
    for size, (seconds, peak) in results.items():
        noun = "game" if size == 1 else "games"
        print(
            f"start-up with {size} running {noun}: {seconds:.2f} s ({min(results)} game: {base:.2f} s),"
            f" peak {peak:.0f} MB"
        )


if __name__ == "__main__":
    main()
