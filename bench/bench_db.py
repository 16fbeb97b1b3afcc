"""Durable moves per second through `Store.save_move` against a bare aiosqlite insert-and-commit.

Run from the repo root: `python -m bench.bench_db [rounds] [moves_per_round]`.

Then it plays a whole Kasino and a whole Garbage game through the bot in SimCord (`bench.bench_requests`' plain
two-player cases) and prints the synchronous commits (each a flush to disk) made while their moves were played,
per move: `commits per move: kasino 1.00, garbage 1.00 (synchronous)`. The delivery's bookkeeping commits without
a flush (see `db/store.py`), so the move itself is the one flush; moves saved together by group commit count once.

Both sides write to their own file in one temporary folder with the same settings (WAL and the store's
`synchronous` level) and the same payload: the snapshots and move texts of a real random 4-player Kasino game.
The store's figure is everything a move costs the bot: version check, snapshot update, move-log append, the game
record read back (with its seats), commit. The sides take turns in short rounds (alternating which goes first), so
that load from other processes hits both alike; the ratio is the median of the per-round ratios.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import aiosqlite

from db.records import GameRecord, NewLobby
from db.store import SYNCHRONOUS, Store
from engine.registry import game_class

NOW = datetime(2025, 1, 1, tzinfo=UTC)
Step = tuple[int, str, dict[str, Any]]


def recorded_moves(kind: str, players: int, seed: int) -> list[Step]:
    """(seat, move text, snapshot after it) for every move of one random game."""
    game = game_class(kind).new(players, seed)
    rng = random.Random(seed)
    steps = []
    while game.to_move is not None:
        seat = game.to_move
        move = rng.choice(game.legal_moves(seat))
        game.apply(seat, move)
        steps.append((seat, str(move), game.to_dict()))
    return steps


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


async def main(rounds: int = 15, per_round: int = 200) -> None:
    """Measure both sides in alternating rounds and print the medians and their ratio."""
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
    await print_commits_per_move()


async def print_commits_per_move() -> None:
    """Synchronous commits per move of whole games played through the bot (SimCord)."""
    from bench.bench_requests import CASES, play_case  # SimCord and the whole bot: only for this line

    figures = []
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("kasino", "garbage"):
            case = next(case for case in CASES if case.kind == kind and case.players == 2 and not case.label)
            played = await play_case(case, 1, Path(folder))
            figures.append(f"{kind} {played.synchronous_commits / played.moves:.2f}")
    print(f"commits per move: {', '.join(figures)} (synchronous)")


if __name__ == "__main__":
    arguments = [int(argument) for argument in sys.argv[1:3]]
    asyncio.run(main(*arguments))
