"""Start-up: bring Discord up to date on every game it is behind on, in pages, within what play leaves of the budget.

After a crash, or while Discord refused updates, many games may be owed ("shown_version < version"). They are read
a page of ids at a time (keyset paging), and each game's record is loaded only when it is settled, so memory stays
flat however many are owed. Settling spends requests against Discord's global limit (about 50 a second per token),
and play needs them too: the catch-up starts another game only while the requests of the last second (play's and
its own, counted by `cogs.runtime.budget`), plus what the settles under way are still expected to make, stay under
`TARGET` (or the same share of this process's own cap, REQUESTS_PER_SECOND, when several processes split the
token's 50). A few settles run at once, so that Discord's round trips do not slow it below the budget. A read of the
owed games that the database refuses (gone or busy) is tried again every RETRY_SECONDS, from where the catch-up
stood: it outlives an outage rather than leaving the games owed until each is played again.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeVar

from cogs.runtime.budget import ERRAND, GLOBAL_LIMIT, Errand, RequestBudget
from service.tables import USER_ERRORS

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

TARGET: Final = 40  # requests a second, play and catch-up together: the rest of Discord's 50 is always play's
PAGE: Final = 200  # game ids read at a time
MOST_AT_ONCE: Final = 8  # settles under way at once
FIRST_COST: Final = 4.0  # requests a settle is expected to make until some have been measured
RETRY_SECONDS: Final = 5.0  # after a read the database refused, the catch-up tries it again this much later
T = TypeVar("T")


async def patiently(read: Callable[[], Awaitable[T]], sleep: Callable[[float], Awaitable[None]], what: str) -> T:
    """`read()`, tried again every RETRY_SECONDS while the database refuses it (said once in the log, not each time).

    Raises:
        Exception: anything but a refusal of the store (a bug), at once.
    """
    refused = 0
    while True:
        try:
            return await read()
        except USER_ERRORS as error:
            if not refused:
                log.warning("could not read %s (%s); trying again every %.0f s", what, error, RETRY_SECONDS)
            refused += 1
        await sleep(RETRY_SECONDS)


def target_for(limit: int) -> int:
    """The catch-up's target under a process's cap of `limit` a second: the share of it TARGET is of Discord's 50."""
    return max(1, TARGET * limit // GLOBAL_LIMIT)


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What a catch-up did: games settled, seconds taken (in the budget's clock), counted requests it made."""

    settled: int
    seconds: float
    requests: int


async def catch_up(
    pages: Callable[[int, int], Awaitable[Sequence[int]]],
    settle: Callable[[int], Awaitable[object]],
    budget: RequestBudget,
    *,
    target: int = TARGET,
    page: int = PAGE,
    most_at_once: int = MOST_AT_ONCE,
) -> CatchUp:
    """Settle every game `pages(after, limit)` lists, within `target` counted requests a second.

    `settle(game_id)` loads and settles one game; its requests (and those of tasks it starts) are counted as the
    catch-up's, to learn what a settle costs.
    """
    started = budget.clock()
    running: dict[asyncio.Task[None], Errand] = {}
    done = Errand()  # the requests of the settles finished so far
    finished = 0

    largest = 0  # the most requests one finished settle made: what each settle under way may still make

    def cost() -> float:
        return min(float(target), max(1.0, float(largest) if finished else FIRST_COST))

    def reap(task: asyncio.Task[None]) -> None:
        nonlocal finished, largest
        errand = running.pop(task)
        done.requests += errand.requests
        largest = max(largest, errand.requests)
        finished += 1

    async def one(game_id: int, errand: Errand) -> None:
        ERRAND.set(errand)  # this task's context only: its requests are counted as this settle's
        try:
            await settle(game_id)
        except Exception:
            log.exception("game #%d could not be brought up to date; it is settled when next played", game_id)

    async def room() -> None:
        while True:
            each = cost()
            reserved = sum(max(0.0, each - errand.requests) for errand in running.values())
            allowed = target - each - reserved  # counted requests that may be in the last second now
            if len(running) < most_at_once and budget.used() <= allowed:
                return
            if running:  # a settle under way finishes soon, and frees its share
                await asyncio.wait(list(running), return_when=asyncio.FIRST_COMPLETED)
            else:  # the last second's requests must age out of the window first
                await budget.sleep(max(0.001, budget.seconds_until_at_most(math.floor(allowed))))

    after = 0
    while ids := await patiently(functools.partial(pages, after, page), budget.sleep, "the games owed to Discord"):
        after = ids[-1]
        for game_id in ids:
            await room()
            errand = Errand()
            task = asyncio.create_task(one(game_id, errand))
            running[task] = errand
            task.add_done_callback(reap)
    while running:
        await asyncio.wait(list(running))
    return CatchUp(finished, budget.clock() - started, done.requests)


async def catch_up_on_start(bot: GameBot) -> CatchUp:
    """Start-up: void the previous run's delivery leases, then settle every game Discord is behind on."""
    release = bot.service.projection.release_all_deliveries
    if released := await patiently(release, bot.budget.sleep, "the delivery leases of the previous run"):
        log.info("released %d delivery leases left by the previous run", released)
    pages = bot.service.projection.unshown_game_ids
    target = target_for(bot.budget.limit)
    done = await catch_up(pages, bot.delivery.settle, bot.budget, target=target, page=PAGE)
    if done.settled:
        log.info(
            "brought %d games up to date on Discord in %.0f s (%d requests, within %d a second with play)",
            done.settled,
            done.seconds,
            done.requests,
            target,
        )
    return done
