"""Computer players decide from their seat's view alone: hidden cards can never change a decision."""

from typing import Any

import pytest

from engine.garbage import GarbageGame, GarbageSettings
from engine.kasino import KasinoGame
from tests.ai.conftest import kind_strengths, make_player

STRENGTHS = ["easy", "medium", "hard"]  # the strengths every kind has
KIND_STRENGTHS = [(kind, strength) for kind in ("kasino", "garbage") for strength in kind_strengths(kind)]


def kasino_twins() -> tuple[KasinoGame, KasinoGame]:
    """Two positions that differ only in what seat 0 cannot see: seat 1's hand and the stock."""
    table: list[Any] = ["10♣", "7♣", {"build": "4♦ 5♠", "owner": 1}, "3♥"]
    mine = "5♥ 2♠ 9♦ A♣"
    first = KasinoGame.from_position([mine, "K♣ 9♠ 6♦ Q♥"], table, stock="8♠ 8♥ 2♦ 3♣ J♠ J♥ 4♣ 4♥")
    second = KasinoGame.from_position([mine, "9♥ 10♦ A♠ 6♠"], table, stock="Q♦ K♦ J♦ 2♥ 3♠ 8♦ 4♠ 6♣")
    return first, second


def garbage_twins(jack: bool) -> tuple[GarbageGame, GarbageGame]:
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


@pytest.mark.parametrize("strength", kind_strengths("kasino"))
def test_kasino_decision_depends_only_on_the_view(strength: str) -> None:
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
def test_garbage_decision_depends_only_on_the_view(strength: str, jack: bool) -> None:
    first, second = garbage_twins(jack)
    assert first.view(0) == second.view(0)
    for seed in range(3):
        one = make_player("garbage", strength, seed).choose(first.view(0))
        two = make_player("garbage", strength, seed).choose(second.view(0))
        assert one == two
        assert one in first.legal_moves(0)


@pytest.mark.parametrize(("kind", "strength"), KIND_STRENGTHS)
def test_a_view_and_nothing_more_is_enough(kind: str, strength: str) -> None:
    """The view is the only argument: no game, no history."""
    game = KasinoGame.new(3, seed=11) if kind == "kasino" else GarbageGame.new(3, seed=11)
    for _ in range(6):
        seat = game.to_move
        assert seat is not None
        move = make_player(kind, strength, 1).choose(game.view(seat))
        assert move in game.legal_moves(seat)
        game.apply(seat, move)


@pytest.mark.parametrize(("kind", "strength"), KIND_STRENGTHS)
def test_refuses_a_view_without_legal_moves(kind: str, strength: str) -> None:
    game = KasinoGame.new(2, seed=3) if kind == "kasino" else GarbageGame.new(2, seed=3)
    assert game.to_move is not None
    waiting = 1 - game.to_move
    with pytest.raises(ValueError, match="not this seat's turn"):
        make_player(kind, strength).choose(game.view(waiting))


def hidden_twin(game: KasinoGame, seat: int) -> KasinoGame:
    """The same game with the hands of every other seat and the stock dealt differently (nothing public changes)."""
    position = game.position()
    hidden = [card for other, hand in enumerate(position["hands"]) if other != seat for card in hand.split()]
    hidden += position["stock"].split()
    hidden = hidden[::-1]  # another deal of the same unseen cards
    hands = []
    for other, hand in enumerate(position["hands"]):
        size = len(hand.split())
        hands.append(hand if other == seat else " ".join(hidden[:size]))
        if other != seat:
            del hidden[:size]
    return KasinoGame.from_position(**{**position, "hands": hands, "stock": " ".join(hidden)})


def played_until(players: int, seed: int, stock: int) -> tuple[KasinoGame, list[Any]]:
    """A game of medium players, with its public events, at the first turn with `stock` cards left in the stock."""
    game = KasinoGame.new(players, seed=seed)
    history: list[Any] = []
    while True:
        seat = game.to_move
        assert seat is not None
        if game.view(seat).public.stock == stock and len(game.view(seat).hand) == 4:
            break
        history.extend(game.apply(seat, make_player("kasino", "medium", seed).choose(game.view(seat), history)))
    return game, history


@pytest.mark.parametrize(("players", "stock"), [(2, 8), (2, 24), (4, 16)])
def test_kasino_expert_with_history_depends_only_on_what_the_seat_saw(players: int, stock: int) -> None:
    """With the public events too (expert's inference reads them): hidden cards dealt differently change nothing.

    Two players with 8 cards in the stock is the deal before the last, where expert tries every hand the
    opponent may hold; the others are sampled.
    """
    game, history = played_until(players, 4, stock)
    seat = game.to_move
    assert seat is not None
    twin = hidden_twin(game, seat)
    assert twin.view(seat) == game.view(seat)
    assert twin.position()["hands"] != game.position()["hands"]
    for seed in range(2):
        one = make_player("kasino", "expert", seed).choose(game.view(seat), history)
        two = make_player("kasino", "expert", seed).choose(twin.view(seat), history)
        assert one == two
        assert one in game.legal_moves(seat)
