"""The public view counts the cards played in the current round (K1, K3, K5), which a turn's panel is numbered by."""

import random

import pytest

from engine.kasino import KasinoGame, KasinoSettings
from engine.kasino.events import RoundStarted


@pytest.mark.parametrize("players", [2, 3, 4])
def test_k1_k3_k5_played_counts_the_moves_since_the_round_began(players: int) -> None:
    game = KasinoGame.new(players, seed=players, settings=KasinoSettings(target=16))
    rng = random.Random(players)
    since_round_began, rounds = 0, 1
    while not game.is_over():
        assert game.public_view().played == since_round_began
        seat = game.to_move
        assert seat is not None
        events = game.apply(seat, rng.choice(game.legal_moves(seat)))
        since_round_began += 1
        if any(isinstance(event, RoundStarted) for event in events):
            since_round_began, rounds = 0, rounds + 1
    assert rounds >= 2, "the game should cross a round, to check the count starts again"
