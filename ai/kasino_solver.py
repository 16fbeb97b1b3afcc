"""Exact play of a Kasino deal whose every card is known: the rest of the deal as a perfect-information game.

Minimax with alpha-beta pruning and a transposition table (bounds per position): the searching seat (with its
partner, in partnerships) maximises its utility and every other seat minimises it. With two players (or two
teams) that is exact; with more it is the *paranoid* reading (the others as one side against the seat), far
cheaper than max-n, where each seat maximises its own utility and nothing can be pruned: so a last deal is
solved from more cards in the same time. The utility of a
finished deal comes from `value`, which sees the final tallies (so the last take, K13, and most cards and spades,
K14, count exactly when the deal ends the round).

A solver may be given a budget of positions to visit. A deal with a big table can have dozens of moves per card,
so a few cards can hide millions of positions: past the budget the search stops (`OutOfNodesError`) and the caller
falls back to playouts. Counting positions, not seconds, keeps a decision the same on a loaded host.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from ai.kasino_position import Position, ordered
from engine.kasino.moves import CardMove

Value = Callable[[Position], tuple[float, ...]]  # a finished deal's utility for every seat
_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2


class OutOfNodesError(Exception):
    """The solver visited its budget of positions without finishing."""


class MinimaxSolver:
    """Minimax over a deal for `seat` against every other seat, with alpha-beta and a transposition table."""

    def __init__(self, seat: int, value: Value, allies: frozenset[int] = frozenset(), budget: float = math.inf) -> None:
        """`value(finished)[seat]` is what `seat` and its `allies` (a partner, KV5) maximise and the others minimise.

        `budget` is the most positions its searches may visit, all together.
        """
        self.seat = seat
        self.value = value
        self.maximisers = allies | {seat}
        self.table: dict[tuple[object, ...], tuple[int, float]] = {}
        self.nodes = 0
        self.budget = budget

    def search(self, position: Position, alpha: float, beta: float) -> float:
        """The minimax value of `position` if it lies within (alpha, beta); else a bound on the right side of it.

        Raises:
            OutOfNodesError: the search went past the solver's budget.
        """
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodesError
        if position.over:
            return self.value(position)[self.seat]
        key = position.key()
        stored = self.table.get(key)
        if stored is not None:
            flag, known = stored
            if flag == _EXACT:
                return known
            if flag == _LOWER and known >= beta:
                return known
            if flag == _UPPER and known <= alpha:
                return known
        start_alpha, start_beta = alpha, beta
        maximising = position.to_move in self.maximisers
        best = -1e18 if maximising else 1e18
        for move in ordered(position.moves()):
            score = self.search(position.play(move), alpha, beta)
            if maximising:
                if score > best:
                    best = score
                alpha = max(alpha, best)
            else:
                if score < best:
                    best = score
                beta = min(beta, best)
            if alpha >= beta:
                break
        if best <= start_alpha:
            self.table[key] = (_UPPER, best)
        elif best >= start_beta:
            self.table[key] = (_LOWER, best)
        else:
            self.table[key] = (_EXACT, best)
        return best

    def best(self, position: Position, moves: list[CardMove]) -> tuple[CardMove, float]:
        """The first of `moves` (in their order) with the highest exact value for the searching seat.

        Raises:
            OutOfNodesError: the search went past the solver's budget.
        """
        best_move, best_value = moves[0], self.search(position.play(moves[0]), -1e18, 1e18)
        for move in moves[1:]:
            score = self.search(position.play(move), best_value, 1e18)
            if score > best_value + 1e-9:
                best_move, best_value = move, self.search(position.play(move), -1e18, 1e18)
        return best_move, best_value


def minimax(position: Position, seat: int, value: Value) -> float:
    """Plain minimax without pruning or memory: the reference the solvers are tested against."""
    if position.over:
        return value(position)[seat]
    scores = [minimax(position.play(move), seat, value) for move in position.moves()]
    return max(scores) if position.to_move == seat else min(scores)
