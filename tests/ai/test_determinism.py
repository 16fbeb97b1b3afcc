"""Same view and seed, same move; whole matches replay identically from their seeds."""

from collections.abc import Callable
from typing import Any

import pytest

from ai.arena import play_game
from engine.garbage import GarbageGame
from engine.kasino import KasinoGame
from engine.kasino.scoring import KasinoSettings
from tests.ai.conftest import kind_strengths, make_player

KIND_STRENGTHS = [(kind, strength) for kind in ("kasino", "garbage") for strength in kind_strengths(kind)]


@pytest.mark.parametrize(("kind", "strength"), KIND_STRENGTHS)
def test_same_view_and_seed_give_the_same_move(kind: str, strength: str) -> None:
    game = KasinoGame.new(2, seed=5) if kind == "kasino" else GarbageGame.new(2, seed=5)
    for _ in range(8):
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        player = make_player(kind, strength, seed=9)
        first = player.choose(view)
        assert player.choose(view) == first  # asking twice changes nothing
        assert make_player(kind, strength, seed=9).choose(view) == first
        game.apply(seat, first)


@pytest.mark.parametrize("strength", kind_strengths("kasino"))
def test_a_seeded_match_replays_move_for_move(strength: str) -> None:
    def record(log: list[tuple[int, str]]) -> Callable[[Any, int, Any], None]:
        return lambda game, seat, move: log.append((seat, str(move)))

    logs: list[list[tuple[int, str]]] = [[], []]
    for log in logs:
        players = [make_player("kasino", strength, seed) for seed in (1, 2)]
        play_game("kasino", players, 4, KasinoSettings(target=6), record(log))
    assert logs[0] == logs[1]
    # Only the moves are recorded, and they rebuild the game (B1).
    replayed = KasinoGame.replay(2, 4, KasinoSettings(target=6), logs[0])
    assert replayed.outcome() is not None
