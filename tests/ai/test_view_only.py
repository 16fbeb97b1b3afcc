"""Computer players decide from their seat's view alone: hidden cards can never change a decision."""

import pytest

from engine.garbage import GarbageGame, GarbageSettings
from engine.kasino import KasinoGame
from tests.ai.conftest import make_player

STRENGTHS = ["easy", "medium", "hard"]


def kasino_twins():
    """Two positions that differ only in what seat 0 cannot see: seat 1's hand and the stock."""
    table = ["10♣", "7♣", {"build": "4♦ 5♠", "owner": 1}, "3♥"]
    mine = "5♥ 2♠ 9♦ A♣"
    first = KasinoGame.from_position([mine, "K♣ 9♠ 6♦ Q♥"], table, stock="8♠ 8♥ 2♦ 3♣ J♠ J♥ 4♣ 4♥")
    second = KasinoGame.from_position([mine, "9♥ 10♦ A♠ 6♠"], table, stock="Q♦ K♦ J♦ 2♥ 3♠ 8♦ 4♠ 6♣")
    return first, second


def garbage_twins(jack):
    """Two positions that differ only in face-down cards and the stock order (nobody may see those)."""
    settings = GarbageSettings(start_size=5)
    face_up = [[1, 3], [2]]
    first = GarbageGame.from_position(
        ["A♠ 9♥ 3♦ 7♣ 2♣", "K♣ 2♥ Q♦ 4♠ 6♥"], face_up=face_up, stock="5♠ 8♣ 4♥", discard="4♦",
        pending="J♠" if jack else None, settings=settings)  # fmt: skip
    second = GarbageGame.from_position(
        ["A♠ 5♥ 3♦ 10♠ K♦", "9♣ 2♥ 8♦ 7♥ 3♠"], face_up=face_up, stock="Q♠ 6♣ 2♦", discard="4♦",
        pending="J♠" if jack else None, settings=settings)  # fmt: skip
    return first, second


@pytest.mark.parametrize("strength", STRENGTHS)
def test_kasino_decision_depends_only_on_the_view(strength):
    first, second = kasino_twins()
    assert first.view(0) == second.view(0)
    assert first.to_dict()["hands"][1] != second.to_dict()["hands"][1]
    for seed in range(3):
        one = make_player("kasino", strength, seed).choose(first.view(0))
        two = make_player("kasino", strength, seed).choose(second.view(0))
        assert one == two
        assert one in first.legal_moves(0)


@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize("jack", [False, True])
def test_garbage_decision_depends_only_on_the_view(strength, jack):
    first, second = garbage_twins(jack)
    assert first.view(0) == second.view(0)
    for seed in range(3):
        one = make_player("garbage", strength, seed).choose(first.view(0))
        two = make_player("garbage", strength, seed).choose(second.view(0))
        assert one == two
        assert one in first.legal_moves(0)


@pytest.mark.parametrize("kind", ["kasino", "garbage"])
@pytest.mark.parametrize("strength", STRENGTHS)
def test_a_view_and_nothing_more_is_enough(kind, strength):
    """The view is the only argument: no game, no history."""
    game = KasinoGame.new(3, seed=11) if kind == "kasino" else GarbageGame.new(3, seed=11)
    for _ in range(6):
        seat = game.to_move
        move = make_player(kind, strength, 1).choose(game.view(seat))
        assert move in game.legal_moves(seat)
        game.apply(seat, move)


@pytest.mark.parametrize("kind", ["kasino", "garbage"])
@pytest.mark.parametrize("strength", STRENGTHS)
def test_refuses_a_view_without_legal_moves(kind, strength):
    game = KasinoGame.new(2, seed=3) if kind == "kasino" else GarbageGame.new(2, seed=3)
    waiting = 1 - game.to_move
    with pytest.raises(ValueError, match="not this seat's turn"):
        make_player(kind, strength).choose(game.view(waiting))
