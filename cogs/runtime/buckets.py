"""Keep discord.py's per-route rate-limit buckets to those that still know something.

discord.py's HTTP client keeps one `Ratelimit` (with its own deque and lock, about 1.5 KB) per route and major
parameter: one per channel posted or edited in, so one per game thread and per player's DM. It forgets a bucket only
after five minutes without a request, so while the bot talks to many channels (the start-up catch-up settles
thousands of games, each in its own thread and DMs) it holds several thousand of them, which is most of what its
memory grows by.

A bucket that has nothing in flight, nobody waiting and no rate-limit window still running remembers nothing a new
bucket would not learn from the next answer: discord.py creates a fresh one (allowing a single request until
Discord's headers say more), so forgetting it is safe. `forget_idle_buckets` makes the client drop those, once it
holds `KEPT` buckets or more, each time it creates a bucket (where discord.py looks for its five-minute idle ones).
"""

from __future__ import annotations

from typing import Final

from discord.http import HTTPClient, Ratelimit

KEPT: Final = 256  # buckets kept before the idle ones are looked for (discord.py's own threshold)


def is_idle(bucket: Ratelimit) -> bool:
    """Whether a bucket has no request in flight or waiting and no window still running (nothing to remember)."""
    return (
        bucket.outgoing == 0
        and not bucket._pending_requests
        and not bucket._sleeping.locked()
        and (bucket.expires is None or bucket.is_expired())
    )


def forget_idle_buckets(http: HTTPClient) -> None:
    """Make this client drop its idle buckets whenever it holds `KEPT` or more (an instance's method only)."""

    def clear() -> None:
        buckets = http._buckets
        if len(buckets) < KEPT:
            return
        for key in [key for key, bucket in buckets.items() if is_idle(bucket)]:
            del buckets[key]

    http._try_clear_expired_ratelimits = clear  # type: ignore[method-assign]
