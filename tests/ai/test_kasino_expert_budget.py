"""Expert's solver works within a budget of positions per decision, so a crowded table cannot stall a game."""

import math
import random
from typing import Any

import pytest

import ai.kasino_expert as expert
from ai.kasino_expert import ExpertKasino
from ai.kasino_solver import MinimaxSolver, OutOfNodesError
from engine.kasino import KasinoGame
from tests.ai.test_kasino_solver import random_deal, value

CROWDED = ["A♣", "2♦", "3♣", "4♦", "5♣", "6♦", "A♥", "2♥", "3♥"]


def crowded_last_deal() -> KasinoGame:
    """Four players, the stock empty, seven cards in hands and nine small cards to combine: a big tree to solve."""
    game = KasinoGame.from_position(["5♥", "7♣ 9♦", "8♥ 10♣", "6♠ 9♠"], CROWDED, to_move=1, last_taker=2)
    assert game.view(1).public.stock == 0
    return game


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[MinimaxSolver]:
    """Every solver the expert makes, so a test can add up the positions a decision visited."""
    made: list[MinimaxSolver] = []

    class CountingSolver(MinimaxSolver):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(expert, "MinimaxSolver", CountingSolver)
    return made


def test_the_solver_stops_past_its_budget() -> None:
    position = random_deal(3, hand_size=3)
    moves = list(position.moves())
    with pytest.raises(OutOfNodesError):
        MinimaxSolver(0, value, budget=20).best(position, moves)
    unbounded = MinimaxSolver(0, value)
    _, exact = unbounded.best(position, moves)
    assert unbounded.nodes > 20
    assert MinimaxSolver(0, value, budget=unbounded.nodes).best(position, moves)[1] == pytest.approx(exact)


def test_a_decision_visits_at_most_its_budget_and_still_plays_a_legal_move(
    counted: list[MinimaxSolver], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = crowded_last_deal()
    view = game.view(1)
    monkeypatch.setattr(expert, "SOLVER_NODES", math.inf)
    free = ExpertKasino(seed=4).choose(view, [])
    needed = sum(solver.nodes for solver in counted)
    budget = needed // 3
    assert budget > 100  # the position really is big to solve
    counted.clear()
    monkeypatch.setattr(expert, "SOLVER_NODES", budget)
    moves = [ExpertKasino(seed=4).choose(view, []) for _ in range(2)]
    assert sum(solver.nodes for solver in counted) <= 2 * (budget + 1)  # each decision stops one past its budget
    assert moves[0] == moves[1]  # a budget of positions, not of time: the same decision every time
    assert moves[0] in view.legal_moves
    assert free in view.legal_moves


def test_a_decision_within_the_budget_is_the_unbounded_one(
    counted: list[MinimaxSolver], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = crowded_last_deal()
    view = game.view(1)
    bounded = ExpertKasino(seed=4).choose(view, [])
    assert sum(solver.nodes for solver in counted) <= expert.SOLVER_NODES
    monkeypatch.setattr(expert, "SOLVER_NODES", math.inf)
    assert ExpertKasino(seed=4).choose(view, []) == bounded


def test_two_players_with_every_card_known_fall_back_to_playouts_past_the_budget(
    counted: list[MinimaxSolver], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = KasinoGame.new(2, seed=5)
    rng = random.Random(5)
    history: list[Any] = []
    while True:
        assert game.to_move is not None
        if game.view(game.to_move).public.stock == 0 and len(game.view(game.to_move).hand) == 4:
            break
        history += game.apply(game.to_move, rng.choice(game.view(game.to_move).legal_moves))
    assert game.to_move is not None
    view = game.view(game.to_move)
    monkeypatch.setattr(expert, "SOLVER_NODES", 50)
    move = ExpertKasino(seed=2).choose(view, history)
    assert move in view.legal_moves
    assert [solver.nodes for solver in counted] == [51]  # one exact solve tried, stopped, and played out instead
    monkeypatch.setattr(expert, "SOLVER_NODES", math.inf)
    counted.clear()
    ExpertKasino(seed=2).choose(view, history)
    assert counted[0].nodes > 51


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_decision_makes_as_many_guesses_for_each_hidden_hand(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three hidden hands leave far more deals to judge a move over than one: the guesses grow with them."""
    guessed: list[int] = []
    real_guess = expert._Search._guess

    def counting_guess(self: Any, rng: random.Random) -> Any:
        guessed.append(1)
        return real_guess(self, rng)

    monkeypatch.setattr(expert._Search, "_guess", counting_guess)
    game = KasinoGame.new(players, seed=5)
    assert game.to_move is not None
    view = game.view(game.to_move)
    assert view.public.stock > 0 and len(view.legal_moves) > 1  # a sampled decision, not an exact one
    ExpertKasino(seed=1, samples=10, max_samples=10).choose(view, [])
    assert len(guessed) == 10 * (players - 1)
