"""Several bot processes on one token: does each process's cap keep them together within Discord's 50 a second?

Discord's global limit (about 50 requests a second) is per bot token, not per process. Each process keeps its own
`RequestBudget`, capped by REQUESTS_PER_SECOND; the bot's default way to run N processes is to split the 50 by
configuration, 50/N each (`docs/scaling.md`). This simulates 1, 2 and 3 processes of one token, each firing counted
requests as fast as its budget lets it for 10 seconds, on one shared virtual clock (no real sleeping; a request
takes no time, the worst case), and measures the busiest 1-second window of all their requests together and the
mean rate. The uncapped cases (every process at the default 50) show why the split is needed.

    python -m bench.bench_budget

prints one line per case, such as
`processes: 2, cap 25/s each: peak 50 requests in any 1 s window, mean 50.0/s (Discord's limit: 50)`.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from cogs.runtime.budget import GLOBAL_LIMIT, RequestBudget

SECONDS = 10.0


@dataclass
class VirtualTime:
    """A clock shared by several tasks that moves only when every one of them is asleep on it.

    `run` drives the tasks: while one can go on, it lets it; once all wait on `sleep`, the clock jumps to the
    earliest wake-up. The tasks must wait on nothing but this clock.
    """

    now: float = 0.0
    _sleepers: list[tuple[float, int, asyncio.Future[None]]] = field(default_factory=list)
    _order: itertools.count[int] = field(default_factory=itertools.count)

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(seconds, 0.0), next(self._order), woken))
        await woken

    async def run(self, *work: Coroutine[Any, Any, Any]) -> list[Any]:
        """Run the coroutines to the end in this virtual time; their results, in order."""
        tasks = [asyncio.create_task(each) for each in work]
        while not all(task.done() for task in tasks):
            running = sum(1 for task in tasks if not task.done())
            if self._sleepers and len(self._sleepers) >= running:  # everyone waits: time moves on
                wake = self._sleepers[0][0]
                self.now = max(self.now, wake)
                while self._sleepers and self._sleepers[0][0] <= wake:
                    heapq.heappop(self._sleepers)[2].set_result(None)
            await asyncio.sleep(0)  # let the woken (or the still running) go on
        return [task.result() for task in tasks]


def busiest_second(stamps: Sequence[float]) -> int:
    """The most stamps within any 1-second window (t - 1, t]."""
    ordered = sorted(stamps)
    peak, first = 0, 0
    for last, stamp in enumerate(ordered):
        while ordered[first] <= stamp - 1.0:
            first += 1
        peak = max(peak, last - first + 1)
    return peak


@dataclass(frozen=True)
class Measured:
    """What the processes sent together: the busiest 1-second window and the mean rate."""

    peak: int
    per_second: float


async def simulate(processes: int, cap: int, seconds: float = SECONDS) -> Measured:
    """`processes` processes of one token, each capped at `cap` a second, sending as fast as they may."""
    time = VirtualTime()
    stamps: list[float] = []

    async def process() -> None:
        budget = RequestBudget(clock=time.clock, sleep=time.sleep, limit=cap)
        while time.now < seconds:
            await budget.take()
            if time.now < seconds:  # woken at the end: that request is not sent
                stamps.append(time.now)

    await time.run(*(process() for _ in range(processes)))
    return Measured(busiest_second(stamps), len(stamps) / seconds)


def main() -> None:
    for processes in (1, 2, 3):
        cap = GLOBAL_LIMIT // processes  # split by configuration: REQUESTS_PER_SECOND=50/N in each
        split = asyncio.run(simulate(processes, cap))
        print(
            f"processes: {processes}, cap {cap}/s each: peak {split.peak} requests in any 1 s window, "
            f"mean {split.per_second:.1f}/s (Discord's limit: {GLOBAL_LIMIT})"
        )
    for processes in (2, 3):
        alone = asyncio.run(simulate(processes, GLOBAL_LIMIT))
        print(
            f"processes: {processes} uncapped: peak {alone.peak} requests in any 1 s window, "
            f"mean {alone.per_second:.1f}/s (Discord's limit: {GLOBAL_LIMIT}; each process at the default "
            f"{GLOBAL_LIMIT})"
        )


if __name__ == "__main__":
    main()
