"""The process's invalid requests: Discord blocks an address that gets too many refusals, for every server at once.

Discord blocks an IP address from its API for a while once it has answered 10,000 requests with 401, 403 or 429 in
10 minutes (a 429 whose `X-RateLimit-Scope` is `shared` does not count: that limit is a resource's, not the bot's).
A moderator who takes the bot's access away from a category of running games makes every one of them refused on
each retry, so the refusals of the whole process are counted here, over a sliding 10 minutes, and the delivery's
retries of failing games (`cogs.runtime.delivery`) are paced against a budget: half of that ceiling, or this process's
share of half of it when several processes share an address (`budget_for`). Below the budget a retry goes out after
its usual backoff. Once the refusals of the last 10 minutes and the retries already planned reach it, the slowdown
starts (one log line): a retry is put off until the oldest refusals have left the window, so failing games retry
only as fast as refusals age out, and the count stays within the budget. The slowdown ends (one more line) once the
count is back under half the budget, so that it does not flap at the edge.

Where the responses are seen: every response of the bot's aiohttp session, through the trace discord.py accepts
(`http_trace`), which sees the 429s discord.py retries by itself and the interaction webhooks too. A client without
that trace (SimCord's, in tests and benchmarks) is counted where its `request` raises instead.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any, Final

import aiohttp
import discord
from discord.http import HTTPClient, Route

from cogs.runtime.budget import GLOBAL_LIMIT

log = logging.getLogger(__name__)

CEILING: Final = 10_000  # refusals in WINDOW_SECONDS after which Discord blocks the address
WINDOW_SECONDS: Final = 600.0
BUDGET: Final = CEILING // 2  # what one process alone allows itself: half the ceiling
INVALID_STATUSES: Final = frozenset({401, 403, 429})
SHARED_SCOPE: Final = "shared"  # a 429 of a shared resource's limit, which Discord does not count
SCOPE_HEADER: Final = "X-RateLimit-Scope"
PLANNED_GRACE: Final = 2.0  # seconds a planned retry still counts after its time, until its answer is counted
CHECK_SECONDS: Final = 30.0  # while slowed down, how often to look whether the slowdown can end


def is_invalid(status: int, scope: str | None = None) -> bool:
    """Whether Discord counts a response towards the ceiling: 401, 403 and 429, except shared-scope 429s."""
    return status in INVALID_STATUSES and not (status == 429 and (scope or "").lower() == SHARED_SCOPE)


def was_refused(error: BaseException | None) -> bool:
    """Whether a delivery failed because Discord refused it in a way that counts (its retry is paced)."""
    if isinstance(error, discord.RateLimited):
        return True
    return isinstance(error, discord.HTTPException) and is_invalid(error.status, _scope_of(error))


def _scope_of(error: discord.HTTPException) -> str | None:
    headers = getattr(error.response, "headers", None)
    return headers.get(SCOPE_HEADER) if headers is not None else None


def process_share(requests_per_second: int, shard_count: int | None, shard_ids: Sequence[int] | None) -> float:
    """The share of what the bot's processes may spend together that this process keeps.

    Processes of one token split Discord's 50 requests a second by configuration (REQUESTS_PER_SECOND, 50/N each)
    and their shards by SHARD_IDS: the smaller of the two shares is kept, so that N processes configured either way
    stay within the ceiling together, without talking to each other.
    """
    by_rate = requests_per_second / GLOBAL_LIMIT
    by_shards = len(shard_ids) / shard_count if shard_ids is not None and shard_count else 1.0
    return min(1.0, by_rate, by_shards)


def budget_for(requests_per_second: int, shard_count: int | None = None, shard_ids: Sequence[int] | None = None) -> int:
    """The refusals this process allows itself in 10 minutes: its share of half of Discord's ceiling (at least 1)."""
    return max(1, int(BUDGET * process_share(requests_per_second, shard_count, shard_ids)))


class InvalidRequests:
    """The refusals of the last 10 minutes, the paced retries planned, and whether failing games are slowed down.

    `clock` (monotonic seconds) is read at each call, so that a simulated clock (SimCord's) or a benchmark's can
    stand in for it.
    """

    def __init__(self, limit: int = BUDGET, clock: Callable[[], float] | None = None) -> None:
        if limit < 1:
            raise ValueError(f"the invalid-request budget is at least 1, not {limit}")
        self.limit = limit
        self.clock: Callable[[], float] = clock or (lambda: time.monotonic())
        self.total = 0  # refusals counted since start
        self.slowed = 0  # retries put off beyond their backoff
        self.slowing = False
        self._seen: deque[float] = deque()  # when each refusal of the window came (oldest first)
        self._planned: list[float] = []  # when each paced retry will go out (sorted)
        self._checking = False  # a look at the slowdown is due (its end is said even when all is quiet)

    # -- counting -----------------------------------------------------------------------------------------------------

    def note(self, status: int, scope: str | None = None) -> None:
        """One response came back: count it if Discord does."""
        if not is_invalid(status, scope):
            return
        self._seen.append(self.clock())
        self.total += 1
        self.refresh()

    def count(self) -> int:
        """Refusals within the last 10 minutes."""
        self._forget()
        return len(self._seen)

    def planned(self) -> int:
        """Paced retries still to go out (or just gone out, until their answer is counted)."""
        self._forget()
        return len(self._planned)

    def trace_config(self) -> aiohttp.TraceConfig:
        """An aiohttp trace that counts every response of the session it is given to (discord.py's `http_trace`)."""
        trace = aiohttp.TraceConfig()

        async def on_request_end(
            _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            self.note(params.response.status, params.response.headers.get(SCOPE_HEADER))

        trace.on_request_end.append(on_request_end)
        return trace

    def install(self, http: HTTPClient, trace: aiohttp.TraceConfig | None = None) -> None:
        """Count the refusals of a client whose session does not carry `trace` (else the trace counts them).

        Wraps this client's `request` only: the refusals it raises (401, 403, and the 429s it gives up on).
        """
        if trace is not None and http.http_trace is trace:
            return
        send = http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            try:
                return await send(route, **kwargs)
            except discord.HTTPException as error:
                self.note(error.status, _scope_of(error))
                raise

        http.request = request  # type: ignore[method-assign]

    # -- pacing -------------------------------------------------------------------------------------------------------

    def retry_delay(self, delay: float, error: BaseException | None) -> float:
        """When a failing game retries: after `delay` (its backoff), or later while refusals near the budget.

        Only a retry after a refusal is paced and planned (it will most likely be refused again); a game that
        failed otherwise (a 5xx, the database) keeps its backoff. The planned retry counts as a refusal at its time,
        so that retries planned together cannot overshoot the budget.
        """
        if not was_refused(error):
            return delay
        now = self.clock()
        at = self._slot(now + delay)
        bisect.insort(self._planned, at)
        if at > now + delay + 1e-9:
            self.slowed += 1
            self._start(len(self._seen))
        return at - now

    def _slot(self, earliest: float) -> float:
        """The first time from `earliest` at which one more refusal keeps every 10-minute window within the budget.

        While the window's refusals and the planned retries together stay under the budget, any time is; else the
        retry goes after every planned one, once enough of the oldest have left the window.
        """
        self._forget()
        if len(self._seen) + len(self._planned) < self.limit:
            return earliest
        timeline = sorted([*self._seen, *self._planned])
        leaving = timeline[len(timeline) - self.limit]  # it and every older one must be out of the window
        return max(earliest, timeline[-1], leaving + WINDOW_SECONDS)

    # -- the slowdown, said once when it starts and once when it ends -------------------------------------------------

    def refresh(self) -> None:
        """Start the slowdown when the budget is reached, or end it once the count is back under half of it."""
        self._forget()
        used = len(self._seen) + len(self._planned)
        if not self.slowing and used >= self.limit:
            self._start(len(self._seen))
        elif self.slowing and used < self.limit / 2:
            self.slowing = False
            log.info(
                "Discord's refusals are back under half of this process's budget (%d in the last 10 minutes); "
                "failing games retry at their usual pace again.",
                len(self._seen),
            )
        if self.slowing:
            self._check_later()

    def _start(self, seen: int) -> None:
        if self.slowing:
            return
        self.slowing = True
        log.warning(
            "Discord refused %d requests in the last 10 minutes, and retries are planned up to this process's budget "
            "of %d (Discord blocks the address at %d): failing games retry more slowly until the refusals age out.",
            seen,
            self.limit,
            CEILING,
        )
        self._check_later()

    def _check_later(self) -> None:
        """Look again soon, so that the end is said even when nothing more is refused or retried."""
        if self._checking:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # counted outside an event loop (a unit test): refresh() is called by hand
            return
        self._checking = True
        loop.call_later(CHECK_SECONDS, self._checked)

    def _checked(self) -> None:
        self._checking = False
        self.refresh()

    def _forget(self) -> None:
        now = self.clock()
        horizon = now - WINDOW_SECONDS
        while self._seen and self._seen[0] <= horizon:
            self._seen.popleft()
        gone = bisect.bisect_left(self._planned, now - PLANNED_GRACE)
        if gone:
            del self._planned[:gone]
