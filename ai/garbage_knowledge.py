"""What a Garbage seat may count (G11): every face-up card and the discard pile; never a face-down card.

Which cards are wild (a Jack, or a King and Jokers under the house rules GV1 and GV2) and how many decks are shuffled
(G1, GV5) are in the public view too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final

from engine.cards import JACK, JOKER, Card
from engine.garbage.views import GarbagePublicView

SUIT_COPIES: Final = 4  # cards of one rank in one deck
JOKER_COPIES: Final = 2  # Jokers in one deck (GV2)


def is_jack(card: Card) -> bool:
    """The main rules' wild card (G6): a Jack."""
    return card.rank == JACK


def fits(card: Card, spots: Sequence[Card | None], wild: Callable[[Card], bool] = is_jack) -> bool:
    """True when `card` would turn up a face-down card of this layout (G6a, G6b, G6c), not go to the discard.

    `wild` says which cards are wild (`GarbagePublicView.is_wild` under the house rules; Jacks by default).
    """
    if wild(card):
        return None in spots
    rank = card.rank
    if rank > len(spots):
        return False
    here = spots[rank - 1]
    return here is None or wild(here)


def fills_directly(card: Card, spots: Sequence[Card | None]) -> bool:
    """True when `card` goes straight onto its own face-down spot (G6a only; a wild card's rank has no spot)."""
    return card.rank <= len(spots) and spots[card.rank - 1] is None


def visible_cards(public: GarbagePublicView) -> list[Card]:
    """Every card face up: on any layout, on the discard pile, and a Jack waiting for its spot."""
    cards = [card for seat in public.seats for card in seat.spots if card is not None]
    cards += public.discard
    cards += [seat.pending for seat in public.seats if seat.pending is not None]
    return cards


def unseen_by_rank(public: GarbagePublicView) -> Counter[int]:
    """How many cards of each rank nobody can see (face down or in the stock), from the face-up ones.

    Jokers count under their own rank (`JOKER`), when the decks have them.
    """
    copies = dict.fromkeys(range(1, 14), SUIT_COPIES * public.decks)
    if public.jokers:
        copies[JOKER] = JOKER_COPIES * public.decks
    seen = Counter(card.rank for card in visible_cards(public))
    return Counter({rank: count - seen[rank] for rank, count in copies.items()})
