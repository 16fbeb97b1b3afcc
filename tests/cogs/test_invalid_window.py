"""Issue 44, item 8: the process's refusals counted over a sliding 10 minutes, and failing games' retries paced by them.

The window and the pacing on a clock the test moves; the counting of real responses through discord.py's HTTP client
and aiohttp's trace, against the loopback fake Discord of the benchmarks.
"""

import asyncio
import logging
from collections.abc import Iterator

import aiohttp
import discord
import pytest
from discord.http import HTTPClient, Route

from bench.fake_discord import FakeDiscord, Refusal
from cogs.runtime.invalid import WINDOW_SECONDS, InvalidRequests, budget_for

MISSING_ACCESS = discord.Forbidden(
    type("Answer", (), {"status": 403, "reason": "Forbidden", "headers": {}})(), {"code": 50001, "message": "Missing"}
)
SERVER_ERROR = discord.DiscordServerError(
    type("Answer", (), {"status": 503, "reason": "Unavailable", "headers": {}})(), {"message": "Unavailable"}
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def slowing(invalid: InvalidRequests) -> bool:
    """Whether it is slowing now (read through a call: mypy keeps an asserted attribute's value across calls)."""
    return invalid.slowing


def busiest_window(stamps: list[float]) -> int:
    """The most refusals within any 10 minutes (a window ending at each refusal)."""
    stamps = sorted(stamps)
    return max((sum(1 for other in stamps if stamp - WINDOW_SECONDS < other <= stamp) for stamp in stamps), default=0)


def test_401_403_and_429_count_and_a_shared_scope_429_does_not() -> None:
    invalid = InvalidRequests(limit=100, clock=Clock())
    for status in (401, 403, 429, 200, 204, 404, 500, 503):
        invalid.note(status)
    invalid.note(429, "shared")
    invalid.note(429, "Shared")
    invalid.note(429, "user")
    invalid.note(429, "global")
    assert invalid.count() == 5 == invalid.total


def test_refusals_older_than_ten_minutes_age_out_one_by_one() -> None:
    clock = Clock()
    invalid = InvalidRequests(limit=100, clock=clock)
    for second in (0, 100, 200):
        clock.now = second
        invalid.note(403)
    clock.now = 599.9
    assert invalid.count() == 3
    clock.now = 600.0  # the first came exactly 10 minutes ago: out
    assert invalid.count() == 2
    clock.now = 799.0
    assert invalid.count() == 1
    clock.now = 800.0
    assert invalid.count() == 0 and invalid.total == 3


def test_each_process_keeps_its_share_by_requests_a_second_or_by_shards() -> None:
    assert budget_for(50) == 5_000  # one process: half of Discord's 10,000
    assert budget_for(25) == 2_500  # two processes splitting the 50 requests a second
    assert budget_for(16) == 1_600  # three
    assert budget_for(50, 4, [0]) == 1_250  # a quarter of the shards (several processes behind one proxy)
    assert budget_for(50, 4, [0, 1, 2, 3]) == 5_000
    assert budget_for(25, 4, [0]) == 1_250  # the smaller share is kept
    assert budget_for(1) == 100
    with pytest.raises(ValueError, match="at least 1"):
        InvalidRequests(limit=0)


def test_a_retry_after_a_failure_that_is_not_a_refusal_keeps_its_backoff_and_plans_nothing() -> None:
    invalid = InvalidRequests(limit=1, clock=Clock())
    invalid.note(403)
    assert invalid.retry_delay(5.0, SERVER_ERROR) == 5.0
    assert invalid.retry_delay(5.0, None) == 5.0
    assert invalid.planned() == 0


def test_under_the_budget_a_refused_game_retries_after_its_backoff() -> None:
    invalid = InvalidRequests(limit=100, clock=Clock())
    for _ in range(10):
        invalid.note(403)
    assert [invalid.retry_delay(delay, MISSING_ACCESS) for delay in (5.0, 10.0, 300.0)] == [5.0, 10.0, 300.0]
    assert invalid.planned() == 3 and not invalid.slowing and invalid.slowed == 0


def test_refused_games_retrying_together_never_pass_the_budget_in_any_ten_minutes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """250 games refused at once, each retrying on its backoff (5 s doubling to 5 minutes) and refused again.

    On its backoff alone each game would be refused 7 times in the first 10 minutes: 1,750 in all.
    """
    clock = Clock()
    invalid = InvalidRequests(limit=1000, clock=clock)
    stamps: list[float] = []
    due: list[tuple[float, int, int]] = []  # (when, game, failures)
    with caplog.at_level(logging.INFO, logger="cogs.runtime.invalid"):
        for game in range(250):
            invalid.note(403)
            stamps.append(clock.now)
            due.append((invalid.retry_delay(5.0, MISSING_ACCESS), game, 1))
        while due and clock.now < 3600:
            due.sort()
            when, game, failures = due.pop(0)
            clock.now = when
            invalid.note(403)  # the retry is refused again
            stamps.append(clock.now)
            backoff = min(300.0, 5.0 * 2**failures)
            due.append((clock.now + invalid.retry_delay(backoff, MISSING_ACCESS), game, failures + 1))
    assert 900 <= busiest_window(stamps) <= 1000  # within the budget, and not much slower than it allows
    assert len(stamps) > 3_500  # on backoff alone about 4,500 in the hour: paced, nearly as many
    assert invalid.slowing and invalid.slowed > 0
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 1 and "retry more slowly" in said[0], said


def test_the_slowdown_is_said_once_when_it_starts_and_once_when_the_count_is_back_under_half(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    invalid = InvalidRequests(limit=10, clock=clock)
    with caplog.at_level(logging.INFO, logger="cogs.runtime.invalid"):
        for _ in range(9):
            invalid.note(403)
        assert not invalid.slowing
        delays = [invalid.retry_delay(5.0, MISSING_ACCESS) for _ in range(4)]
        assert delays[0] == 5.0  # 9 seen and this one planned: the budget, not past it
        assert min(delays[1:]) >= WINDOW_SECONDS  # the next wait until the first refusals have aged out
        assert slowing(invalid)
        for _ in range(20):  # more refusals while slowed: nothing more is said
            invalid.note(403)
        clock.now = 2 * WINDOW_SECONDS  # all of it aged out, every planned retry gone by
        invalid.refresh()
        assert not invalid.slowing
        clock.now += 1
        invalid.refresh()
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 2, said
    assert "retry more slowly" in said[0] and "back under half" in said[1]


@pytest.fixture
def fake_discord() -> Iterator[FakeDiscord]:
    base = Route.BASE
    with FakeDiscord() as fake:
        Route.BASE = fake.base  # discord.py builds each route's URL from this when the route is made
        try:
            yield fake
        finally:
            Route.BASE = base


async def test_every_response_of_discord_py_s_session_is_seen_including_the_429s_it_retries(
    fake_discord: FakeDiscord,
) -> None:
    invalid = InvalidRequests(limit=100)
    trace = invalid.trace_config()
    http = HTTPClient(asyncio.get_running_loop(), aiohttp.TCPConnector(limit=0), http_trace=trace)
    invalid.install(http, trace)  # the session is traced: nothing to wrap
    try:
        await http.static_login("token")
        fake_discord.refuse(Refusal("/channels/1/messages", 403, 50001, times=3))
        fake_discord.refuse(Refusal("/channels/2/messages", 429, scope="user", times=2))
        fake_discord.refuse(Refusal("/channels/3/messages", 429, scope="shared", times=2))
        for _ in range(3):
            with pytest.raises(discord.Forbidden):
                await http.send_message(1, params=discord.http.handle_message_parameters(content="hi"))
        # discord.py waits and retries a 429 by itself: two refusals, then the message goes out.
        await http.send_message(2, params=discord.http.handle_message_parameters(content="hi"))
        await http.send_message(3, params=discord.http.handle_message_parameters(content="hi"))
    finally:
        await http.close()
    assert fake_discord.refused == {403: 3, 429: 4}
    assert invalid.count() == 5  # the 403s and the user-scope 429s; the shared-scope ones are not Discord's count
