"""Durable moves per second through `Store.save_move` against a bare aiosqlite insert-and-commit.

Run from the repo root: `python -m bench.bench_db [rounds] [moves_per_round]` (smaller runs: `--kasino-target
POINTS`, `--garbage-size SPOTS` for the whole games, `--backup-games N`, `--baseline-seconds S` for the backup).

Then it plays a whole Kasino and a whole Garbage game through the bot in SimCord (`bench.bench_requests`' plain
two-player cases) and prints the synchronous commits (each a flush to disk) made while their moves were played,
per move: `commits per move: kasino 1.00, garbage 1.00 (synchronous)`. The delivery's bookkeeping commits without
a flush (see `db/store.py`), so the move itself is the one flush; moves saved together by group commit count once.

Last, `backup of N games while playing: X s, moves delayed p99 Y ms`: a database of 1,000 running games is backed
up (`db.backup`, in a worker thread as the bot does it, its check replaying every running game) while 20 games move
through the store beside it; the moves' p99 latency during the backup is set against the same play before it.

Both sides write to their own file in one temporary folder with the same settings (WAL and the store's
`synchronous` level) and the same payload: the snapshots and move texts of a real random 4-player Kasino game.
The store's figure is everything a move costs the bot: version check, snapshot update, move-log append, the game
record read back (with its seats), commit. The sides take turns in short rounds (alternating which goes first), so
that load from other processes hits both alike; the ratio is the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bench.random_play import random_moves
from bench.running_games import build_database
from db.backup import CHECK_SHARE, take_backup
from db.records import GameRecord, NewLobby
from db.store import SYNCHRONOUS, Store
from engine.base import AnyGame
from engine.registry import game_class

NOW = datetime(2025, 1, 1, tzinfo=UTC)
BACKUP_GAMES = 1000  # running games in the database the backup copies and checks (each replayed)
PLAYERS = 20  # games moving while it runs, each a move every PLAYER_PAUSE (about 200 moves/s offered)
PLAYER_PAUSE = 0.1
BASELINE_SECONDS = 5.0
Step = tuple[int, str, dict[str, Any]]


def recorded_moves(kind: str, players: int, seed: int) -> list[Step]:
    """(seat, move text, snapshot after it) for every move of one random game."""
    game = game_class(kind).new(players, seed)
    rng = random.Random(seed)
    return [(seat, str(move), game.to_dict()) for seat, move, _ in random_moves(game, rng)]


class StoreSide:
    """Saves moves through `Store.save_move` into one running game (the snapshots replayed in a cycle)."""

    def __init__(self, store: Store, game: GameRecord) -> None:
        self.store, self.game = store, game

    @classmethod
    async def open(cls, path: Path, first_state: dict[str, Any]) -> StoreSide:
        store = await Store.open(path)
        lobby = await store.create_lobby(NewLobby("kasino", 1, 1, 1, "p1", {}, 7, 4), NOW)
        for user in (2, 3, 4):
            lobby = await store.join_lobby(lobby.id, user, f"p{user}", NOW)
        return cls(store, await store.start_game(lobby.id, lobby.version, [1, 2, 3, 4], first_state, NOW))

    async def save(self, seat: int, move: str, state: dict[str, Any]) -> None:
        self.game = await self.store.save_move(self.game.id, self.game.version, seat, move, state, NOW)

    async def close(self) -> None:
        await self.store.close()


class BareSide:
    """One INSERT of the same payload and a commit, on a plain aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    @classmethod
    async def open(cls, path: Path) -> Self:
        conn = await aiosqlite.connect(path)
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        await conn.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, seat INTEGER, move TEXT, state TEXT)")
        await conn.commit()
        return cls(conn)

    async def save(self, seat: int, move: str, state: dict[str, Any]) -> None:
        payload = (seat, move, json.dumps(state))
        await self.conn.execute("INSERT INTO moves (seat, move, state) VALUES (?, ?, ?)", payload)
        await self.conn.commit()

    async def close(self) -> None:
        await self.conn.close()


async def moves_per_second(side: StoreSide | BareSide, steps: list[Step], start: int, count: int) -> float:
    """Save `count` moves (steps taken cyclically from `start`) and return the rate."""
    started = time.perf_counter()
    for i in range(start, start + count):
        await side.save(*steps[i % len(steps)])
    return count / (time.perf_counter() - started)


async def measure(
    rounds: int = 15,
    per_round: int = 200,
    *,
    target: int | None = None,
    size: int | None = None,
    backup_games: int = BACKUP_GAMES,
    baseline_seconds: float = BASELINE_SECONDS,
) -> None:
    """Measure both sides in alternating rounds and print the medians and their ratio; then the commits per move
    (Kasino to `target`, Garbage from layouts of `size`) and the backup (of `backup_games`, after `baseline_seconds`
    of play without it)."""
    steps = recorded_moves("kasino", 4, seed=1)
    sizes = [len(json.dumps(state)) for _, _, state in steps]
    print(f"payload: {len(steps)} snapshots of a 4-player Kasino game, {min(sizes)}-{max(sizes)} bytes of JSON each")
    print(f"settings: WAL, synchronous={SYNCHRONOUS}; {rounds} rounds of {per_round} moves per side")
    print(f"load average before: {os.getloadavg()[0]:.2f} (other processes on this machine slow both sides)")
    with tempfile.TemporaryDirectory() as folder:
        store = await StoreSide.open(Path(folder) / "store.db", steps[0][2])
        bare = await BareSide.open(Path(folder) / "bare.db")
        try:
            await moves_per_second(store, steps, 0, 50)  # warm-up: caches, first WAL growth
            await moves_per_second(bare, steps, 0, 50)
            store_rates, bare_rates = [], []
            for number in range(rounds):
                start = number * per_round
                if number % 2:
                    bare_rates.append(await moves_per_second(bare, steps, start, per_round))
                    store_rates.append(await moves_per_second(store, steps, start, per_round))
                else:
                    store_rates.append(await moves_per_second(store, steps, start, per_round))
                    bare_rates.append(await moves_per_second(bare, steps, start, per_round))
        finally:
            await store.close()
            await bare.close()
    ratios = [mine / theirs for mine, theirs in zip(store_rates, bare_rates, strict=True)]
    for label, rates in (("Store.save_move", store_rates), ("bare insert + commit", bare_rates)):
        median = statistics.median(rates)
        spread = f"rounds {min(rates):.0f}-{max(rates):.0f}"
        print(f"{label:22} {median:7.0f} moves/s  ({1e6 / median:5.0f} µs/move; {spread})")
    print(f"{'ratio store/bare':22} {statistics.median(ratios):7.2f}  (median of per-round ratios; target >= 0.70)")
    await print_commits_per_move(target, size)
    await print_backup_while_playing(backup_games, baseline_seconds)


def p99(latencies: list[float]) -> float:
    """The 99th percentile, in ms."""
    return statistics.quantiles(latencies, n=100)[98] * 1000 if len(latencies) > 1 else 0.0


async def print_backup_while_playing(games: int = BACKUP_GAMES, baseline_seconds: float = BASELINE_SECONDS) -> None:
    """A backup (`db.backup.take_backup`, in a worker thread as the bot takes it) while games are played beside it.

    Prints the backup's time and the moves' p99 latency while it ran, against the same play without a backup.
    """
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bot.db"
        await build_database(path, games)
        store = await Store.open(path)
        try:
            moving = [await store.get_game(game_id) for game_id in range(1, PLAYERS + 1)]
            players = [
                (record, game_class(record.kind).from_dict(record.state))
                for record in moving
                if record is not None and record.state is not None
            ]
            latencies: list[tuple[float, float]] = []  # (when acknowledged, seconds it took)
            stop = asyncio.Event()
            rng = random.Random(1)
            tasks = [asyncio.create_task(_play(store, record, game, rng, stop, latencies)) for record, game in players]
            loop = asyncio.get_running_loop()
            await asyncio.sleep(baseline_seconds)
            started = loop.time()
            report = await asyncio.to_thread(take_backup, path, Path(folder) / "backup.db", share=CHECK_SHARE)
            ended = loop.time()
            await asyncio.sleep(0.5)
            stop.set()
            await asyncio.gather(*tasks)
        finally:
            await store.close()
    before = [took for moment, took in latencies if moment < started]
    during = [took for moment, took in latencies if started <= moment <= ended]
    print(
        f"backup of {report.check.games} games while playing: {ended - started:.1f} s, moves delayed p99 "
        f"{p99(during):.1f} ms ({len(during)} moves; without a backup: p99 {p99(before):.1f} ms, {len(before)} moves; "
        f"{report.check.running} running games replayed by the check)"
    )


async def _play(
    store: Store,
    record: GameRecord,
    game: AnyGame,
    rng: random.Random,
    stop: asyncio.Event,
    latencies: list[tuple[float, float]],
) -> None:
    """Random legal moves into one game through the store, one every PLAYER_PAUSE, each one's latency noted."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(rng.uniform(0, PLAYER_PAUSE))  # the players out of step
    while not stop.is_set() and game.to_move is not None:
        seat = game.to_move
        move = rng.choice(game.legal_moves(seat))
        began = loop.time()
        game.apply(seat, move)
        record = await store.save_move(
            record.id, record.version, seat, str(move), game.to_dict(), NOW, outcome=game.outcome()
        )
        latencies.append((loop.time(), loop.time() - began))
        await asyncio.sleep(PLAYER_PAUSE)


async def print_commits_per_move(target: int | None = None, size: int | None = None) -> None:
    """Synchronous commits per move of whole games played through the bot (SimCord)."""
    from bench.bench_requests import CASES, play_case  # SimCord and the whole bot: only for this line

    figures = []
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("kasino", "garbage"):
            case = next(case for case in CASES if case.kind == kind and case.players == 2 and not case.label)
            played = await play_case(case.sized(target, size), 1, Path(folder))
            figures.append(f"{kind} {played.synchronous_commits / played.moves:.2f}")
    print(f"commits per move: {', '.join(figures)} (synchronous)")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options and measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=15, help="rounds of each side (15)")
    parser.add_argument("moves_per_round", type=int, nargs="?", default=200, help="moves per round and side (200)")
    parser.add_argument("--kasino-target", type=int, help="Kasino's points to win in the whole game (default 16)")
    parser.add_argument("--garbage-size", type=int, help="Garbage's starting layout size in the whole game (3)")
    parser.add_argument("--backup-games", type=int, default=BACKUP_GAMES, help="games backed up (1000)")
    parser.add_argument("--baseline-seconds", type=float, default=BASELINE_SECONDS, help="play before the backup (5)")
    options = parser.parse_args(argv)
    asyncio.run(
        measure(
            options.rounds,
            options.moves_per_round,
            target=options.kasino_target,
            size=options.garbage_size,
            backup_games=options.backup_games,
            baseline_seconds=options.baseline_seconds,
        )
    )


if __name__ == "__main__":
    main()
