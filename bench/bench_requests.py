"""Discord requests per move, counted the way Discord's global rate limit counts them.

Plays whole seeded games through SimCord (the real bot, the real discord.py, a real SQLite file) the way players
do: Kasino moves from the DM menus (to 16 points), Garbage decisions from the table's buttons (layouts of 3 spots,
to keep the run short; a turn costs the same at any size). Every REST request the bot makes
is recorded; interaction callbacks and followups (`/interactions/…`, `/webhooks/…`) do not count against the
global limit of about 50 requests per second per bot token, everything else does.

    python -m bench.bench_requests [--games N]

prints, for each case, `kasino 2p: 2.31 counted requests per move (8.12 in all)`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
from collections import Counter
from pathlib import Path

import simcord

from bot import create_bot
from tests.cogs.helpers import open_and_start
from tests.cogs.test_garbage_flow import play_turn_by_buttons
from tests.cogs.test_kasino_flow import play_turn

FREE_PREFIXES = ("/interactions/", "/webhooks/")
CASES = (("kasino", 2), ("kasino", 4), ("garbage", 2), ("garbage", 6))
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def counted(path: str) -> bool:
    """Whether a request counts against the global rate limit."""
    return not path.startswith(FREE_PREFIXES)


async def play_one(kind: str, players: int, seed: int, folder: Path) -> tuple[int, int, int, Counter[str]]:
    """One whole game; returns (moves, counted requests, all requests, counted requests by route)."""
    seeds = itertools.count(seed)
    bot = create_bot(folder / f"{kind}-{players}-{seed}.db", new_seed=lambda: next(seeds), shard_count=1)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Cards")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in NAMES[:players]]
            options = {"seats": players} if kind == "kasino" else {"seats": players, "size": 3}
            start = len(env.http_requests)  # the whole game: lobby, start, every move, the end
            _, game_id = await open_and_start(channel, members[0], members[1:], f"{kind} new", **options)
            rng = random.Random(seed)
            moves = 0
            while True:
                if kind == "kasino":
                    record = await play_turn(env, channel, members, game_id, rng, "dm")
                else:
                    record = await play_turn_by_buttons(env, channel, members, game_id, rng)
                moves += 1
                if record.status == "finished":
                    break
            requests = env.http_requests[start:]
            by_route = Counter(
                f"{entry.method} {_route(entry.path)}" for entry in requests if counted(entry.path)
            )
            return moves, sum(by_route.values()), len(requests), by_route
    finally:
        await bot.close()


def _route(path: str) -> str:
    return "/".join("{id}" if part.isdigit() else part for part in path.split("/"))


async def main() -> None:
    """Play each case and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per case (default 1)")
    parser.add_argument("--routes", action="store_true", help="also print counted requests by route")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for kind, players in CASES:
            moves = counted_total = all_total = 0
            routes: Counter[str] = Counter()
            for game in range(args.games):
                m, c, a, r = await play_one(kind, players, 1000 + game, Path(folder))
                moves, counted_total, all_total = moves + m, counted_total + c, all_total + a
                routes += r
            print(
                f"{kind} {players}p: {counted_total / moves:.2f} counted requests per move "
                f"({all_total / moves:.2f} in all)"
            )
            if args.routes:
                for route, count in routes.most_common():
                    print(f"    {count / moves:5.2f}  {route}")


if __name__ == "__main__":
    asyncio.run(main())
