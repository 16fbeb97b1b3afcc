"""Issue 44: the catch-up after start-up outlives a database that refuses its reads, and goes on where it stood."""

import asyncio

from bench.bench_startup import VirtualTime
from cogs.runtime.budget import RequestBudget
from cogs.runtime.catch_up import catch_up
from db.errors import StorageUnavailableError


async def test_the_catch_up_outlives_refused_reads_of_the_owed_games_and_settles_every_one_after() -> None:
    time = VirtualTime()
    budget = RequestBudget(clock=time.clock, sleep=time.sleep)
    owed = list(range(1, 31))
    asked: list[int] = []
    settled: list[int] = []
    refusals = iter([True, False, True, True, False, False])  # the database goes away twice, mid-way too

    async def page(after: int, limit: int) -> list[int]:
        asked.append(after)
        if next(refusals, False):
            raise StorageUnavailableError()  # as the store refuses a read while the server is gone
        return [game_id for game_id in owed if game_id > after][:limit]

    async def settle(game_id: int) -> None:
        settled.append(game_id)
        await asyncio.sleep(0)

    done = await catch_up(page, settle, budget, target=40, page=10)
    assert sorted(settled) == owed and done.settled == len(owed)  # each once
    assert asked == [0, 0, 10, 10, 10, 20, 30]  # each refused read tried again from where it stood
    assert time.now >= 3 * 5  # waiting between the tries, not spinning
