"""A referee for computer players: it owns the game and hands each seat only its view and the public events.

Used by the tests and `bench/bench_ai.py`. Players never touch the game: the referee asks
`game.view(seat)`, passes it with the events so far, and applies the returned move (which the engine checks).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.base import Player
from engine.base import Outcome
from engine.registry import game_class

MAX_MOVES = 20_000  # far beyond any real game; a guard against a loop, not a rule


@dataclass(slots=True)
class MatchResult:
    """How a game went: its outcome, and the seconds each seat spent on each decision."""

    outcome: Outcome
    moves: int
    seconds: list[list[float]] = field(default_factory=list)


def play_game(
    kind: str,
    players: Sequence[Player[Any, Any]],
    seed: int,
    settings: Any = None,
    on_move: Callable[[Any, int, Any], None] | None = None,
) -> MatchResult:
    """Play one game of `kind` between `players` (one per seat) from `seed`, to its end.

    `on_move(game, seat, move)` is called before each move is applied (tests use it to check legality).

    Raises:
        GameError: a player chose a move the engine refuses.
        RuntimeError: the game did not end within `MAX_MOVES` moves.
    """
    game = game_class(kind).new(len(players), seed, settings)
    history: list[Any] = []
    seconds: list[list[float]] = [[] for _ in players]
    moves = 0
    while (seat := game.to_move) is not None:
        if moves >= MAX_MOVES:
            raise RuntimeError(f"{kind} game {seed} did not end within {MAX_MOVES} moves")
        view = game.view(seat)
        start = time.perf_counter()
        move = players[seat].choose(view, history)
        seconds[seat].append(time.perf_counter() - start)
        if on_move is not None:
            on_move(game, seat, move)
        history.extend(game.apply(seat, move))
        moves += 1
    outcome = game.outcome()
    assert outcome is not None
    return MatchResult(outcome, moves, seconds)
