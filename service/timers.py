"""Turn timers' rules: when the player to move is warned, and which games' timers are due.

The warning lead lives here, beside the deadline the service sets, because the store keeps the warning time with
the deadline (one `db.records.TurnClock`, stored with `timer_at`): the timer loop then asks the database only for
the games due now.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from db.records import TurnClock


def warning_lead(turn_seconds: int) -> int:
    """How long before the deadline the player is warned: a quarter of the turn, 10 s to 1 h."""
    return max(10, min(turn_seconds // 4, 3600))


def turn_timer(deadline: datetime | None, turn_seconds: int | None, *, warned: bool = False) -> TurnClock:
    """The timer of a turn that runs out at `deadline` (None: no timer), with its warning time."""
    return TurnClock(deadline, warning_time(deadline, turn_seconds), warned)


def warning_time(deadline: datetime | None, turn_seconds: int | None) -> datetime | None:
    """When to warn the player whose turn ends at `deadline` (None without a timer)."""
    if deadline is None or turn_seconds is None:
        return None
    return deadline - timedelta(seconds=warning_lead(turn_seconds))
