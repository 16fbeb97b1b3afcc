"""Checks for a hand-made Garbage position (`GarbageGame.from_position`): it must be one that play could reach."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from engine.cards import Card, new_decks, parse_cards


def read_cards(cards: str | Iterable[Card | str]) -> list[Card]:
    """Cards given as one string ("A♠ 7♦ 3♣#1") or as a list of cards or card texts.

    Raises:
        InvalidMoveError: one of them is not a card.
    """
    if isinstance(cards, str):
        return list(parse_cards(cards))
    return [card if isinstance(card, Card) else Card.parse(card) for card in cards]


def check_layout(
    seat: int, cards: list[Card], face_up: set[int], hands_won: int, start_size: int, wild: Callable[[Card], bool]
) -> None:
    """G2: `start_size - hands_won` spots; a face-up spot holds its own rank or a wild card; one is face down (G7).

    `wild` says which cards are wild (a Jack, or a King or a Joker under the house rules GV1 and GV2).

    Raises:
        ValueError: the layout could not occur in play.
    """
    if not 1 <= len(cards) <= start_size or len(cards) != start_size - hands_won:
        raise ValueError(
            f"seat {seat} has {len(cards)} spots; with start_size {start_size} and {hands_won} hands won "
            f"it must have {start_size - hands_won} (1 to {start_size})"
        )
    if not face_up <= set(range(1, len(cards) + 1)):
        raise ValueError(f"seat {seat} has no spot {max(face_up)}")
    for spot in face_up:
        card = cards[spot - 1]
        if card.rank != spot and not wild(card):
            raise ValueError(f"spot {spot} of seat {seat} is face up with {card}; only a {spot} or a wild card may be")
    if len(face_up) == len(cards):
        raise ValueError(f"every spot of seat {seat} is face up: that hand is already won (G7)")


def check_seats(players: int, to_move: int, resigned: Sequence[int], min_players: int) -> None:
    """`to_move` and every resigned seat exist, `to_move` is still playing, and enough seats are.

    Raises:
        ValueError: a seat is out of range, resigned twice, or the game would already be over.
    """
    for seat in (to_move, *resigned):
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat}; seats are 0 to {players - 1}")
    if len(set(resigned)) != len(resigned):
        raise ValueError("a seat can resign only once")
    if to_move in resigned or players - len(resigned) < min_players:
        raise ValueError(f"to_move must not have resigned, and at least {min_players} seats must still be playing")


def check_pending(pending: Card | str, face_down_spots: int, wild: Callable[[Card], bool]) -> Card:
    """G6c: the card waiting for a spot is wild, and there is a choice of spot for it.

    Raises:
        ValueError: it is not wild, or fewer than two spots are face down.
    """
    card = pending if isinstance(pending, Card) else Card.parse(pending)
    if not wild(card) or face_down_spots < 2:
        raise ValueError(
            "pending must be a Jack (or the house rules' wild card), and to_move must have two or more face-down spots"
        )
    return card


def unused_cards(given: Iterable[Card], decks: int, seed: int, *, jokers: bool = False) -> list[Card]:
    """B2: the cards of `decks` decks (with their Jokers if `jokers`) not in `given`, shuffled from `seed`.

    Raises:
        ValueError: a card is given twice or is not in the game's decks.
    """
    seen: set[Card] = set()
    for card in given:
        if card in seen:
            raise ValueError(f"{card.code} appears twice; write copies from other decks as {card}#1, {card}#2")
        if card.deck >= decks or (card.is_joker and not jokers):
            raise ValueError(f"{card.code} is not in this game's {decks} deck(s)")
        seen.add(card)
    unused = [card for card in new_decks(decks, jokers=jokers) if card not in seen]
    random.Random(f"garbage:{seed}:position").shuffle(unused)
    return unused
