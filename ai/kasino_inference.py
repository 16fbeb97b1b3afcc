"""What the opponents' choices this deal say about their hands, from public events only (K16).

The table is rebuilt event by event since the round started, so each opponent's every move of the current deal is
known with the table it was made on. A card that could have taken clearly more than the move took was probably
not in that hand (players seldom pass up a good capture), and a card still held now was held at every earlier
move of the deal. So each opponent gets a weight per hand value: how well holding a card of that value explains
its moves. A guess of the hidden cards is weighted by the product over the cards it deals to the opponents.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, Final

from ai.kasino_medium import BUILD_KEEP, best_takes
from ai.kasino_table_math import DEFAULT_SCORING, Scoring, item_points, stacked, table_after
from engine.cards import Card
from engine.kasino import events
from engine.kasino.moves import Build, CardMove, Double, Place, Raise, Take
from engine.kasino.table import TableItem, card_order, hand_value

SLACK: Final = 0.35  # points a take may exceed the move actually made before it counts as passed up
SHARPNESS: Final = 1.5  # how fast the weight falls with the points passed up
FLOOR: Final = 0.2  # the least weight one passed-up take gives: players do miss captures, or build instead
VALUES: Final = range(2, 17)  # every hand value (K2)

_CARD_PLAYS: Final = (events.CardPlaced, events.CardsTaken, events.BuildMade, events.BuildRaised, events.Doubled)

Weights = dict[int, float]  # hand value -> weight of holding a card of it


def _item_holding(table: Sequence[TableItem], card: Card) -> TableItem | None:
    return next((item for item in table if card in item.cards), None)


def _move_of(event: Any, table: Sequence[TableItem]) -> CardMove | None:
    """The move an event reports, naming items by their key cards on `table` (None: not a move or not placed)."""
    if isinstance(event, events.CardPlaced):
        return Place(event.card)
    if isinstance(event, events.CardsTaken):
        keys = {item.cards[0] for item in table if set(item.cards) & set(event.taken)}
        return Take(event.card, frozenset(keys))
    if isinstance(event, events.BuildMade | events.Doubled):
        target = event.onto[0] if isinstance(event, events.BuildMade) else event.target[0]
        item = _item_holding(table, target)
        if item is None:
            return None
        made = Build if isinstance(event, events.BuildMade) else Double
        return made(event.card, item.cards[0])
    if isinstance(event, events.BuildRaised):
        build = next((item for item in table if item.is_build and item.owner == event.previous_owner), None)
        return None if build is None else Raise(event.card, build.cards[0])
    return None


def deal_decisions(
    history: Sequence[Any], table_now: Sequence[TableItem] = ()
) -> list[tuple[int, tuple[TableItem, ...], CardMove]]:
    """Every move of the current deal as (seat, table before it, move), rebuilt from the public events.

    A game's history starts after its first round was dealt, so the first round's table is worked out from
    `table_now` (the table at the seat's turn): its cards and those taken, less the cards played since (the order of
    those first four loose cards is not known, and nothing here depends on it).
    """
    table = _first_table(history, table_now)
    decisions: list[tuple[int, tuple[TableItem, ...], CardMove]] = []
    for event in history:
        if isinstance(event, events.RoundStarted):
            table = tuple(TableItem.loose(card) for card in event.table)
            decisions = []
        elif isinstance(event, events.CardsDealt | events.RoundEnded):
            decisions = []
        else:
            move = _move_of(event, table)
            if move is None:
                continue
            seat: int = event.seat
            decisions.append((seat, table, move))
            table = tuple(table_after(seat, table, move)[0])
    return decisions


def _first_table(history: Sequence[Any], table_now: Sequence[TableItem]) -> tuple[TableItem, ...]:
    if any(isinstance(event, events.RoundStarted) for event in history):
        return ()  # set from the event itself
    cards = {card for item in table_now for card in item.cards}
    for event in history:
        if isinstance(event, events.CardsTaken):
            cards.update(event.taken)
    for event in history:
        if isinstance(event, _CARD_PLAYS):
            cards.discard(event.card)
    return tuple(TableItem.loose(card) for card in sorted(cards, key=card_order))


def _worth(seat: int, table: Sequence[TableItem], move: CardMove, scoring: Scoring = DEFAULT_SCORING) -> float:
    """Roughly the points a move made, counted as `best_takes` counts a take.

    A take: the table's cards it captured (and a sweep); a build: most of its cards; a place: nothing.
    """
    if isinstance(move, Take):
        sweep = scoring.sweep if len(move.targets) == len(table) else 0.0
        return sweep + sum(item_points(item, scoring) for item in table if item.cards[0] in move.targets)
    if isinstance(move, Build | Raise | Double):
        target = next((item for item in table if item.cards[0] == move.target), None)
        if target is not None:
            made = stacked(seat, target, move)
            if made.is_build:
                return BUILD_KEEP * item_points(made, scoring)
    return 0.0


def hand_weights(
    history: Sequence[Any],
    seats: Sequence[int],
    table_now: Sequence[TableItem] = (),
    scoring: Scoring = DEFAULT_SCORING,
) -> dict[int, Weights]:
    """For each seat in `seats`, the weight of each hand value given its moves this deal (1.0: no evidence)."""
    weights: dict[int, Weights] = {seat: dict.fromkeys(VALUES, 1.0) for seat in seats}
    for seat, table, move in deal_decisions(history, table_now):
        if seat not in weights:
            continue
        made = _worth(seat, table, move, scoring)
        for value, worth in best_takes(table, seat, scoring).items():
            passed = worth - made - SLACK
            if passed > 0 and value != hand_value(move.card):
                weights[seat][value] *= max(FLOOR, math.exp(-SHARPNESS * passed))
    return weights


def weighted_deal(
    pool: Sequence[Card],
    sizes: dict[int, int],
    weights: dict[int, Weights],
    required: dict[int, int],
    rng: random.Random,
) -> dict[int, list[Card]]:
    """Deal `sizes[seat]` cards of `pool` to each seat, a card's chance of going to a seat following its weight there.

    Weighted sampling without replacement (each card's key is `u ** (1 / weight)`, the highest keys are dealt), so
    every guess counts the same and none is wasted on hands the moves rule out. A seat in `required` first gets a
    card of that hand value (it owns a build: K7), when the pool has one.
    """
    left = list(pool)
    dealt: dict[int, list[Card]] = {}
    for seat, size in sizes.items():
        seat_weights = weights.get(seat)
        hand: list[Card] = []
        value = required.get(seat)
        if value is not None and size:
            matching = [card for card in left if hand_value(card) == value]
            if matching:
                hand.append(matching[rng.randrange(len(matching))])
                left.remove(hand[0])
        keyed = []
        for card in left:
            weight = seat_weights[hand_value(card)] if seat_weights is not None else 1.0
            keyed.append((rng.random() ** (1.0 / weight), card))
        keyed.sort(key=lambda pair: -pair[0])
        hand += [card for _, card in keyed[: size - len(hand)]]
        taken = set(hand)
        left = [card for card in left if card not in taken]
        dealt[seat] = hand
    return dealt


def guess_weight(hands: Sequence[Sequence[Card]], weights: dict[int, Weights]) -> float:
    """The weight of one guess of the opponents' hands: the product of its cards' weights."""
    total = 1.0
    for seat, seat_weights in weights.items():
        for card in hands[seat]:
            total *= seat_weights[hand_value(card)]
    return total
