"""How long to wait before trying Discord again: the one backoff of the bot (connecting, and showing a game)."""

from __future__ import annotations

from typing import Final

FIRST_RETRY_SECONDS: Final = 5.0
LONGEST_RETRY_SECONDS: Final = 300.0


def retry_delay(failures: int, retry_after: float | None = None, *, jitter: float = 1.0) -> float:
    """Seconds before the next try after `failures` failures: doubling from 5 s up to 5 minutes (times `jitter`).

    Never sooner than Discord asked (`retry_after` of a rate limit).
    """
    delay = min(LONGEST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2.0 ** (failures - 1)) * jitter
    return max(delay, retry_after) if retry_after is not None and retry_after > 0 else delay
