"""The timer tick against the number of timed games: finding the due ones, then acting on them.

    python -m bench.bench_timers [--games N] [--due D]

Builds a database of N running games with 24-hour turn timers, D of them past their deadline (the others due over
the next day; see `bench/running_games.py`), opens it with the real `Store` and `TableService`, and prints

    timer tick with 10000 timed games, 10 due: 0.4 ms

the median time of `TableService.due_timers(now)`, the query the timer loop runs every 5 s (while it runs, the store
serves nothing else). Then it acts on the due games as the loop does, each under its own game's lock (the medium
computer player's move, saved durably), and prints how long that took in all. `tests/test_bench_timers.py` runs it
at a tiny size, so that it keeps working as the service changes.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.running_games import NOW, build_database
from db.store import Store
from service.tables import TableService

RUNS = 200


async def main(games: int, due: int, runs: int = RUNS) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "timers.db"
        built = time.perf_counter()
        await build_database(path, games, timed=games, due=due)
        print(
            f"built {games} running games with 24-hour timers, {due} past their deadline,"
            f" in {time.perf_counter() - built:.1f} s"
        )
        store = await Store.open(path)
        try:
            service = TableService(store, clock=lambda: NOW)
            ticks = []
            for _ in range(runs):
                started = time.perf_counter()
                found = await service.due_timers(NOW)
                ticks.append(time.perf_counter() - started)
            assert len(found) == due, f"{len(found)} due, expected {due}"
            started = time.perf_counter()
            moves = 0
            for timer in found:
                if timer.is_expired(NOW):
                    moves += len(await service.expire(timer.id, version=timer.version))
                else:
                    await service.mark_warned(timer.id, version=timer.version)
            acting = time.perf_counter() - started
            left = await service.due_timers(NOW)
        finally:
            await store.close()
    print(
        f"timer tick with {games} timed games, {due} due: {statistics.median(ticks) * 1000:.2f} ms"
        f" (median of {runs})"
    )
    print(
        f"acting on the {due} due games, each under its own lock: {acting * 1000:.0f} ms in all"
        f" ({moves} automatic moves saved; {len(left)} still due after)"
    )


def cli(argv: Sequence[str] | None = None) -> None:
    """What `python -m bench.bench_timers` runs: parse the options, measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=10)
    arguments = parser.parse_args(argv)
    asyncio.run(main(arguments.games, arguments.due))


if __name__ == "__main__":
    cli()
