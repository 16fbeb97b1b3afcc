"""Turn timers' rules: when the player to move is warned, and which games' timers are due.

The warning lead lives here, beside the deadline the service sets, because the store keeps the warning time with
the deadline (`timer_at`): the timer loop then asks the database only for the games due now.
"""

from __future__ import annotations

from datetime import datetime, timedelta


def warning_lead(turn_seconds: int) -> int:
    """How long before the deadline the player is warned: a quarter of the turn, 10 s to 1 h."""
    return max(10, min(turn_seconds // 4, 3600))


def warning_time(deadline: datetime | None, turn_seconds: int | None) -> datetime | None:
    """When to warn the player whose turn ends at `deadline` (None without a timer)."""
    if deadline is None or turn_seconds is None:
        return None
    return deadline - timedelta(seconds=warning_lead(turn_seconds))
