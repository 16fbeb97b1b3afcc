"""Decisions do not depend on the clock: a loaded host (a slow clock) gets the same move as an idle one."""

import itertools
import time
from typing import Any

import pytest

from ai.players import player_for
from engine.base import AnyGame
from engine.garbage import GarbageGame
from engine.kasino import KasinoGame

# (kind, strength, seconds the slowed clock moves on at each reading): a sample really takes about a millisecond,
# and the clock is read about once a sample, so a whole budget stays within the safety cap (`SAFETY_SECONDS`).
SEARCHERS = [("kasino", "hard", 0.15), ("garbage", "hard", 0.07), ("kasino", "expert", 0.045)]


def positions(kind: str) -> list[Any]:
    """A few positions from a seeded game, with the views of the seat to move."""
    game: AnyGame = KasinoGame.new(2, seed=21) if kind == "kasino" else GarbageGame.new(2, seed=21)
    views = []
    for _ in range(12):
        seat = game.to_move
        assert seat is not None
        views.append(game.view(seat))
        game.apply(seat, game.legal_moves(seat)[-1])
    return views


@pytest.mark.parametrize(("kind", "strength", "step"), SEARCHERS)
def test_a_slowed_clock_gives_the_same_moves(
    kind: str, strength: str, step: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = positions(kind)
    normal = [player_for(kind, strength, seed=3).choose(view) for view in views]
    readings = itertools.count()

    def slow_clock() -> float:
        return 1000.0 + step * next(readings)

    monkeypatch.setattr(time, "perf_counter", slow_clock)
    slowed = [player_for(kind, strength, seed=3).choose(view) for view in views]
    assert next(readings) > len(views)  # the players did read the slowed clock
    assert slowed == normal
