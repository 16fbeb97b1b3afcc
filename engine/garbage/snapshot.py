"""A Garbage game as JSON-safe primitives, and the check that a restored state holds every card once (B2).

These functions are the game's own serialization (`GarbageGame.SNAPSHOT`), kept apart from its flow; they read and
write the private fields of `GarbageGame`, which they know by the protocol `GarbageFields` (so this module does not
import the game). `engine.core.BaseGame` writes and checks the header before them. Card lists run bottom to top (the
last card is the top).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

from engine.cards import Card, cards_from_codes, new_decks

FULL_DECKS: Final = {count: tuple(new_decks(count)) for count in (1, 2, 3)}


def card(code: str) -> Card:
    """The card with this code, the shared instance (snapshots are read often)."""
    return Card.from_code(code)


class GarbageFields(Protocol):
    """The state of a Garbage game, as `GarbageGame` keeps it."""

    _players: int
    _decks: int
    _hand: int
    _shuffles: int
    _moves: int
    _to_move: int | None
    _hands_won: list[int]
    _resigned: list[int]
    _game_winner: int | None
    _spots: list[list[Card]]
    _up: list[list[bool]]
    _pending: Card | None
    _stock: list[Card]
    _discard: list[Card]


def dump(game: GarbageFields) -> dict[str, Any]:
    """The state after the header (schema, kind, players, seed, settings) that `BaseGame.to_dict` writes."""
    return {
        "hand": game._hand,
        "shuffles": game._shuffles,
        "moves": game._moves,
        "to_move": game._to_move,
        "hands_won": list(game._hands_won),
        "resigned": list(game._resigned),
        "game_winner": game._game_winner,
        "layouts": [[card.code for card in spots] for spots in game._spots],
        "face_up": [list(up) for up in game._up],
        "pending": game._pending.code if game._pending is not None else None,
        "stock": [card.code for card in game._stock],
        "discard": [card.code for card in game._discard],
    }


def load(game: GarbageFields, data: Mapping[str, Any]) -> None:
    """Fill `game`, made empty for `data`'s players, seed and settings, with the rest of what `dump` wrote.

    Raises KeyError, TypeError or ValueError on a malformed snapshot (its header is already checked).
    """
    game._hand = int(data["hand"])
    game._shuffles = int(data["shuffles"])
    game._moves = int(data["moves"])
    game._to_move = None if data["to_move"] is None else int(data["to_move"])
    game._hands_won = [int(won) for won in data["hands_won"]]
    game._resigned = [int(seat) for seat in data["resigned"]]
    game._game_winner = None if data["game_winner"] is None else int(data["game_winner"])
    game._spots = [cards_from_codes(spots) for spots in data["layouts"]]
    game._up = [[bool(flag) for flag in up] for up in data["face_up"]]
    game._pending = card(data["pending"]) if data["pending"] is not None else None
    game._stock = cards_from_codes(data["stock"])
    game._discard = cards_from_codes(data["discard"])


def check_state(game: GarbageFields) -> None:
    """Refuse a state that breaks B2, or whose per-seat lists do not match the seats.

    Raises:
        ValueError: with what is wrong.
    """
    players = game._players
    if any(len(values) != players for values in (game._spots, game._up, game._hands_won)):
        raise ValueError(f"layouts, face_up and hands_won need one entry per seat ({players})")
    cards = [*game._stock, *game._discard, *(card for spots in game._spots for card in spots)]
    cards += [game._pending] if game._pending is not None else []
    codes = {card.code for card in cards}  # a code names one card exactly, and strings hash faster than cards
    if len(codes) != len(cards) or len(cards) != 52 * game._decks or max(c.deck for c in cards) >= game._decks:
        raise ValueError("Garbage snapshot does not hold every card of its decks exactly once (B2)")
