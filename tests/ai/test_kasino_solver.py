"""Expert's exact endgame: the solvers against brute force, and its deal positions scored as the engine scores."""

import random
from collections.abc import Sequence
from typing import Any

import pytest

from ai.kasino_outcome import GameContext, round_points
from ai.kasino_position import Position
from ai.kasino_solver import MinimaxSolver, minimax
from engine.cards import Card, new_deck
from engine.kasino import KasinoGame
from engine.kasino.events import RoundEnded
from engine.kasino.moves import KasinoMove
from engine.kasino.table import TableItem

CONTEXT = GameContext(totals=(10, 12), target=16)


def value(position: Position) -> tuple[float, ...]:
    points = round_points(position.tallies, position.ends_round)
    return tuple(CONTEXT.utility(points, seat, position.ends_round) for seat in range(len(points)))


def random_deal(seed: int, players: int = 2, hand_size: int = 2, table_size: int = 3) -> Position:
    """A last deal (the stock is empty) with small random hands and a table of loose cards."""
    deck = list(new_deck())
    rng = random.Random(seed)
    rng.shuffle(deck)
    hands = tuple(tuple(deck[seat * hand_size : (seat + 1) * hand_size]) for seat in range(players))
    table = tuple(TableItem.loose(card) for card in deck[players * hand_size : players * hand_size + table_size])
    tallies = tuple((20, 5, 2, 0) if seat == 0 else (22, 6, 3, 1) for seat in range(players))
    return Position(hands, table, 0, tallies, 1, True, (False,) * players)


@pytest.mark.parametrize("seed", range(12))
def test_two_player_solver_matches_brute_force(seed: int) -> None:
    position = random_deal(seed, hand_size=2 + seed % 2)
    moves = list(position.moves())
    solver = MinimaxSolver(0, value)
    move, best = solver.best(position, moves)
    brute = [minimax(position.play(candidate), 0, value) for candidate in moves]
    assert best == pytest.approx(max(brute))
    assert brute[moves.index(move)] == pytest.approx(max(brute))


@pytest.mark.parametrize("seed", range(6))
def test_minimax_solver_matches_brute_force_paranoid_play_with_three_players(seed: int) -> None:
    global CONTEXT
    saved, CONTEXT = CONTEXT, GameContext(totals=(3, 5, 4), target=16)
    try:
        position = random_deal(seed, players=3, hand_size=1 + seed % 2)
        moves = list(position.moves())
        solver = MinimaxSolver(0, value)
        scores = [solver.search(position.play(move), -1e18, 1e18) for move in moves]
        brute = [minimax(position.play(move), 0, value) for move in moves]
        assert scores == pytest.approx(brute)
    finally:
        CONTEXT = saved


def test_k12_k13_k14_deal_positions_score_rounds_as_the_engine_does() -> None:
    """Playing a whole round in `Position` and in the engine gives the same K14 points (sweeps K12, last take K13)."""
    for seed in range(8):
        game = KasinoGame.new(2, seed=seed)
        rng = random.Random(seed)
        while True:
            assert game.to_move is not None
            view = game.view(game.to_move)
            if view.public.stock == 0 and all(len(hand.split()) == 4 for hand in game.position()["hands"]):
                break
            game.apply(game.to_move, rng.choice(view.legal_moves))
        state = game.position()
        seats = game.public_view().seats
        tallies = []
        for summary, pile in zip(seats, state["captured"], strict=True):
            taken = [card for card in new_deck() if str(card) in pile.split()]
            spades = sum(card.suit == "♠" for card in taken)
            casinos = (Card.parse("2♠") in taken) + 2 * (Card.parse("10♦") in taken)
            special = sum(card.rank == 1 for card in taken) + casinos
            tallies.append((summary.captured, spades, special, summary.sweeps))
        hands = tuple(tuple(game.view(seat).hand) for seat in range(2))
        assert game.to_move is not None
        position = Position(hands, game.public_view().table, game.to_move, tuple(tallies),
                            state["last_taker"], True, (False, False))  # fmt: skip
        events: Sequence[Any] = []
        while not position.over:
            move = rng.choice(position.moves())
            position = position.play(move)
            events = game.apply(game.to_move, move)
        ended = next(event for event in events if isinstance(event, RoundEnded))
        assert round_points(position.tallies, True) == [score.round_total for score in ended.scores]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def test_k13_the_solver_plays_for_the_last_take() -> None:
    """Taking the 3♦ now leaves seat 1's 8♠ nothing to take, so seat 0 keeps the last take and the 10♦ (K13)."""
    table = tuple(TableItem.loose(card) for card in cards("3♦ 10♦ 5♥"))
    position = Position((cards("3♥ 9♣"), cards("8♠")), table, 0, ((24, 6, 2, 0), (24, 6, 2, 0)), None, True,
                        (False, False))  # fmt: skip
    move, _ = MinimaxSolver(0, value).best(position, list(position.moves()))
    assert move == KasinoMove.parse("3♥ take 3♦")
    final = position.play(move)
    while not final.over:
        final = final.play(MinimaxSolver(final.to_move, value).best(final, list(final.moves()))[0])
    assert final.last_taker == 0
    assert final.tallies[0][2] == 2 + 2  # the 10♦ came with the last take
