"""discord.py's rate-limit buckets, one per channel, are kept only while they know something.

See cogs/runtime/buckets.py.
"""

import asyncio

from discord.http import HTTPClient

from cogs.runtime.buckets import KEPT, forget_idle_buckets


async def test_requests_to_many_channels_leave_few_buckets() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    forget_idle_buckets(http)
    for channel in range(10 * KEPT):  # a request to each of many channels, one after another
        async with http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}"):
            pass
    assert len(http._buckets) <= KEPT


async def test_without_it_discord_py_keeps_every_bucket_for_five_minutes() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    for channel in range(2 * KEPT):
        async with http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}"):
            pass
    assert len(http._buckets) == 2 * KEPT  # what the bot would hold without forget_idle_buckets


async def test_a_bucket_in_use_or_in_a_running_window_is_kept() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    forget_idle_buckets(http)
    in_flight = http.get_ratelimit("PATCH /channels/{channel_id}/messages/{message_id}:in-flight")
    await in_flight.acquire()  # a request under way
    limited = http.get_ratelimit("POST /channels/{channel_id}/messages:limited")
    limited.remaining, limited.expires = 0, asyncio.get_running_loop().time() + 60  # Discord said: none left for 60 s
    for channel in range(3 * KEPT):
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    assert http.get_ratelimit("PATCH /channels/{channel_id}/messages/{message_id}:in-flight") is in_flight
    assert http.get_ratelimit("POST /channels/{channel_id}/messages:limited") is limited
    assert len(http._buckets) <= KEPT
