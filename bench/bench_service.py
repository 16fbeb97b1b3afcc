"""Moves through the table service under load: latency with N games in play, and throughput when saturated.

    python -m bench.bench_service [--sizes 100,1000,5000,10000] [--seconds S] [--saturated-games N]
    [--saturated-seconds S]

For each N, a database of N running games (recorded random games cut at random points, 24-hour turn timers; see
`bench/running_games.py`) is opened with the real `Store` and `TableService`, and moves arrive as an open load: each
game moves on average every 5 s, so N/5 moves per second in all, with Poisson arrivals (a move for a game whose
previous move is still in flight goes to another game). Each move is `TableService.play` with the move's text, as a
player types it, and its latency runs from the moment it was due to the moment `play` returned (the move durable).
After each move the driver picks the next one from the game the service returned, as the bot's presenter reads it
to draw the table. Prints

    N=10000: 2000 moves/s offered, p50 1.1 ms, p99 8.0 ms

then the service saturated (64 moves in flight at all times, on the N=1000 database) against a bare aiosqlite
INSERT + COMMIT of the same payload (the move text and its snapshot) on the same settings, in alternating rounds
(of 3 s each side).

With `DATABASE_URL` set to a PostgreSQL server (whose user may create databases), the same runs on PostgreSQL, as
a bot of several processes has it: each database is built as an SQLite file, copied with `db.copy` into a fresh
database on that server (dropped afterwards), and played through `PostgresStore` with the coordinator across
processes (`AdvisoryLocks`); the bare side is an asyncpg INSERT in its own transaction. Its lines start `postgres `.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bench.bench_db import BareSide
from bench.running_games import NOW, build_database, positions
from db.backends import Storage, open_storage
from db.copy import copy_database
from db.records import GameRecord
from db.sql_store import SqlStore
from engine.base import AnyGame
from engine.registry import game_class
from process import event_loop, heap
from service.tables import TableService
from tests.postgres import fresh_database

SIZES = (100, 1000, 5000, 10_000)
MEAN_SECONDS_BETWEEN_MOVES = 5.0
IN_FLIGHT = 64  # moves in flight when saturated
ROUNDS = 4
SATURATED_GAMES = 1000  # the database of the saturated run
SATURATED_SECONDS = 3.0  # each side's time in each round of the saturated run


@dataclass(slots=True)
class Turn:
    """The next move the driver will make in one game: who plays it, and its text."""

    user_id: int
    move: str


def next_turn(record: GameRecord, game: AnyGame, rng: random.Random) -> Turn | None:
    """A random legal move for the seat to move (None once the game is over)."""
    seat = game.to_move
    user_id = None if seat is None else record.seats[seat].user_id
    if seat is None or user_id is None:
        return None
    return Turn(user_id, str(rng.choice(game.legal_moves(seat))))


class Driver:
    """Plays moves through the service; keeps only each game's next move between moves."""

    def __init__(self, service: TableService, turns: dict[int, Turn], seed: int) -> None:
        self.service = service
        self.turns = turns
        self.idle = list(turns)
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.failures = 0

    async def move(self, game_id: int, due: float) -> None:
        turn = self.turns[game_id]
        try:
            result = await self.service.play(game_id, turn.user_id, turn.move)
        except Exception:
            self.failures += 1
            self.turns.pop(game_id)
            return
        self.latencies.append(time.perf_counter() - due)
        following = next_turn(result.record, result.game, self.rng)
        if following is None:
            self.turns.pop(game_id)
        else:
            self.turns[game_id] = following
            self.idle.append(game_id)

    def take_idle(self) -> int | None:
        while self.idle:
            index = self.rng.randrange(len(self.idle))
            self.idle[index], self.idle[-1] = self.idle[-1], self.idle[index]
            game_id = self.idle.pop()
            if game_id in self.turns:
                return game_id
        return None

    async def open_load(self, rate: float, seconds: float) -> None:
        """Moves arriving at `rate` per second (Poisson) for `seconds`; waits for the last one."""
        tasks: set[asyncio.Task[None]] = set()
        start = time.perf_counter()
        due = start
        while due - start < seconds:
            due += self.rng.expovariate(rate)
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            game_id = self.take_idle()
            if game_id is None:
                continue
            task = asyncio.create_task(self.move(game_id, due))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)

    async def saturate(self, seconds: float) -> float:
        """Moves per second with IN_FLIGHT moves always in flight."""
        done = 0
        deadline = time.perf_counter() + seconds

        async def worker() -> None:
            nonlocal done
            while time.perf_counter() < deadline and (game_id := self.take_idle()) is not None:
                await self.move(game_id, time.perf_counter())
                done += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
        return done / (time.perf_counter() - started)


async def first_turns(store: SqlStore, count: int, rng: random.Random) -> dict[int, Turn]:
    """Each game's first move, from the snapshots the database was built from (not part of any measurement)."""
    turns = {}
    for game_id, position in enumerate(positions(count), start=1):
        record = await store.get_game(game_id)
        assert record is not None
        game = game_class(position.kind).from_dict(json.loads(position.state))
        turn = next_turn(record, game, rng)
        if turn is not None:
            turns[game_id] = turn
    return turns


async def open_backend(path: Path, server: str | None) -> tuple[Storage, contextlib.ExitStack]:
    """The built SQLite file itself, or (with a PostgreSQL server) a fresh database on it holding a copy of it."""
    cleanup = contextlib.ExitStack()
    url = None
    if server is not None:
        url = cleanup.enter_context(fresh_database(server))
        report = await copy_database(path, url)
        assert report.verification.ok, report.verification.differences
    return await open_storage(path, url), cleanup


async def open_service(path: Path, count: int, server: str | None) -> tuple[Storage, contextlib.ExitStack, Driver]:
    opened, cleanup = await open_backend(path, server)
    gc.collect()
    heap.settle()  # as the bot does once its storage is open
    store = opened.store
    service = TableService(store, clock=lambda: NOW, coordinator=opened.locks)
    await service.recover()
    await service.check_games()  # what the bot does in the background after start-up: done before measuring
    turns = await first_turns(store, count, random.Random(count))
    positions.cache_clear()  # the driver keeps only the next move per game, as a bot keeps nothing per game
    return opened, cleanup, Driver(service, turns, seed=count)


async def open_load(folder: Path, count: int, seconds: float, server: str | None) -> None:
    path = folder / f"load-{count}.db"
    await build_database(path, count, timed=count)
    opened, cleanup, driver = await open_service(path, count, server)
    with cleanup:
        try:
            rate = count / MEAN_SECONDS_BETWEEN_MOVES
            cpu = time.process_time()
            await driver.open_load(rate, seconds)
            cpu = time.process_time() - cpu
        finally:
            await opened.close()
    path.unlink()
    latencies = sorted(driver.latencies)
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[int(len(latencies) * 0.99)] * 1000
    print(
        f"{_prefix(server)}N={count}: {rate:.0f} moves/s offered, p50 {p50:.1f} ms, p99 {p99:.1f} ms"
        f"  ({len(latencies)} moves, {cpu / len(latencies) * 1e6:.0f} µs CPU per move, {driver.failures} refused)",
        flush=True,
    )


class Bare(BareSide):
    """INSERT + COMMIT of the same payload on a plain aiosqlite connection with the store's settings."""

    async def rate(self, payloads: list[tuple[int, str, str]], seconds: float) -> float:
        done = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            await self.conn.execute("INSERT INTO moves (seat, move, state) VALUES (?, ?, ?)", payloads[done % 256])
            await self.conn.commit()
            done += 1
        return done / (time.perf_counter() - started)


class BarePostgres:
    """INSERT of the same payload in its own transaction (so one commit each), on a plain asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    @classmethod
    async def open(cls, url: str) -> BarePostgres:
        conn = await asyncpg.connect(url)
        await conn.execute("CREATE TABLE bare_moves (id BIGSERIAL PRIMARY KEY, seat INTEGER, move TEXT, state TEXT)")
        return cls(conn)

    async def rate(self, payloads: list[tuple[int, str, str]], seconds: float) -> float:
        done = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            await self.conn.execute(
                "INSERT INTO bare_moves (seat, move, state) VALUES ($1, $2, $3)", *payloads[done % 256]
            )
            done += 1
        return done / (time.perf_counter() - started)

    async def close(self) -> None:
        await self.conn.close()


async def saturated(folder: Path, seconds: float, server: str | None, count: int = SATURATED_GAMES) -> None:
    path = folder / "saturated.db"
    await build_database(path, count, timed=count)
    payloads = [(0, position.moves[-1][1] if position.moves else "", position.state) for position in positions(256)]
    opened, cleanup, driver = await open_service(path, count, server)
    with cleanup:
        bare: Bare | BarePostgres
        if server is None:
            bare = await Bare.open(folder / "bare.db")
        else:
            bare = await BarePostgres.open(cleanup.enter_context(fresh_database(server)))
        service_rates, bare_rates = [], []
        try:
            for number in range(ROUNDS):
                if number % 2:
                    bare_rates.append(await bare.rate(payloads, seconds))
                    service_rates.append(await driver.saturate(seconds))
                else:
                    service_rates.append(await driver.saturate(seconds))
                    bare_rates.append(await bare.rate(payloads, seconds))
        finally:
            await opened.close()
            await bare.close()
    ratios = [mine / theirs for mine, theirs in zip(service_rates, bare_rates, strict=True)]
    bare_name = "bare INSERT+COMMIT" if server is None else "bare asyncpg INSERT (own transaction)"
    print(
        f"{_prefix(server)}saturated ({IN_FLIGHT} in flight, {count} games):"
        f" service {statistics.median(service_rates):.0f} moves/s,"
        f" {bare_name} {statistics.median(bare_rates):.0f} /s, ratio {statistics.median(ratios):.2f}"
        f" (median of {ROUNDS} alternating rounds)"
    )


def _prefix(server: str | None) -> str:
    return "" if server is None else "postgres "


async def measure(
    sizes: list[int],
    seconds: float,
    server: str | None,
    saturated_games: int = SATURATED_GAMES,
    saturated_seconds: float = SATURATED_SECONDS,
) -> None:
    where = "SQLite" if server is None else "PostgreSQL (DATABASE_URL)"
    print(
        f"load average before: {os.getloadavg()[0]:.2f}; {seconds:.0f} s of open load per size; {where};"
        f" {event_loop.loop_name()} (the bot's loop)",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as folder:
        for count in sizes:
            await open_load(Path(folder), count, seconds, server)
        await saturated(Path(folder), saturated_seconds, server, saturated_games)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options and measure, on DATABASE_URL's PostgreSQL server when it is set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(size) for size in SIZES))
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--saturated-games", type=int, default=SATURATED_GAMES, help="games of the saturated run")
    parser.add_argument(
        "--saturated-seconds", type=float, default=SATURATED_SECONDS, help="each side's seconds per saturated round"
    )
    arguments = parser.parse_args(argv)
    server = os.environ.get("DATABASE_URL", "").strip() or None
    sizes = [int(size) for size in arguments.sizes.split(",")]
    event_loop.run(measure(sizes, arguments.seconds, server, arguments.saturated_games, arguments.saturated_seconds))


if __name__ == "__main__":
    main()
