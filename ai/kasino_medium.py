"""Medium Kasino: one-move greedy play that weighs what a move takes against what it leaves.

A move scores the K14 points it takes (cards, spades, aces, casinos, a sweep), plus most of the value of a
build it can take later, minus the points the next players could take from the table it leaves, weighted
by the chance they hold the card for it (counted from the cards this seat has not seen). Points are counted by
the game's own table and house rules (`Scoring`); in partnerships (KV5) a partner's build left on the table counts
for the team as an own build does, and only the opponents' takes are a risk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from ai.base import SeededPlayer, Strength, decision_rng, require_moves
from ai.kasino_knowledge import KasinoKnowledge, knowledge_from
from ai.kasino_table_math import DEFAULT_SCORING, Scoring, cards_points, item_points, table_after
from engine.cards import Card
from engine.kasino.moves import CardMove, KasinoMove, Take
from engine.kasino.rules import legal_moves
from engine.kasino.table import TableItem, hand_value
from engine.kasino.views import KasinoView

BUILD_KEEP: Final = 0.85  # share of an own build's points counted now: it is taken next turn unless stolen
STRANDED: Final = 0.6  # share of an own build's points lost when the move spends its only capturing card
RISK_WEIGHTS: Final = (1.0, 0.45, 0.2)  # the next seat sees the table as left; later seats, after changes
SPARE_CARD: Final = 0.3  # taking a partner's build spends a card the team did not need to spend (KV5)
# One card for each hand value (K2): 2-13 by rank, 14 an Ace, 15 the 2♠, 16 the 10♦.
_PROBES: Final = (
    *(Card(rank, "♥") for rank in range(2, 14)),
    Card(1, "♥"),
    Card(2, "♠"),
    Card(10, "♦"),
)


def best_takes(table: Sequence[TableItem], seat: int, scoring: Scoring = DEFAULT_SCORING) -> dict[int, float]:
    """For each hand value, the most points a card of that value could take from `table` (sweeps included).

    Any seat may take any item (K6), so this is the same for every seat.
    """
    best: dict[int, float] = {}
    count = len(table)
    items = [(item.cards[0], item_points(item, scoring)) for item in table]  # a crowded table has hundreds of takes
    for move in legal_moves(seat, _PROBES, table, building=False):  # only its takes are wanted
        if isinstance(move, Take):
            value = hand_value(move.card)
            worth = sum(points for key, points in items if key in move.targets)
            if len(move.targets) == count:
                worth += scoring.sweep
            if worth > best.get(value, 0.0):
                best[value] = worth
    return best


def expected_loss(know: KasinoKnowledge, takes: Sequence[tuple[int, float]], seat: int) -> float:
    """Roughly the points `seat` takes on its turn: the best take it probably holds the card for.

    `takes` is the table's `best_takes`, as (hand value, points) pairs, most points first.
    """
    loss = 0.0
    missing = 1.0  # chance that no better take is open to them
    for value, worth in takes:
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
    scoring = know.scoring
    table, taken = table_after(seat, know.table, move)
    gain = cards_points(taken, scoring)
    last = round_ends_after(know)
    if isinstance(move, Take) and not table and not last:
        gain += scoring.sweep_in(know.last_deal)  # K12, KV2
    if last:
        return gain  # K13: the last taker gets the rest; nobody plays after this card
    rest = [hand_value(card) for card in know.hand if card != move.card]
    partner = know.partner()
    for item in table:
        if item.is_build and item.owner == seat:
            if item.value in rest:
                gain += BUILD_KEEP * item_points(item, scoring)
            else:
                gain -= STRANDED * item_points(item, scoring)
        elif item.is_build and item.owner == partner:  # KV5: the partner kept a card that takes it (K7)
            gain += BUILD_KEEP * item_points(item, scoring)
    if takes_partners_build(know, move):
        gain -= SPARE_CARD
    takes = sorted(best_takes(table, seat, scoring).items(), key=lambda pair: -pair[1]) if table else []
    risk = 0.0
    for weight, other in zip(RISK_WEIGHTS, know.opponents(), strict=False):
        if not know.resigned[other] and other != partner:
            risk += weight * expected_loss(know, takes, other)
    return gain - risk


def _takes_build_of(table: Sequence[TableItem], move: Take, owner: int) -> bool:
    """Whether `move` takes a build `owner` owns."""
    return any(item.is_build and item.owner == owner and item.cards[0] in move.targets for item in table)


def takes_partners_build(know: KasinoKnowledge, move: CardMove) -> bool:
    """In partnerships (KV5): whether `move` takes a build the seat's partner owns (and holds the card for, K7)."""
    partner = know.partner()
    return partner is not None and isinstance(move, Take) and _takes_build_of(know.table, move, partner)


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
