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
# Up to this many loose groups, `disjoint_unions` can never reach its limits (at most 2**8 - 1 < MAX_TAKES
# unions, and at most 2**8 * 8 < _MAX_STEPS steps), so `_few_takes`, which has none, lists the same takes.
_FEW_GROUPS: Final = 8

Shown = tuple[tuple[Card, ...], ...]  # a take's groups as shown in notation
TakeSpec = tuple[frozenset[Card], Shown]  # (targets, display groups)


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
    """Bitmasks of the subsets of `loose` items, given as (bit index, value), whose total is a wanted value.

    Each value's masks come in increasing order (the order `disjoint_unions` relies on to pick splits).
    """
    reachable = 1  # bit t is set when some subset totals t: often no wanted value is, and this says so fast
    for _, value in loose:
        reachable |= reachable << value
    for total in wanted:
        if reachable >> total & 1:
            break
    else:
        return {}
    limit = max(wanted)
    partial = [(0, 0)]  # (total, bitmask) of every subset worth at most `limit`, in increasing bitmask order
    for index, value in loose:
        if value <= limit:
            bit = 1 << index
            room = limit - value
            partial += [(total + value, mask | bit) for total, mask in partial if total <= room]
            if len(partial) > _MAX_SUBSETS:
                del partial[_MAX_SUBSETS:]
                break
    by_sum: dict[int, list[int]] = {}
    for total, mask in partial:
        if total in wanted:
            if total in by_sum:
                by_sum[total].append(mask)
            else:
                by_sum[total] = [mask]
    return by_sum


def disjoint_unions(groups: Sequence[int], keys: Sequence[Card]) -> dict[int, TakeSpec]:
    """Every union of pairwise disjoint groups (up to `MAX_TAKES`), as the take of the first split found for it.

    Each split lists its groups in order of their first item (lowest bit), so the search only ever
    adds a group whose first item comes after the last group's, and skips every group whose first
    item is already taken. The take (targets and shown groups) is built along the way, one group at a time.
    """
    blocks: list[tuple[int, list[int]]] = []  # (first item's bit, the groups starting there), in order
    for group in sorted(groups, key=lowest_bit):
        first = group & -group
        if blocks and blocks[-1][0] == first:
            blocks[-1][1].append(group)
        else:
            blocks.append((first, [group]))
    sized = [(first, members, len(members)) for first, members in blocks]
    unions: dict[int, TakeSpec] = {}
    own: dict[int, TakeSpec] = {}  # each group's own take, made when the search first meets it
    count = len(blocks)
    steps = 0

    def extend(start: int, used: int, targets: frozenset[Card], shown: Shown) -> None:
        nonlocal steps
        for position in range(start, count):
            first, members, size = sized[position]
            if first & used:
                continue
            steps += size
            if steps > _MAX_STEPS:
                return
            for group in members:
                if not group & used:
                    union = used | group
                    alone = own.get(group)
                    if alone is None:
                        alone = own[group] = group_spec(group, keys)
                    now_targets, now_shown = targets | alone[0], shown + alone[1]
                    if union not in unions:
                        unions[union] = (now_targets, now_shown)
                        if len(unions) >= MAX_TAKES:
                            steps = _MAX_STEPS + 1
                            return
                    if position + 1 < count:
                        extend(position + 1, union, now_targets, now_shown)

    extend(0, 0, frozenset(), ())
    return unions


def take_specs(groups: Sequence[int], build_bits: Sequence[int], keys: Sequence[Card]) -> list[TakeSpec]:
    """K6: every distinct set of items one hand value can take, with one way to show its groups.

    `groups` are the loose-item groups worth that value, in increasing bitmask order; `build_bits` the
    bits of the builds worth it, each of which can only be a group of its own. Takes of fewer items come
    first, then by table position (bitmask).
    """
    if len(groups) > _FEW_GROUPS:
        takes = _crowded_takes(groups, build_bits, keys)
    else:
        # A build is a group of one item that no loose group touches, so it joins the unions like one
        # (builds were never limited: every build combination is added to every loose union).
        every = [*groups, *build_bits] if build_bits else groups
        if len(every) == 1:  # the common cases, kept cheap
            return [group_spec(every[0], keys)]
        if len(every) == 2:
            return _two_groups(every[0], every[1], keys)
        takes = _few_takes(every, keys)
    order = sorted(takes)  # by table position, then (a stable sort) fewest items first
    order.sort(key=int.bit_count)
    return [takes[union] for union in order]


def _few_takes(groups: Sequence[int], keys: Sequence[Card]) -> dict[int, TakeSpec]:
    """Every union of pairwise disjoint groups (few of them: see `_FEW_GROUPS`), shown by its first split.

    Same result as `disjoint_unions` (which never reaches its limits here) without the search: groups are
    added from the last first item back to the first, so each union is shown as the smallest group holding
    its first item followed by the (already smallest) split of the rest, the split the search meets first.
    """
    takes: dict[int, TakeSpec] = {0: (frozenset(), ())}
    for group in sorted(groups, key=_last_first_item_first):
        targets, shown = group_spec(group, keys)
        for union in list(takes):
            if not union & group and union | group not in takes:
                more, rest = takes[union]
                takes[union | group] = (targets | more, shown + rest)
    del takes[0]
    return takes


def _crowded_takes(groups: Sequence[int], build_bits: Sequence[int], keys: Sequence[Card]) -> dict[int, TakeSpec]:
    """Every take on a crowded table: the limited search over the loose groups, combined with the builds."""
    loose_takes = disjoint_unions(groups, keys)
    if not build_bits:
        return loose_takes
    takes = dict(loose_takes)
    position = {id(key): index for index, key in enumerate(keys)}  # a shown group's first card gives its place

    def first_item(cards: tuple[Card, ...]) -> int:
        return position[id(cards[0])]

    for chosen in range(1, 1 << len(build_bits)):
        picked = [bit for place, bit in enumerate(build_bits) if chosen >> place & 1]
        picked_shown = tuple((keys[bit.bit_length() - 1],) for bit in picked)
        named = frozenset(key for (key,) in picked_shown)
        mask = sum(picked)
        for union, (targets, shown) in loose_takes.items():
            takes[union | mask] = (targets | named, tuple(sorted(shown + picked_shown, key=first_item)))
        takes[mask] = (named, picked_shown)
    return takes


def group_spec(group: int, keys: Sequence[Card]) -> TakeSpec:
    """The take of the items in one group: its targets, shown as a single group."""
    one_item = not group & (group - 1)  # the most common group of all
    cards = (keys[group.bit_length() - 1],) if one_item else cards_of(group, keys)
    return frozenset(cards), (cards,)


def _two_groups(first: int, second: int, keys: Sequence[Card]) -> list[TakeSpec]:
    """`take_specs` for two groups (a build counts as one): each alone, fewest items first, then both if disjoint."""
    if (first.bit_count(), first) > (second.bit_count(), second):
        first, second = second, first
    one, other = group_spec(first, keys), group_spec(second, keys)
    if first & second:
        return [one, other]
    shown = one[1] + other[1] if first & -first < second & -second else other[1] + one[1]
    return [one, other, (one[0] | other[0], shown)]


def _last_first_item_first(group: int) -> tuple[int, int]:
    return -(group & -group), group


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
