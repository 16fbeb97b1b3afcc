"""K6 takes with bitmasks: subsets worth the hand value (*groups*), then unions of pairwise disjoint groups.

Bit `i` stands for the `i`-th table item, so the cards of any bitmask, read from the lowest bit up,
come out in table order.

A crowded table can allow astronomically many takes (23 small cards give over 500 groups worth 16),
so enumeration stops after `MAX_TAKES` distinct sets per hand value. Checking one given take
(`split_into_groups`) has no such limit, so a take that was not listed can still be typed and played.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from engine.cards import Card

MAX_TAKES: Final = 500  # distinct take sets listed per hand value
_MAX_SUBSETS: Final = 20_000  # partial sums kept while looking for groups
_MAX_STEPS: Final = 20_000  # group combinations tried while looking for unions

TakeSpec = tuple[frozenset[Card], tuple[tuple[Card, ...], ...]]  # (targets, display groups)


def cards_of(mask: int, keys: Sequence[Card]) -> tuple[Card, ...]:
    """The key cards of the items in `mask`, lowest bit first."""
    cards = []
    while mask:
        lowest = mask & -mask
        cards.append(keys[lowest.bit_length() - 1])
        mask ^= lowest
    return tuple(cards)


def lowest_bit(mask: int) -> int:
    """The lowest set bit of `mask` (as a mask), used to order groups by their first item."""
    return mask & -mask


def sum_groups(loose: Sequence[tuple[int, int]], wanted: set[int]) -> dict[int, list[int]]:
    """Bitmasks of the subsets of `loose` items, given as (bit index, value), whose total is a wanted value."""
    limit = max(wanted, default=0)
    partial = [(0, 0)]  # (total, bitmask) of every subset worth at most `limit`
    for index, value in loose:
        if value <= limit:
            bit = 1 << index
            partial += [(total + value, mask | bit) for total, mask in partial if total + value <= limit]
            if len(partial) > _MAX_SUBSETS:
                del partial[_MAX_SUBSETS:]
                break
    by_sum: dict[int, list[int]] = {}
    for total, mask in partial:
        if total in wanted:
            by_sum.setdefault(total, []).append(mask)
    return by_sum


def disjoint_unions(groups: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """Every union of pairwise disjoint groups (up to `MAX_TAKES`), mapped to the first split found for it.

    Each split lists its groups in order of their first item (lowest bit), so the search only ever
    adds a group whose first item comes after the last group's, and skips every group whose first
    item is already taken.
    """
    blocks: list[tuple[int, list[int]]] = []  # (first item's bit, the groups starting there), in order
    for group in sorted(groups, key=lowest_bit):
        first = group & -group
        if blocks and blocks[-1][0] == first:
            blocks[-1][1].append(group)
        else:
            blocks.append((first, [group]))
    unions: dict[int, tuple[int, ...]] = {}
    count = len(blocks)
    steps = 0

    def extend(start: int, used: int, chosen: tuple[int, ...]) -> None:
        nonlocal steps
        for position in range(start, count):
            first, members = blocks[position]
            if first & used:
                continue
            steps += len(members)
            if steps > _MAX_STEPS:
                return
            for group in members:
                if not group & used:
                    union = used | group
                    split = (*chosen, group)
                    if union not in unions:
                        unions[union] = split
                        if len(unions) >= MAX_TAKES:
                            steps = _MAX_STEPS + 1
                            return
                    if position + 1 < count:
                        extend(position + 1, union, split)

    extend(0, 0, ())
    return unions


def take_specs(groups: Sequence[int], build_bits: Sequence[int], keys: Sequence[Card]) -> list[TakeSpec]:
    """K6: every distinct set of items one hand value can take, with one way to show its groups.

    `groups` are the loose-item groups worth that value; `build_bits` the bits of the builds worth
    it, each of which can only be a group of its own. Takes of fewer items come first.
    """
    if not build_bits and len(groups) <= 2:  # the common cases, kept cheap
        return _few_groups(groups, keys)
    if len(groups) == 1:
        options = [(groups[0], (groups[0],))]
    elif groups:
        unions = disjoint_unions(groups)
        options = [(union, unions[union]) for union in sorted(unions)]
    else:
        options = []
    if build_bits:
        with_builds = []
        for chosen in range(1, 1 << len(build_bits)):
            picked = tuple(bit for position, bit in enumerate(build_bits) if chosen >> position & 1)
            with_builds.append((sum(picked), picked))
        options += [(union | mask, tuple(sorted(split + picked, key=lowest_bit)))
                    for union, split in options for mask, picked in with_builds]  # fmt: skip
        options += with_builds
    if len(options) > 1:
        options.sort(key=_fewest_items_first)
    shown: dict[int, tuple[Card, ...]] = {}  # one group's cards, built once however many unions hold it
    named: dict[int, frozenset[Card]] = {}
    for _, split in options:
        for group in split:
            if group not in shown:
                shown[group] = cards_of(group, keys)
                named[group] = frozenset(shown[group])
    union_of = frozenset().union
    return [(union_of(*map(named.__getitem__, split)), tuple(map(shown.__getitem__, split))) for _, split in options]


def _few_groups(groups: Sequence[int], keys: Sequence[Card]) -> list[TakeSpec]:
    """`take_specs` for at most two groups and no builds."""
    if len(groups) < 2:
        return [(frozenset(cards), (cards,)) for cards in (cards_of(group, keys) for group in groups)]
    ordered = sorted(groups, key=lambda group: (group.bit_count(), group))
    shown = [cards_of(group, keys) for group in ordered]
    specs = [(frozenset(cards), (cards,)) for cards in shown]
    if not groups[0] & groups[1]:
        first, second = (0, 1) if lowest_bit(ordered[0]) < lowest_bit(ordered[1]) else (1, 0)
        specs.append((specs[0][0] | specs[1][0], (shown[first], shown[second])))
    return specs


def _fewest_items_first(option: tuple[int, tuple[int, ...]]) -> tuple[int, int]:
    return option[0].bit_count(), option[0]


def split_into_groups(values: Sequence[int], target: int) -> tuple[int, ...] | None:
    """One way to split all of `values` into groups each worth `target` (bitmasks over their indexes), or None.

    Some group must hold the first item still unplaced, so only groups containing it are tried.
    """
    if not values or sum(values) % target or max(values) > target:
        return None
    failed: set[int] = set()  # sets of items already known not to split

    def groups_from(first: int, remaining: int) -> Iterator[int]:
        """Subsets of `remaining` that hold item `first` and are worth `target`."""

        def extend(index: int, total: int, mask: int) -> Iterator[int]:
            if total == target:
                yield mask
                return
            for other in range(index, len(values)):
                if remaining >> other & 1 and total + values[other] <= target:
                    yield from extend(other + 1, total + values[other], mask | 1 << other)

        return extend(first + 1, values[first], 1 << first)

    def solve(remaining: int) -> tuple[int, ...] | None:
        if not remaining:
            return ()
        if remaining in failed:
            return None
        first = (remaining & -remaining).bit_length() - 1
        for group in groups_from(first, remaining):
            rest = solve(remaining ^ group)
            if rest is not None:
                return (group, *rest)
        failed.add(remaining)
        return None

    return solve((1 << len(values)) - 1)
