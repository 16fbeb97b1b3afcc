"""The bot's own requests against Discord's global rate limit, counted as they are made.

Discord allows a bot token about 50 requests a second in all. Interaction responses, their followups and edits
through an interaction's token do not count (they go through the interaction's webhook, not `HTTPClient.request`,
and are left out here should one pass through it). `RequestBudget.install` wraps the bot's HTTP client so that
every other request is stamped; `used()` says how many went out in the last second, and background work (the
start-up catch-up, `cogs.runtime.catch_up`) spends only what play leaves under a target below the limit.

Each process also keeps its own cap, `limit` (REQUESTS_PER_SECOND, 50 by default): a counted request waits until
fewer than `limit` went out in the last second. Several processes of one token split the 50 between them by
configuration (50/N each), so that together they stay within Discord's limit without talking to each other
(`docs/scaling.md`). Interaction responses never wait: they do not count, and a user is waiting for them.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from discord.http import HTTPClient, Route

GLOBAL_LIMIT: Final = 50  # requests a second per bot token, Discord's global limit
WINDOW_SECONDS: Final = 1.0
SHORTEST_WAIT: Final = 0.001  # seconds: a wait computed as nearly 0 must still move a clock that only sleeps move
FREE_PATHS: Final = ("/interactions/", "/webhooks/")  # answered through an interaction's token: not counted


@dataclass(slots=True)
class Errand:
    """One piece of background work; the requests made while it runs (in its task and the tasks it starts)."""

    requests: int = 0


# The background errand the current task works for (None: play, or anything else).
ERRAND: contextvars.ContextVar[Errand | None] = contextvars.ContextVar("errand", default=None)


def counts(route: Route) -> bool:
    """Whether a request counts against the global limit."""
    return not route.path.startswith(FREE_PATHS)


class RequestBudget:
    """Counts the requests of the last second, and holds a counted request back while `limit` went out in it.

    `clock` (monotonic seconds) and `sleep` are the time the budget is kept in: injectable, so that a benchmark can
    run a long catch-up in virtual time.
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        *,
        limit: int = GLOBAL_LIMIT,
    ) -> None:
        if not 1 <= limit <= GLOBAL_LIMIT:
            raise ValueError(f"a process's cap is 1 to {GLOBAL_LIMIT} requests a second, not {limit}")
        self.clock = clock
        self.sleep = sleep
        self.limit = limit
        self.held = 0  # counted requests that had to wait for the cap
        self.total = 0  # counted requests since start
        self.background = 0  # of which made for a background errand
        self._sent: deque[float] = deque()

    def install(self, http: HTTPClient) -> None:
        """Count every request the bot's HTTP client makes from now on (wraps `http.request` of this client only)."""
        send = http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            if counts(route):
                await self.take()
            return await send(route, **kwargs)

        http.request = request  # type: ignore[method-assign]

    async def take(self) -> None:
        """Wait until fewer than `limit` counted requests are within the last second, then count one going out now.

        The check and the count are one step (no await between them), so requests waiting together never overshoot.
        """
        if self.used() >= self.limit:
            self.held += 1
        while (wait := self.seconds_until_at_most(self.limit - 1)) > 0:
            await self.sleep(max(wait, SHORTEST_WAIT))
        self.note()

    def note(self) -> None:
        """One counted request goes out now (for the current task's errand, if any)."""
        self._sent.append(self.clock())
        self.total += 1
        errand = ERRAND.get()
        if errand is not None:
            errand.requests += 1
            self.background += 1

    def used(self) -> int:
        """Counted requests within the last second."""
        self._forget()
        return len(self._sent)

    def seconds_until_at_most(self, count: int) -> float:
        """How long until at most `count` counted requests are within the last second (0: already)."""
        self._forget()
        if len(self._sent) <= count:
            return 0.0
        leaving = self._sent[len(self._sent) - 1 - max(count, 0)]  # the newest request that must leave the window
        return max(0.0, leaving + WINDOW_SECONDS - self.clock())

    def _forget(self) -> None:
        horizon = self.clock() - WINDOW_SECONDS
        while self._sent and self._sent[0] <= horizon:
            self._sent.popleft()
