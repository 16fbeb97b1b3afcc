"""What start-up reads from a snapshot without restoring the game: the move count, under each kind's own key."""

import random

import pytest

from engine.kinds import GameKind
from engine.registry import GAME_KINDS


@pytest.mark.parametrize("kind", GAME_KINDS, ids=lambda kind: kind.name)
def test_the_snapshot_keeps_the_move_count_under_move_count_key(kind: GameKind) -> None:
    cls = kind.engine
    for seed in range(3):
        game = cls.new(kind.min_seats + seed % (kind.max_seats - kind.min_seats + 1), seed)
        rng = random.Random(seed)
        for _ in range(60):
            assert game.to_dict()[cls.MOVE_COUNT_KEY] == game.move_count
            if game.to_move is None:
                break
            game.apply(game.to_move, rng.choice(game.legal_moves(game.to_move)))
        assert game.move_count > 0
