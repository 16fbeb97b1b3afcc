"""Random legal play, for the benches and the tests: one loop instead of one per file."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.base import Game


def random_moves(
    game: Game[Any, Any, Any, Any, Any], rng: random.Random, most: int | None = None
) -> Iterator[tuple[int, Any, tuple[Any, ...]]]:
    """Play `rng`'s choice of the legal moves until the game ends (or `most` moves): yield (seat, move, events) each.

    The move is applied before it is yielded, so the game is already past it when the caller looks.
    """
    played = 0
    while (seat := game.to_move) is not None and (most is None or played < most):
        move = rng.choice(game.legal_moves(seat))
        yield seat, move, game.apply(seat, move)
        played += 1
