"""Determinization: deal the cards a seat cannot see into the places it cannot see, consistently with what it knows."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def deal_hidden(
    pool: Sequence[T],
    sizes: Sequence[int],
    rng: random.Random,
    required: Sequence[Callable[[T], bool] | None] = (),
) -> tuple[list[list[T]], list[T]]:
    """Shuffle `pool` and deal `sizes[i]` cards to place `i`; return the places and the cards left over.

    `required[i]`, when given, is a test one card of place `i` must pass (e.g. "holds a card that can take
    its build"); a matching card is dealt there first when the pool has one, so every sample agrees with
    what the seat knows. Places ask for more cards than the pool holds only if the seat's knowledge is
    incomplete; they then get what is left.
    """
    cards = list(pool)
    rng.shuffle(cards)
    places: list[list[T]] = [[] for _ in sizes]
    for index, test in enumerate(required):
        if test is None or not sizes[index]:
            continue
        for position, card in enumerate(cards):
            if test(card):
                places[index].append(cards.pop(position))
                break
    for index, size in enumerate(sizes):
        missing = size - len(places[index])
        places[index] += cards[:missing]
        del cards[:missing]
    return places, cards
