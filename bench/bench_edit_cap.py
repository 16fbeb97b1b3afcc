"""What Discord's cap on edits of messages older than an hour (30046) costs a living table, in counted requests.

Plays one two-player Kasino game through SimCord (moves from the DM panels, so every table update is an edit
through the channel's own route, the counted kind) with a move every few minutes for some game-hours, twice: once
as Discord allows it, and once with Discord refusing (30046) every edit of a table message older than an hour, the
worst case (the real cap is undocumented). The bot answers a refusal by posting the table anew and deleting the old
one (`cogs.runtime.delivery`), so the second run shows what that costs per game-hour.

    python -m bench.bench_edit_cap [--hours H] [--gap MINUTES]

prints `table edits refused after an hour: +X counted requests per game-hour (Y reposts; A without the cap, B with)`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path

import simcord

from bench.bench_requests import InjectedError, record_of
from bot import create_bot
from tests.cogs.helpers import game_thread, open_and_start
from tests.cogs.test_kasino_flow import play_turn

FREE_PREFIXES = ("/interactions/", "/webhooks/")
EDIT_CAP = InjectedError(
    status=400, code=30046, message="Maximum number of edits to messages older than 1 hour reached"
)
HOUR = 3600.0


async def play(folder: Path, *, capped: bool, hours: float, gap: float) -> tuple[int, int]:
    """Counted requests of `hours` of play with a move every `gap` seconds, and the number of tables posted anew."""
    seeds = itertools.count(1)
    bot = create_bot(folder / f"cap-{capped}.db", new_seed=lambda: next(seeds), shard_count=1)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Cards")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
            _, game_id = await open_and_start(channel, members[0], members[1:], "kasino new", seats=2, target=99)
            thread = game_thread(channel, game_id)
            rng = random.Random(1)
            start, began = len(env.http_requests), env.now()
            tables: dict[int, float] = {}  # table message id → when it was first seen (seconds of game time)
            while (elapsed := (env.now() - began).total_seconds()) < hours * HOUR:
                table_id = (await record_of(bot, game_id)).table_message_id
                assert table_id is not None
                tables.setdefault(table_id, elapsed)
                if capped and elapsed - tables[table_id] >= HOUR:  # Discord refuses its edits from now on
                    env.inject_error("PATCH", f"/channels/{thread.id}/messages/{table_id}", **EDIT_CAP, times=None)
                await play_turn(env, channel, members, game_id, rng, "dm")
                for _ in range(int(gap // 60)):
                    await env.advance_time(60)
            requests = env.http_requests[start:]
            return sum(1 for entry in requests if not entry.path.startswith(FREE_PREFIXES)), len(tables) - 1
    finally:
        await bot.close()


async def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options, play both ways, print one line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--hours", type=float, default=3.0, help="game-hours to play (default 3)")
    parser.add_argument("--gap", type=float, default=4.0, help="minutes between moves (default 4)")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        free, _ = await play(Path(folder), capped=False, hours=options.hours, gap=options.gap * 60)
        capped, reposts = await play(Path(folder), capped=True, hours=options.hours, gap=options.gap * 60)
    extra = (capped - free) / options.hours
    print(
        f"table edits refused after an hour: +{extra:.2f} counted requests per game-hour "
        f"({reposts} reposts; {free} without the cap, {capped} with, over {options.hours:g} game-hours)"
    )


if __name__ == "__main__":
    asyncio.run(main())
