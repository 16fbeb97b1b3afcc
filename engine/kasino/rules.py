"""Which Kasino moves are legal (K6-K11), and as a message why one is not (B3).

Both work on a plain position: the seat to play, its hand, and the table items. Takes are found
with bitmasks in `engine.kasino.takes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from engine.cards import Card
from engine.kasino.moves import Build, CardMove, Double, KasinoMove, Place, Raise, Take, listed_take
from engine.kasino.table import (
    BUILD,
    HIGHEST_HAND_VALUE,
    TableItem,
    card_order,
    hand_value,
    item_label,
    table_value,
)
from engine.kasino.takes import TakeSpec, cards_of, lowest_bit, split_into_groups, sum_groups, take_specs
from engine.message import Message, Param, cards

_VALUE_SLOTS: Final = 32  # hand-value counters indexed by value; a new build value never exceeds 16 + 13


def legal_moves(
    seat: int, hand: Sequence[Card], table: Sequence[TableItem], *, building: bool = True
) -> tuple[CardMove, ...]:
    """Every distinct legal move for `seat`: per hand card, takes, builds, raises, doubles, then the place.

    Items are named and listed in table order. Takes stop at `takes.MAX_TAKES` per hand
    value on absurdly crowded tables. With `building` off (KV4) there are no builds, raises or doubles.
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
        if building:  # KV4 off: a turn is a take or a place
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


def illegal_reason(
    seat: int, hand: Sequence[Card], table: Sequence[TableItem], move: KasinoMove, *, building: bool = True
) -> Message | None:
    """Why `move` is not legal for `seat` here, as a message for the player; None when it is legal.

    Targets are matched to the items they name by any card in them, so a take naming the second card
    of a pile is judged like one naming its key. With `building` off (KV4) every build, raise and double is refused.
    """
    if not isinstance(move, Take | Build | Raise | Double | Place):
        return Message("kasino.refused.not-a-turn-move")
    card = move.card
    if card not in hand:
        return Message("kasino.refused.not-in-hand", {"card": card})
    if isinstance(move, Place):
        return None
    if isinstance(move, Take):
        return _take_reason(card, move.targets, table)
    if not building:
        return Message("kasino.refused.building-off", {"card": card})
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


def _missing(card: Card, hand: Sequence[Card]) -> Message:
    if card in hand:
        return Message("kasino.refused.in-hand-not-table", {"card": card})
    return Message("kasino.refused.not-on-table", {"card": card})


def _take_reason(card: Card, targets: frozenset[Card], table: Sequence[TableItem]) -> Message | None:
    if not targets:
        return Message("kasino.refused.say-what-to-take", {"card": card})
    value = hand_value(card)
    items: list[TableItem] = []
    for target in sorted(targets, key=card_order):  # a set's order varies between runs; messages should not
        item = find_item(table, target)
        if item is None:
            return Message("kasino.refused.not-on-table", {"card": target})
        if item in items:
            return Message("kasino.refused.named-twice", {"item": item_label(item)})
        items.append(item)
    for item in items:
        if item.is_build and item.value != value:
            params: dict[str, Param] = {"item": item_label(item), "value": item.value, "card": card, "worth": value}
            return Message("kasino.refused.build-needs-value", params)
    loose = [item for item in items if not item.is_build]
    if loose and split_into_groups([item.value for item in loose], value) is None:
        named = cards([card for item in loose for card in item.cards])
        return Message("kasino.refused.cannot-split", {"cards": named, "value": value, "card": card})
    return None


def _build_reason(worth: int, target: TableItem, own: TableItem | None, holding: list[int]) -> Message | None:
    if target.is_build:
        return Message("kasino.refused.part-of-build", {"card": target.key, "item": item_label(target)})
    if own is not None:
        return Message("kasino.refused.already-own-build", {"value": own.value})
    new_value = worth + target.value
    if new_value not in holding:
        return _no_capturer("build", new_value)
    return None


def _raise_reason(
    seat: int, worth: int, target: TableItem, own: TableItem | None, holding: list[int]
) -> Message | None:
    if not target.is_build:
        return Message("kasino.refused.not-a-build", {"item": item_label(target)})
    if target.owner == seat:
        return Message("kasino.refused.raise-own-build", {"value": target.value})
    if target.doubled:
        return Message("kasino.refused.build-doubled", {"item": item_label(target)})
    if seat in target.contributors:
        return Message("kasino.refused.already-added", {"item": item_label(target)})
    if own is not None:
        return Message("kasino.refused.already-own-build", {"value": own.value})
    new_value = target.value + worth
    if new_value not in holding:
        return _no_capturer("raise", new_value)
    return None


def _double_reason(card: Card, target: TableItem, own: TableItem | None, holding: list[int]) -> Message | None:
    worth = table_value(card)
    if target.value != worth:
        params: dict[str, Param] = {"card": card, "worth": worth, "item": item_label(target), "value": target.value}
        return Message("kasino.refused.double-unequal", params)
    if not target.is_build:
        return None
    if own is not None and own is not target:
        return Message("kasino.refused.already-own-build", {"value": own.value})
    if target.value not in holding:
        return Message("kasino.refused.double-no-capturer", {"item": item_label(target), "value": target.value})
    return None


# After building or raising to a value: (no card could ever take it, the player would hold no card that takes it).
_NO_CAPTURER: Final = {
    "build": ("kasino.refused.build-uncapturable", "kasino.refused.build-no-capturer"),
    "raise": ("kasino.refused.raise-uncapturable", "kasino.refused.raise-no-capturer"),
}


def _no_capturer(verb: Literal["build", "raise"], value: int) -> Message:
    """After building or raising to `value`: no card could ever take it, or the player holds none that would."""
    uncapturable, no_capturer = _NO_CAPTURER[verb]
    if value > HIGHEST_HAND_VALUE:
        return Message(uncapturable, {"value": value, "highest": HIGHEST_HAND_VALUE})
    return Message(no_capturer, {"value": value})
