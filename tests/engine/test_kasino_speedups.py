"""The Kasino speed-ups change nothing: the optimized take search against brute force, and outputs pinned from before.

`reference_takes` is the slow, obviously-correct statement of K6: try every subset of the table,
keep those that split into groups worth the hand value (a build only ever being a group by itself),
show each by its smallest split, list them by item count and then table position.
"""

import hashlib
import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import Card, new_deck, parse_cards
from engine.kasino import KasinoGame
from engine.kasino.game import _DECK_ORDER
from engine.kasino.moves import Take, listed_take
from engine.kasino.rules import legal_moves
from engine.kasino.table import BUILD, PILE, TableItem, hand_value
from engine.kasino.takes import _FEW_GROUPS, _MAX_STEPS, MAX_TAKES, sum_groups, take_specs

PROPERTY = settings(max_examples=40, deadline=None)
DECK = tuple(new_deck())
SMALL_CARDS = tuple(card for card in DECK if card.rank <= 5)  # many ways to add up: many groups


# --- The reference: brute force over every subset ------------------------------------------------


def reference_takes(items: Sequence[TableItem], value: int) -> list[tuple[frozenset[Any], tuple[tuple[Any, ...], ...]]]:
    """Every take for a hand card worth `value` as (targets, shown groups), in listing order."""
    count = len(items)

    def worth(mask: int) -> int:
        return sum(items[i].value for i in range(count) if mask >> i & 1)

    def is_group(mask: int) -> bool:
        builds = [i for i in range(count) if mask >> i & 1 and items[i].kind == BUILD]
        return worth(mask) == value and (not builds or mask == 1 << builds[0])

    groups = [mask for mask in range(1, 1 << count) if is_group(mask)]

    @cache
    def smallest_split(mask: int) -> tuple[int, ...] | None:
        """The split of `mask` into groups, each listed by its first item, that is smallest as a tuple; None if none."""
        if not mask:
            return ()
        first = mask & -mask
        splits: list[tuple[int, ...]] = []
        for group in groups:
            if group & first and group & mask == group:
                rest = smallest_split(mask ^ group)
                if rest is not None:
                    splits.append((group, *rest))
        return min(splits, default=None)

    takes = [mask for mask in range(1, 1 << count) if smallest_split(mask) is not None]
    takes.sort(key=lambda mask: (mask.bit_count(), mask))
    keys = [item.key for item in items]

    def shown(mask: int) -> tuple[Any, ...]:
        return tuple(keys[i] for i in range(count) if mask >> i & 1)

    return [(frozenset(shown(mask)), tuple(shown(group) for group in smallest_split(mask) or ())) for mask in takes]


def within_search_limits(items: Sequence[TableItem], value: int) -> bool:
    """True when the loose groups worth `value` are few enough that no take limit applies (see kasino_takes)."""
    loose = [(i, item.value) for i, item in enumerate(items) if item.kind != BUILD]
    groups = sum_groups(loose, {value}).get(value, []) if loose else []
    sets = {0: 1}  # union -> how many sets of pairwise disjoint groups make it
    for group in groups:
        for union, ways in list(sets.items()):
            if not union & group:
                sets[union | group] = sets.get(union | group, 0) + ways
    searched = sum(sets.values())  # the search visits each set once (plus its start)
    return len(sets) - 1 < MAX_TAKES and searched * max(len(groups), 1) <= _MAX_STEPS


def takes_for(moves: Iterable[object], card: Card) -> list[tuple[Any, Any]]:
    return [(move.targets, move.groups) for move in moves if isinstance(move, Take) and move.card == card]


# --- Random positions --------------------------------------------------------------------------


@st.composite
def positions(
    draw: st.DrawFn, table_cards: Sequence[Card] = DECK, min_items: int = 0, max_items: int = 9
) -> tuple[list[Card], list[TableItem]]:
    """(hand, table items) with distinct cards: loose cards, piles and builds owned by seats 1-3."""
    hand = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=4, unique=True))
    pool = [card for card in draw(st.permutations(table_cards)) if card not in hand]
    items: list[TableItem] = []
    owners = [1, 2, 3]
    kinds = st.lists(st.sampled_from(["loose"] * 6 + ["pile", "build"]), min_size=min_items, max_size=max_items)
    for kind in draw(kinds):
        if not pool:
            break
        card = pool.pop()
        partner = next((other for other in pool if other.rank == card.rank), None)
        if kind == "pile" and partner is not None:
            pool.remove(partner)
            items.append(TableItem(PILE, (card, partner), card.rank))
        elif kind == "build" and pool and owners and 2 <= card.rank + pool[-1].rank <= 16:
            other = pool.pop()
            owner = owners.pop(draw(st.integers(0, len(owners) - 1)))
            items.append(TableItem(BUILD, (card, other), card.rank + other.rank, owner, (owner,)))
        else:
            items.append(TableItem.loose(card))
    return hand, items


# --- Properties ----------------------------------------------------------------------------------


@PROPERTY
@given(positions())
def test_k6_listed_takes_match_brute_force_on_small_tables(position: tuple[list[Card], list[TableItem]]) -> None:
    hand, items = position
    moves = legal_moves(0, hand, items)
    for card in hand:
        value = hand_value(card)
        assume(within_search_limits(items, value))
        assert takes_for(moves, card) == reference_takes(items, value)


@PROPERTY
@given(positions(table_cards=SMALL_CARDS, min_items=9, max_items=11), st.integers(min_value=7, max_value=12))
def test_k6_takes_match_brute_force_with_many_groups(position: tuple[list[Card], list[TableItem]], value: int) -> None:
    _, items = position
    loose = [(i, item.value) for i, item in enumerate(items) if item.kind != BUILD]
    groups = sum_groups(loose, {value}).get(value, []) if loose else []
    assume(len(groups) > _FEW_GROUPS and within_search_limits(items, value))  # the limited search's path
    build_bits = [1 << i for i, item in enumerate(items) if item.kind == BUILD and item.value == value]
    assert take_specs(groups, build_bits, [item.key for item in items]) == reference_takes(items, value)


@PROPERTY
@given(positions(), st.sets(st.integers(min_value=2, max_value=16), min_size=1, max_size=4))
def test_k6_sum_groups_finds_every_subset_worth_a_wanted_value_in_bitmask_order(
    position: tuple[list[Card], list[TableItem]], wanted: set[int]
) -> None:
    _, items = position
    loose = [(i, item.value) for i, item in enumerate(items) if item.kind != BUILD]
    expected: dict[int, list[int]] = {}
    for mask in range(1, 1 << len(items)):
        chosen = [i for i in range(len(items)) if mask >> i & 1]
        total = sum(items[i].value for i in chosen)
        if total in wanted and all(items[i].kind != BUILD for i in chosen):
            expected.setdefault(total, []).append(mask)
    assert sum_groups(loose, wanted) == expected


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("5♦ 3♥ 8♣", ["8♣", "5♦+3♥", "5♦+3♥ | 8♣"]),  # fewest items first, groups shown in table order
        ("8♣ 5♦ 3♥", ["8♣", "5♦+3♥", "8♣ | 5♦+3♥"]),
        ("5♦ 8♣ 3♥ 4♦ 4♥", ["8♣", "5♦+3♥", "4♦+4♥", "5♦+3♥ | 8♣", "8♣ | 4♦+4♥", "5♦+3♥ | 4♦+4♥",
                            "5♦+3♥ | 8♣ | 4♦+4♥"]),
    ],
)  # fmt: skip
def test_k6_takes_are_listed_and_shown_in_a_fixed_order(table: str, expected: list[str]) -> None:
    items = [TableItem.loose(card) for card in parse_cards(table)]
    hand = [Card.parse("8♠")]
    assert [str(move) for move in legal_moves(0, hand, items) if isinstance(move, Take)] == [
        f"8♠ take {groups}" for groups in expected
    ]
    assert takes_for(legal_moves(0, hand, items), hand[0]) == reference_takes(items, 8)


def test_k6_take_search_shortcut_stays_below_the_limits() -> None:
    # `_few_takes` may replace the limited search only while the search could never reach a limit.
    assert 2**_FEW_GROUPS - 1 < MAX_TAKES
    assert (2**_FEW_GROUPS) * _FEW_GROUPS <= _MAX_STEPS


# --- Outputs pinned from the implementation before the speed-up ----------------------------------

# sha256 of the listed moves' notation, one per line, recorded before the optimization.
PINNED: dict[str, tuple[list[str], list[Any], int, str]] = {
    "mixed values": (
        ["A♠ 9♥ 5♦ K♣", "2♣", "4♠"],
        ["4♥", "6♥", "8♥", "10♥", "J♥", "Q♥", "7♣ 7♦", "6♠", "J♠", "Q♣", "K♦", "8♣",
         {"build": "3♣ 2♦", "owner": 1}, {"build": "4♣ 5♣", "owner": 2}],
        34,
        "2fd738a840d1733cec3acc9e2ae8022431ec19540c36e7d14c2ba33a3ec236c7",
    ),
    "small values": (
        ["A♠ 9♥ 5♦ K♣", "2♣", "4♠"],
        ["A♥", "2♥", "3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♦", "10♥", "J♥", "Q♥",
         {"build": "3♣ 2♦", "owner": 1}, {"build": "4♣ 5♣", "owner": 2}],
        396,
        "a957821ba78aa138c0ac5ee06bd1ec2e783acda16d10c8c4b798b6a6e70c9bb8",
    ),
    "crowded with builds, limits reached": (
        ["A♠ 10♣ 8♦ 6♠", "K♣", "Q♣"],
        [{"build": "4♦ 6♦", "owner": 1}, "A♥", "A♦", "2♥", {"build": "9♣ 5♦", "owner": 2}, "2♦", "2♣", "3♠", "3♥",
         "3♦", "4♠", "4♥", "5♠", "5♥", "6♥", "7♠"],
        2832,
        "2133693838bca323e252892952d13f24c9ba7b63d776e27162aac91bc54a874f",
    ),
    "22 small cards, limits reached": (
        ["10♦ 2♠ A♠ 7♣", "K♣"],
        ["A♥", "A♦", "A♣", "2♥", "2♦", "2♣", "3♠", "3♥", "3♦", "3♣", "4♠", "4♥", "4♦", "4♣",
         "5♠", "5♥", "5♦", "5♣", "6♠", "6♥", "6♦", "6♣"],
        2030,
        "677fff9c06890c5410ac0a695a3d794dc9640d122d0fd65e98d7a153ee6ca5c0",
    ),
}  # fmt: skip


def test_k5_k11_legal_moves_on_crowded_tables_are_unchanged_by_the_speed_up() -> None:
    for name, (hands, table, count, digest) in PINNED.items():
        moves = KasinoGame.from_position(hands, table, to_move=0).legal_moves(0)
        text = "\n".join(str(move) for move in moves)
        assert (len(moves), hashlib.sha256(text.encode()).hexdigest()) == (count, digest), name


# --- Smaller pieces ------------------------------------------------------------------------------


def test_k6_listed_take_is_the_same_value_as_take() -> None:
    card, targets = Card.parse("8♠"), parse_cards("8♣ 5♦ 3♥")
    groups = ((targets[0],), targets[1:])
    made, listed = Take(card, frozenset(targets), groups), listed_take(card, frozenset(targets), groups)
    assert listed == made and hash(listed) == hash(made)
    assert (listed.card, listed.targets, listed.groups) == (made.card, made.targets, made.groups)
    assert str(listed) == str(made) == "8♠ take 8♣ | 5♦+3♥"
    assert not hasattr(Take, "__post_init__")  # listed_take skips __init__, so Take must not check anything there


def test_k6_a_take_named_by_other_cards_is_played_with_its_listed_grouping() -> None:
    game = KasinoGame.from_position(["8♠", "K♣"], ["8♣", "5♦", "3♥"], to_move=0)
    assert str(game.parse_move(0, "8s take 3h+8c+5d")) == "8♠ take 8♣ | 5♦+3♥"
    game.apply(0, Take(Card.parse("8♠"), frozenset(parse_cards("3♥ 8♣ 5♦"))))  # no groups given: still legal


def test_k3_rounds_are_shuffled_from_the_standard_deck_order() -> None:
    assert list(_DECK_ORDER) == new_deck()
    deck = new_deck()
    random.Random("kasino:5:round:1").shuffle(deck)
    stock = KasinoGame.new(2, seed=5).to_dict()["stock"]  # what is left after the deal, top card last
    assert stock == [card.code for card in deck[: len(stock)]]
