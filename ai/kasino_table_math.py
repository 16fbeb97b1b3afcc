"""Kasino arithmetic shared by the computer players: what cards are worth, and the table after a move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card
from engine.kasino.moves import Build, CardMove, Double, Place, Raise, Take
from engine.kasino.table import BUILD, PILE, TableItem, table_value

# K14 in expected points per captured card: aces and casinos score outright; "most cards" (1 point) and
# "most spades" (2 points) are shared out over the cards that decide them, so each card or spade is worth
# a fraction of a point.
CARD_POINTS: Final = 0.09
SPADE_POINTS: Final = 0.17
SWEEP_POINTS: Final = 1.0
_SPECIAL: Final = {Card(1, "♠"): 1.0, Card(1, "♥"): 1.0, Card(1, "♦"): 1.0, Card(1, "♣"): 1.0,
                   Card(2, "♠"): 1.0, Card(10, "♦"): 2.0}  # fmt: skip


def card_points(card: Card) -> float:
    """The expected K14 points one captured card brings."""
    worth = CARD_POINTS + _SPECIAL.get(card, 0.0)
    if card.suit == "♠":
        worth += SPADE_POINTS
    return worth


def cards_points(cards: Sequence[Card]) -> float:
    """`card_points` summed."""
    return sum(card_points(card) for card in cards)


def item_points(item: TableItem) -> float:
    """`card_points` of every card in a table item."""
    return cards_points(item.cards)


def table_after(seat: int, table: Sequence[TableItem], move: CardMove) -> tuple[list[TableItem], list[Card]]:
    """The table after `seat` plays a legal `move`, and the cards the move takes (the played card included)."""
    card = move.card
    if isinstance(move, Place):
        return [*table, TableItem.loose(card)], []
    if isinstance(move, Take):
        targets = move.targets
        kept: list[TableItem] = []
        taken = [card]
        for item in table:
            if item.cards[0] in targets:
                taken += item.cards
            else:
                kept.append(item)
        return kept, taken
    return [stacked(seat, item, move) if item.cards[0] == move.target else item for item in table], []


def stacked(seat: int, target: TableItem, move: Build | Raise | Double) -> TableItem:
    """K7-K10: the item `target` becomes when `move` puts its card on it."""
    card = move.card
    cards = (*target.cards, card)
    if isinstance(move, Build):
        return TableItem(BUILD, cards, table_value(card) + target.value, seat, (seat,))
    contributors = tuple(sorted({*target.contributors, seat}))
    if isinstance(move, Raise):
        return TableItem(BUILD, cards, table_value(card) + target.value, seat, contributors)
    if target.is_build:
        return TableItem(BUILD, cards, target.value, seat, contributors, doubled=True)
    return TableItem(PILE, cards, target.value)
