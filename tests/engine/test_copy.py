"""`copy()`: an independent game in the same state, for the service's cache of live engines."""

import random

import pytest

from engine.base import AnyGame
from engine.kinds import GameKind
from engine.registry import GAME_KINDS


def playout(game: AnyGame, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.to_move is None:
            return
        game.apply(game.to_move, rng.choice(game.legal_moves(game.to_move)))


@pytest.mark.parametrize("kind", GAME_KINDS, ids=lambda kind: kind.name)
@pytest.mark.parametrize("seed", range(6))
def test_a_copy_is_equal_and_playing_either_never_changes_the_other(kind: GameKind, seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(kind.min_seats, kind.max_seats)
    game = kind.engine.new(players, seed)
    for _ in range(8):
        playout(game, rng, rng.randint(0, 40))
        copy = game.copy()
        assert type(copy) is type(game) and copy == game and copy is not game
        before = game.to_dict()
        playout(copy, random.Random(seed + 100), 30)  # the copy goes its own way, through rounds and reshuffles
        assert game.to_dict() == before
        copy = game.copy()
        playout(game, random.Random(seed + 200), 5)
        assert copy.to_dict() == before
        if game.to_move is None:
            break


def test_a_mutable_value_the_copy_does_not_know_is_refused() -> None:
    game = GAME_KINDS[0].engine.new(2, 1)
    game.__dict__["_notes"] = {"a": 1}
    with pytest.raises(TypeError, match="cannot copy _notes: a dict"):
        game.copy()
