"""Issue 27: each process holds its counted requests to its own cap (REQUESTS_PER_SECOND); interactions never wait."""

from typing import Any, cast

import pytest
from discord.http import HTTPClient, Route

from bench.bench_budget import VirtualTime, busiest_second, simulate
from cogs.runtime.budget import RequestBudget
from cogs.runtime.catch_up import target_for

COUNTED = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)
FREE = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback", interaction_id=1,
             interaction_token="t")  # fmt: skip


class FakeHTTP:
    """An HTTP client whose requests take no time and are stamped with the virtual clock."""

    def __init__(self, time: VirtualTime) -> None:
        self.time = time
        self.sent: list[tuple[Route, float]] = []

    async def request(self, route: Route, **_: Any) -> dict[str, Any]:
        self.sent.append((route, self.time.now))
        return {}


@pytest.mark.parametrize("limit", [50, 25, 17, 1])
async def test_requests_fired_at_once_go_out_at_most_limit_in_any_second(limit: int) -> None:
    time = VirtualTime()
    budget = RequestBudget(clock=time.clock, sleep=time.sleep, limit=limit)
    http = FakeHTTP(time)
    budget.install(cast("HTTPClient", http))  # the budget wraps its `request` alone
    await time.run(*(http.request(COUNTED) for _ in range(3 * limit + 1)))  # fired at once
    stamps = [stamp for _, stamp in http.sent]
    assert len(stamps) == 3 * limit + 1 == budget.total
    assert busiest_second(stamps) == limit
    assert stamps.count(0.0) == limit  # the first `limit` went at once
    assert 3.0 <= max(stamps) < 3.1  # then `limit` a second: no slower than the cap either
    assert budget.held == 2 * limit + 1


async def test_interaction_responses_never_wait_nor_count() -> None:
    time = VirtualTime()
    budget = RequestBudget(clock=time.clock, sleep=time.sleep, limit=5)
    http = FakeHTTP(time)
    budget.install(cast("HTTPClient", http))  # the budget wraps its `request` alone
    await time.run(*(http.request(COUNTED) for _ in range(5)))  # the cap is spent for this second
    await time.run(*(http.request(FREE) for _ in range(20)))
    assert [stamp for route, stamp in http.sent if route is FREE] == [0.0] * 20
    assert budget.total == 5 and budget.held == 0
    await time.run(http.request(COUNTED))  # the next counted one waits for the first to leave the window
    about_a_second_later: tuple[Route, Any] = (COUNTED, pytest.approx(1.0, abs=0.002))  # approx equals a float
    assert http.sent[-1] == about_a_second_later


async def test_a_request_under_the_cap_does_not_wait() -> None:
    time = VirtualTime()
    budget = RequestBudget(clock=time.clock, sleep=time.sleep, limit=3)
    await time.run(*(budget.take() for _ in range(3)))
    assert time.now == 0.0 and budget.used() == 3
    time.now = 0.5
    await time.run(budget.take())  # 3 within the last second: wait until 1.0
    assert time.now == pytest.approx(1.0, abs=0.002) and budget.used() == 1


def test_a_cap_past_discords_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="1 to 50"):
        RequestBudget(limit=51)
    with pytest.raises(ValueError, match="1 to 50"):
        RequestBudget(limit=0)


def test_the_catch_up_target_is_the_same_share_of_the_cap() -> None:
    assert target_for(50) == 40  # the catch-up's TARGET under Discord's whole limit
    assert target_for(25) == 20
    assert target_for(10) == 8
    assert target_for(1) == 1  # never 0: the catch-up must still move


async def test_processes_splitting_the_limit_stay_within_it_together_and_uncapped_ones_do_not() -> None:
    two = await simulate(2, 25, seconds=3.0)
    assert (two.peak, two.per_second) == (50, 50.0)
    three = await simulate(3, 16, seconds=3.0)
    assert three.peak == 48
    assert (await simulate(2, 50, seconds=3.0)).peak == 100
