"""Reads of a game and engine rebuilds per move, and the move→table latency, through the bot (issue 40, item 2).

    python -m bench.bench_reads [--games N] [--rounds R] [--before REV]

Plays whole two-player Kasino games through SimCord (the real bot, the real discord.py, a real SQLite file) the way
`bench.bench_requests` plays "kasino 2p": every move from the mover's DM panel (a hand card, then its move; a card
with one legal move plays at once). Nothing in the bot is changed for it; the bench wraps, in its own process:

- the store's reads of a game (`get_game`, `checked_game`, `game_moves`, `seat_changes` and the listings
  `running_games_in_channel`, `games_in_guild`, `running_games_with_computers`, `member_games`), counted when the
  bot makes them (a caller in `cogs/` or `service/`), not the bench's own look at the game between moves;
- the engine's constructions: `KasinoGame.from_dict` (a snapshot restored) and `KasinoGame.new` (a replay's start,
  or a deal), counted as rebuilds; `KasinoGame.copy` (no decoding) is counted on a line of its own;
- the delivery's `claim_delivery`, whose lease's UPDATE returns the game's row, also on a line of its own.

The latency of a move runs from the bot receiving the move's interaction (its `on_interaction`) until it sends the
edit of the game's table message (a PATCH of that message). It is measured without the counting wrappers.

Before and after in one run: a temporary `git worktree` of REV (default: where this branch left `main`, its merge
base) is made, this file copied into it, and the same seeded games are played by the old code and by this tree's, each
in a subprocess of its own, in alternating rounds (the order swapped every round). Prints

    per move: 1.00 game reads, 0.00 engine rebuilds (kasino 2p, through the bot)
    before (REV): per move: 5.55 game reads, 3.55 engine rebuilds; after: …
    delivery claims per move: before 1.00, after 1.00 (the lease's UPDATE returns the claimed row)
    engine copies per move: before 1.00, after 2.50 (14 µs each, against 60-80 µs for a rebuild)
    move→table latency: before p50 12.3 ms p90 20.1 ms, after p50 8.1 ms p90 14.0 ms; ratio after/before p50 0.66 …
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import discord
import simcord
from discord.http import Route

from bot import create_bot
from db.records import GameRecord
from engine.kasino import KasinoGame
from tests.cogs.helpers import member_for, open_and_start
from tests.cogs.test_kasino_flow import dm_hand_message, two_taps

TITLE = "kasino 2p, through the bot"
READS = (
    "get_game",
    "checked_game",
    "game_moves",
    "seat_changes",
    "running_games_in_channel",
    "games_in_guild",
    "running_games_with_computers",
    "member_games",
)
REBUILDS = ("from_dict", "new")
ROOT = Path(__file__).resolve().parent.parent
BOT_CODE = (str(ROOT / "cogs") + "/", str(ROOT / "service") + "/")
FIRST_SEED = 3000


@dataclass
class Figures:
    """What the games of one worker made: moves, the bot's reads, rebuilds, copies and claims, and latencies."""

    moves: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)

    def as_json(self) -> str:
        return json.dumps({"moves": self.moves, "counts": dict(self.counts), "latencies": self.latencies})

    @classmethod
    def from_json(cls, text: str) -> Figures:
        data = json.loads(text)
        return cls(int(data["moves"]), Counter(data["counts"]), [float(value) for value in data["latencies"]])

    def add(self, other: Figures) -> None:
        self.moves += other.moves
        self.counts += other.counts
        self.latencies += other.latencies

    def per_move(self, what: str) -> float:
        return self.counts[what] / self.moves if self.moves else 0.0


def by_the_bot() -> bool:
    """Whether the running call comes from the bot's code (not from the bench reading the game between moves)."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith(BOT_CODE):
            return True
        frame = frame.f_back
    return False


def count_store(store: Any, counts: Counter[str]) -> None:
    """Count, on this store object, the bot's reads of a game and the delivery's claims that returned a game."""

    def wrapped(name: str, original: Callable[..., Awaitable[Any]], key: str) -> Callable[..., Awaitable[Any]]:
        async def counting(*args: Any, **kwargs: Any) -> Any:
            found = by_the_bot()
            result = await original(*args, **kwargs)
            if found and result is not None:
                counts[key] += 1
                counts[f"{key}: {name}"] += 1
            return result

        return counting

    for name in READS:
        setattr(store, name, wrapped(name, getattr(store, name), "reads"))
    store.claim_delivery = wrapped("claim_delivery", store.claim_delivery, "claims")


def count_engines(counts: Counter[str]) -> None:
    """Count the bot's Kasino engine rebuilds (`from_dict`, `new`) and copies, for the rest of the process."""
    for name in REBUILDS:
        original = getattr(KasinoGame, name).__func__

        def rebuilding(
            cls: type[KasinoGame], /, *args: Any, _original: Any = original, _name: str = name, **kw: Any
        ) -> Any:
            if by_the_bot():
                counts["rebuilds"] += 1
                counts[f"rebuilds: {_name}"] += 1
            return _original(cls, *args, **kw)

        setattr(KasinoGame, name, classmethod(rebuilding))
    copy = KasinoGame.copy

    def copying(self: KasinoGame) -> KasinoGame:
        if by_the_bot():
            counts["copies"] += 1
        return copy(self)

    setattr(KasinoGame, "copy", copying)  # noqa: B010 - replacing a method, which mypy would refuse


def time_table_edits(bot: Any, latencies: list[float], table: dict[str, int | None]) -> None:
    """Latency of each move: from the bot receiving its interaction to the PATCH of the game's table message."""
    started: dict[str, float] = {}

    async def on_interaction(interaction: discord.Interaction) -> None:
        started["at"] = time.perf_counter()

    bot.add_listener(on_interaction)
    send = bot.http.request

    async def request(route: Route, **kwargs: Any) -> Any:
        message_id = table.get("id")
        if route.method == "PATCH" and message_id is not None and route.url.endswith(f"/messages/{message_id}"):
            at = started.pop("at", None)
            if at is not None:
                latencies.append(time.perf_counter() - at)
        return await send(route, **kwargs)

    bot.http.request = request


async def play_game(seed: int, folder: Path, counting: bool, figures: Figures) -> None:
    """One whole two-player Kasino game, every move from the mover's DM panel."""
    seeds = itertools.count(seed)
    bot = create_bot(folder / f"game-{seed}.db", new_seed=lambda: next(seeds), shard_count=1)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Cards")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
            _, game_id = await open_and_start(channel, members[0], members[1:], "kasino new", seats=2)
            get_game = bot.store.get_game  # the bench's own look at the game, never counted

            async def stored() -> GameRecord:
                found = await get_game(game_id)
                assert found is not None and found.state is not None
                return found

            record = await stored()
            table: dict[str, int | None] = {"id": record.table_message_id}
            if counting:
                count_store(bot.store, figures.counts)
            else:
                time_table_edits(bot, figures.latencies, table)
            rng = random.Random(seed)
            while record.status == "running":
                seat = KasinoGame.from_dict(record.state or {}).to_move
                assert seat is not None  # a running game has a seat to move
                member = member_for(members, record, seat)
                await two_taps(member.user, dm_hand_message(member, record, seat), rng)
                after = await stored()
                if after.version == record.version:
                    raise AssertionError("a move was not applied")
                figures.moves += after.move_count - record.move_count
                record = after
                table["id"] = record.table_message_id
    finally:
        await bot.close()


async def worker(games: int, counting: bool) -> Figures:
    """Play `games` seeded games (the same seeds in every worker) and return what they made."""
    figures = Figures()
    if counting:
        count_engines(figures.counts)
    with tempfile.TemporaryDirectory() as folder:
        for number in range(games):
            await play_game(FIRST_SEED + number, Path(folder), counting, figures)
    return figures


def run_worker(tree: Path, games: int, counting: bool) -> Figures:
    """A worker in a subprocess, on the code of `tree`."""
    command = [sys.executable, "-m", "bench.bench_reads", "--worker", "--games", str(games)]
    if counting:
        command.append("--count")
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the worker in {tree} failed:\n{done.stderr[-4000:]}")
    return Figures.from_json(done.stdout.strip().splitlines()[-1])


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main(games: int, rounds: int, before: str) -> None:
    revision = git("rev-parse", "--short", before)
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "before"
        git("worktree", "add", "--detach", str(old), revision)
        try:
            shutil.copy(Path(__file__), old / "bench" / "bench_reads.py")
            counted = {"before": run_worker(old, games, True), "after": run_worker(ROOT, games, True)}
            timed = {"before": Figures(), "after": Figures()}
            for number in range(rounds):
                order = ("before", "after") if number % 2 == 0 else ("after", "before")
                for side in order:
                    timed[side].add(run_worker(old if side == "before" else ROOT, games, False))
        finally:
            git("worktree", "remove", "--force", str(old))
    now, then = counted["after"], counted["before"]
    print(f"per move: {now.per_move('reads'):.2f} game reads, {now.per_move('rebuilds'):.2f} engine rebuilds ({TITLE})")
    print(
        f"before ({revision}): per move: {then.per_move('reads'):.2f} game reads,"
        f" {then.per_move('rebuilds'):.2f} engine rebuilds; after: {now.per_move('reads'):.2f},"
        f" {now.per_move('rebuilds'):.2f}"
        f" ({now.moves} moves in {games} game{'s' if games != 1 else ''} each)"
    )
    for side, figures in (("before", then), ("after", now)):
        parts = sorted(key for key in figures.counts if ": " in key)
        print(f"    {side}: " + ", ".join(f"{key} {figures.per_move(key):.2f}" for key in parts))
    print(
        f"delivery claims per move: before {then.per_move('claims'):.2f}, after {now.per_move('claims'):.2f}"
        " (the lease's UPDATE, which returns the claimed row)"
    )
    print(f"engine copies per move: before {then.per_move('copies'):.2f}, after {now.per_move('copies'):.2f}")
    old_p50, new_p50 = (statistics.median(timed[side].latencies) * 1000 for side in ("before", "after"))
    old_p90, new_p90 = (percentile(timed[side].latencies, 0.9) * 1000 for side in ("before", "after"))
    print(
        f"move→table latency: before p50 {old_p50:.1f} ms p90 {old_p90:.1f} ms, after p50 {new_p50:.1f} ms"
        f" p90 {new_p90:.1f} ms; ratio after/before p50 {new_p50 / old_p50:.2f}, p90 {new_p90 / old_p90:.2f}"
        f" ({len(timed['after'].latencies)} moves a side, {rounds} alternating rounds)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="whole games per worker (default 2)")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds of latency (default 4)")
    parser.add_argument("--before", default="", help="the old revision (default: the merge base with main)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        print(asyncio.run(worker(arguments.games, arguments.count)).as_json())
    else:
        main(arguments.games, arguments.rounds, arguments.before or git("merge-base", "HEAD", "main"))
