"""What a Garbage seat may count (G11): every face-up card and the discard pile; never a face-down card."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from engine.cards import JACK, Card
from engine.garbage import decks_for
from engine.garbage.views import GarbagePublicView

SUIT_COPIES: Final = 4  # cards of one rank in one deck


def fits(card: Card, spots: Sequence[Card | None]) -> bool:
    """True when `card` would turn up a face-down card of this layout (G6a, G6b, G6c), not go to the discard."""
    rank = card.rank
    if rank == JACK:
        return None in spots
    if rank > len(spots):
        return False
    here = spots[rank - 1]
    return here is None or here.rank == JACK


def fills_directly(card: Card, spots: Sequence[Card | None]) -> bool:
    """True when `card` goes straight onto its own face-down spot (G6a only)."""
    return card.rank <= len(spots) and card.rank != JACK and spots[card.rank - 1] is None


def visible_cards(public: GarbagePublicView) -> list[Card]:
    """Every card face up: on any layout, on the discard pile, and a Jack waiting for its spot."""
    cards = [card for seat in public.seats for card in seat.spots if card is not None]
    cards += public.discard
    cards += [seat.pending for seat in public.seats if seat.pending is not None]
    return cards


def unseen_by_rank(public: GarbagePublicView) -> Counter[int]:
    """How many cards of each rank nobody can see (face down or in the stock), from the face-up ones."""
    copies = SUIT_COPIES * decks_for(len(public.seats))
    seen = Counter(card.rank for card in visible_cards(public))
    return Counter({rank: copies - seen[rank] for rank in range(1, 14)})
