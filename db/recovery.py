"""Start-up check of a running game: its snapshot must equal the replay of its move log (B1).

The move log is the record of what players did; the snapshot is a cache of its result. When they disagree (a
snapshot that cannot be read, or one that differs), the replay wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from db.records import MoveRecord
from engine.base import AnyGame
from engine.registry import game_class


@dataclass(frozen=True, slots=True)
class SnapshotCheck:
    """The verdict on one snapshot: `problem` is None when it matches, else why `state` must replace it."""

    problem: str | None
    state: dict[str, Any]


def replay(kind: str, players: int, seed: int, settings: dict[str, Any], moves: Sequence[MoveRecord]) -> AnyGame:
    """Rebuild a game from its seed, settings and move log.

    Raises:
        engine.errors.GameError: a logged move is not legal in the replayed position.
    """
    cls = game_class(kind)
    return cls.replay(players, seed, cls.settings_from_dict(settings), [(move.seat, move.move) for move in moves])


def check_snapshot(replayed: AnyGame, snapshot: dict[str, Any] | None) -> SnapshotCheck:
    """Compare a stored snapshot (None: missing or not JSON) with the replayed game."""
    truth = replayed.to_dict()
    if snapshot is None:
        return SnapshotCheck("the snapshot is missing or is not JSON", truth)
    try:
        stored = type(replayed).from_dict(snapshot)
    except Exception as error:  # any failure to read the snapshot means the replay must win
        return SnapshotCheck(f"the snapshot cannot be read ({type(error).__name__}: {error})", truth)
    if stored != replayed:
        return SnapshotCheck("the snapshot differs from the replay of the move log", truth)
    return SnapshotCheck(None, truth)
