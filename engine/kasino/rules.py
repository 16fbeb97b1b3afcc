"""Which Kasino moves are legal (K6-K11), and in words why one is not (B3).

Both work on a plain position: the seat to play, its hand, and the table items. Takes are found
with bitmasks in `engine.kasino.takes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card, format_cards
from engine.kasino.moves import Build, CardMove, Double, KasinoMove, Place, Raise, Take, listed_take
from engine.kasino.table import BUILD, HIGHEST_HAND_VALUE, TableItem, card_order, hand_value, table_value
from engine.kasino.takes import TakeSpec, cards_of, lowest_bit, split_into_groups, sum_groups, take_specs

_VALUE_SLOTS: Final = 32  # hand-value counters indexed by value; a new build value never exceeds 16 + 13


def legal_moves(seat: int, hand: Sequence[Card], table: Sequence[TableItem]) -> tuple[CardMove, ...]:
    """Every distinct legal move for `seat`: per hand card, takes, builds, raises, doubles, then the place.

    Items are named and listed in table order. Takes stop at `takes.MAX_TAKES` per hand
    value on absurdly crowded tables.
    """
    keys = [item.cards[0] for item in table]
    loose: list[tuple[int, int]] = []  # (bit index, value)
    loose_by_value: dict[int, list[Card]] = {}
    builds: list[tuple[int, TableItem]] = []
    owns_build = False
    for index, item in enumerate(table):
        if item.kind == BUILD:
            builds.append((index, item))
            owns_build = owns_build or item.owner == seat
        else:
            loose.append((index, item.value))
            loose_by_value.setdefault(item.value, []).append(keys[index])
    values = [hand_value(card) for card in hand]
    holding = [0] * _VALUE_SLOTS
    for value in values:
        holding[value] += 1
    groups_by_sum = sum_groups(loose, set(values)) if loose else {}
    build_values = {item.value for _, item in builds}  # a hand value with neither groups nor builds takes nothing
    takes_by_value: dict[int, list[TakeSpec]] = {}
    moves: list[CardMove] = []
    append = moves.append
    for card, value in zip(hand, values, strict=True):
        holding[value] -= 1  # from here on: what the player still holds after playing `card`
        if value in groups_by_sum or value in build_values:
            takes = takes_by_value.get(value)
            if takes is None:
                build_bits = [1 << index for index, item in builds if item.value == value]
                takes = takes_by_value[value] = take_specs(groups_by_sum.get(value, ()), build_bits, keys)
            for taken, groups in takes:
                append(listed_take(card, taken, groups))
        worth = card.rank  # the table value (K2)
        if not owns_build:
            for target_value, targets in loose_by_value.items():
                if holding[worth + target_value]:
                    for key in targets:
                        append(Build(card, key))
            for _, item in builds:
                if not item.doubled and seat not in item.contributors and holding[worth + item.value]:
                    append(Raise(card, item.cards[0]))
        for key in loose_by_value.get(worth, ()):
            append(Double(card, key))
        if holding[worth]:
            for _, item in builds:
                if item.value == worth and (not owns_build or item.owner == seat):
                    append(Double(card, item.cards[0]))
        append(Place(card))
        holding[value] += 1
    return tuple(moves)


def canonical_take(card: Card, items: Sequence[TableItem]) -> Take | None:
    """The take of exactly `items` (in table order) with `card`, its groups worked out; None if K6 forbids it."""
    value = hand_value(card)
    if not items or any(item.is_build and item.value != value for item in items):
        return None
    keys = [item.cards[0] for item in items]
    loose = [index for index, item in enumerate(items) if not item.is_build]
    split = [1 << index for index, item in enumerate(items) if item.is_build]
    if loose:
        found = split_into_groups([items[index].value for index in loose], value)
        if found is None:
            return None
        # `found` numbers the loose items only; map its bits back to positions among `items`.
        split += [sum(1 << loose[bit] for bit in range(len(loose)) if group >> bit & 1) for group in found]
    groups = tuple(cards_of(group, keys) for group in sorted(split, key=lowest_bit))
    return Take(card, frozenset(keys), groups)


def illegal_reason(seat: int, hand: Sequence[Card], table: Sequence[TableItem], move: KasinoMove) -> str | None:
    """Why `move` is not legal for `seat` here, as a sentence for the player; None when it is legal.

    Targets are matched to the items they name by any card in them, so a take naming the second card
    of a pile is judged like one naming its key.
    """
    if not isinstance(move, Take | Build | Raise | Double | Place):
        return "That is not a move a seat can play on its turn."
    card = move.card
    if card not in hand:
        return f"{card} is not in your hand."
    if isinstance(move, Place):
        return None
    if isinstance(move, Take):
        return _take_reason(card, move.targets, table)
    target = find_item(table, move.target)
    if target is None:
        return _missing(move.target, hand)
    holding = [hand_value(other) for other in hand if other != card]
    own = next((item for item in table if item.kind == BUILD and item.owner == seat), None)
    worth = table_value(card)
    if isinstance(move, Build):
        return _build_reason(worth, target, own, holding)
    if isinstance(move, Raise):
        return _raise_reason(seat, worth, target, own, holding)
    return _double_reason(card, target, own, holding)


def find_item(table: Sequence[TableItem], card: Card) -> TableItem | None:
    """The table item that holds `card`, if any."""
    return next((item for item in table if card in item.cards), None)


def _missing(card: Card, hand: Sequence[Card]) -> str:
    if card in hand:
        return f"{card} is in your hand, not on the table."
    return f"{card} is not on the table."


def _take_reason(card: Card, targets: frozenset[Card], table: Sequence[TableItem]) -> str | None:
    if not targets:
        return f"Say what to take, e.g. “{card} take 7♣”."
    value = hand_value(card)
    items: list[TableItem] = []
    for target in sorted(targets, key=card_order):  # a set's order varies between runs; messages should not
        item = find_item(table, target)
        if item is None:
            return f"{target} is not on the table."
        if item in items:
            return f"You named {item.label()} twice."
        items.append(item)
    worth = f"{card} is worth {value} from the hand"
    for item in items:
        if item.is_build and item.value != value:
            return f"{item.label(start=True)} can only be taken by a card worth {item.value}, and {worth}."
    loose = [item for item in items if not item.is_build]
    if loose and split_into_groups([item.value for item in loose], value) is None:
        cards = format_cards([card for item in loose for card in item.cards])
        return f"{cards} cannot be split into groups worth {value} each ({worth})."
    return None


def _build_reason(worth: int, target: TableItem, own: TableItem | None, holding: list[int]) -> str | None:
    if target.is_build:
        return f"{target.key} is part of {target.label()}; raise or double a build instead."
    if own is not None:
        return f"You already own a build ({own.value})."
    new_value = worth + target.value
    if new_value not in holding:
        return _no_capturer(f"building {new_value}", new_value)
    return None


def _raise_reason(seat: int, worth: int, target: TableItem, own: TableItem | None, holding: list[int]) -> str | None:
    if not target.is_build:
        return f"{target.label(start=True)} is not a build; use “build” to start one."
    if target.owner == seat:
        return f"You cannot raise your own build ({target.value}); each player adds one card to a build."
    if target.doubled:
        return f"{target.label(start=True)} is doubled and can no longer be raised."
    if seat in target.contributors:
        return f"You have already added a card to {target.label()}."
    if own is not None:
        return f"You already own a build ({own.value})."
    new_value = target.value + worth
    if new_value not in holding:
        return _no_capturer(f"raising to {new_value}", new_value)
    return None


def _double_reason(card: Card, target: TableItem, own: TableItem | None, holding: list[int]) -> str | None:
    worth = table_value(card)
    if target.value != worth:
        return (
            f"{card} is worth {worth} on the table and {target.label()} is worth {target.value};"
            " a double needs equal values."
        )
    if not target.is_build:
        return None
    if own is not None and own is not target:
        return f"You already own a build ({own.value})."
    if target.value not in holding:
        return _no_capturer(f"doubling {target.label()}", target.value)
    return None


def _no_capturer(action: str, value: int) -> str:
    if value > HIGHEST_HAND_VALUE:
        return f"After {action} no card could ever take it (the highest hand value is {HIGHEST_HAND_VALUE})."
    return f"After {action} you would hold no card worth {value} from the hand."
