"""Medium Kasino: one-move greedy play that weighs what a move takes against what it leaves.

A move scores the K14 points it takes (cards, spades, aces, casinos, a sweep), plus most of the value of a
build it can take later, minus the points the next players could take from the table it leaves, weighted
by the chance they hold the card for it (counted from the cards this seat has not seen).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from ai.base import SeededPlayer, Strength, decision_rng, require_moves
from ai.kasino_knowledge import KasinoKnowledge, knowledge_from
from ai.kasino_table_math import SWEEP_POINTS, cards_points, item_points, table_after
from engine.cards import Card
from engine.kasino.moves import CardMove, KasinoMove, Take
from engine.kasino.rules import legal_moves
from engine.kasino.table import TableItem, hand_value
from engine.kasino.views import KasinoView

BUILD_KEEP: Final = 0.85  # share of an own build's points counted now: it is taken next turn unless stolen
STRANDED: Final = 0.6  # share of an own build's points lost when the move spends its only capturing card
RISK_WEIGHTS: Final = (1.0, 0.45, 0.2)  # the next seat sees the table as left; later seats, after changes
# One card for each hand value (K2): 2-13 by rank, 14 an Ace, 15 the 2♠, 16 the 10♦.
_PROBES: Final = (
    *(Card(rank, "♥") for rank in range(2, 14)),
    Card(1, "♥"),
    Card(2, "♠"),
    Card(10, "♦"),
)


def best_takes(table: Sequence[TableItem], seat: int) -> dict[int, float]:
    """For each hand value, the most points a card of that value could take from `table` (sweeps included)."""
    best: dict[int, float] = {}
    count = len(table)
    for move in legal_moves(seat, _PROBES, table):
        if isinstance(move, Take):
            value = hand_value(move.card)
            worth = sum(item_points(item) for item in table if item.cards[0] in move.targets)
            if len(move.targets) == count:
                worth += SWEEP_POINTS
            if worth > best.get(value, 0.0):
                best[value] = worth
    return best


def expected_loss(know: KasinoKnowledge, table: Sequence[TableItem], seat: int) -> float:
    """Roughly the points `seat` takes from `table` on its turn: the best take it probably holds the card for."""
    if not table:
        return 0.0
    loss = 0.0
    missing = 1.0  # chance that no better take is open to them
    for value, worth in sorted(best_takes(table, seat).items(), key=lambda pair: -pair[1]):
        chance = know.holder_chance(seat, value)
        loss += missing * chance * worth
        missing *= 1.0 - chance
    return loss


def round_ends_after(know: KasinoKnowledge) -> bool:
    """True when the seat's next card is the last play of the round (K12, K13)."""
    return know.last_deal and sum(know.hand_sizes) == 1


def score_move(know: KasinoKnowledge, move: CardMove) -> float:
    """Medium's estimate of the points `move` is worth to the seat (higher is better)."""
    seat = know.seat
    table, taken = table_after(seat, know.table, move)
    gain = cards_points(taken)
    last = round_ends_after(know)
    if isinstance(move, Take) and not table and not last:
        gain += SWEEP_POINTS  # K12
    if last:
        return gain  # K13: the last taker gets the rest; nobody plays after this card
    rest = [hand_value(card) for card in know.hand if card != move.card]
    for item in table:
        if item.is_build and item.owner == seat:
            if item.value in rest:
                gain += BUILD_KEEP * item_points(item)
            else:
                gain -= STRANDED * item_points(item)
    risk = 0.0
    for weight, other in zip(RISK_WEIGHTS, know.opponents(), strict=False):
        if not know.resigned[other]:
            risk += weight * expected_loss(know, table, other)
    return gain - risk


class MediumKasino(SeededPlayer):
    """Greedy with sound heuristics: see the module docstring. Its seed breaks exact ties between equal scores."""

    kind: ClassVar[str] = "kasino"
    strength: ClassVar[Strength] = Strength.MEDIUM

    def choose(self, view: KasinoView, history: Sequence[Any] = ()) -> KasinoMove:
        """The legal move with the best `score_move`.

        Raises:
            ValueError: the view lists no legal move.
        """
        _, scored = ranked_choices(view, history)
        top = [move for score, move in scored if score >= scored[0][0] - 1e-9]
        return top[0] if len(top) == 1 else decision_rng(self.seed, view).choice(top)


def ranked_choices(view: KasinoView, history: Sequence[Any]) -> tuple[KasinoKnowledge, list[tuple[float, CardMove]]]:
    """What the seat knows, and its legal moves with their `score_move`, best first (where the searches start).

    Raises:
        ValueError: the view lists no legal move.
    """
    legal = view.legal_moves
    require_moves(legal)
    know = knowledge_from(view, history)
    return know, ranked_moves(know, legal)


class RankedSearch:
    """A player that searches medium's ranked moves: `choose` hands every decision with a choice to `search`."""

    def choose(self, view: KasinoView, history: Sequence[Any] = ()) -> KasinoMove:
        """The only legal move, or the one `search` picks from medium's ranking.

        Raises:
            ValueError: the view lists no legal move.
        """
        know, ranked = ranked_choices(view, history)
        if len(ranked) == 1:
            return ranked[0][1]
        return self.search(know, view, history, ranked)

    def search(self, know: KasinoKnowledge, view: KasinoView, history: Sequence[Any],
               ranked: list[tuple[float, CardMove]]) -> CardMove:  # fmt: skip
        """The move to play among `ranked` (medium's scores and moves, best first, at least two)."""
        raise NotImplementedError


def ranked_moves(know: KasinoKnowledge, legal: Sequence[KasinoMove]) -> list[tuple[float, CardMove]]:
    """Every card move with its `score_move`, best first (stable for equal scores)."""
    scored = [(score_move(know, move), move) for move in legal if isinstance(move, CardMove)]
    scored.sort(key=lambda pair: -pair[0])
    return scored
