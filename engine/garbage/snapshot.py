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
from engine.garbage.rules import GarbageSettings

FULL_DECKS: Final = {count: tuple(new_decks(count)) for count in (1, 2, 3)}
WITH_JOKERS: Final = {count: tuple(new_decks(count, jokers=True)) for count in (1, 2, 3)}  # GV2
_CODES: Final = {
    (count, jokers): frozenset(card.code for card in (WITH_JOKERS if jokers else FULL_DECKS)[count])
    for count in (1, 2, 3)
    for jokers in (False, True)
}


def full_decks(count: int, jokers: bool) -> tuple[Card, ...]:
    """Every card of `count` decks, with their Jokers if `jokers` (GV2), in a fixed order."""
    return (WITH_JOKERS if jokers else FULL_DECKS)[count]


def card(code: str) -> Card:
    """The card with this code, the shared instance (snapshots are read often)."""
    return Card.from_code(code)


class GarbageFields(Protocol):
    """The state of a Garbage game, as `GarbageGame` keeps it."""

    _players: int
    _settings: GarbageSettings
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
    _first: int
    _finishers: list[int]


def dump(game: GarbageFields) -> dict[str, Any]:
    """The state after the header (schema, kind, players, seed, settings) that `BaseGame.to_dict` writes.

    A game with the last turn (GV4) also writes the hand's first player and the seats that completed their layouts
    while the last turns are played; other games write exactly what they wrote before the house rules.
    """
    state = {
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
    if game._settings.last_turn:
        state["first"] = game._first
        state["finishers"] = list(game._finishers)
    return state


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
    if game._settings.last_turn:
        game._first = int(data["first"])
        game._finishers = [int(seat) for seat in data["finishers"]]


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
    if len(codes) != len(cards) or codes != _CODES[game._decks, game._settings.jokers]:
        raise ValueError("Garbage snapshot does not hold every card of its decks exactly once (B2)")
    if not 0 <= game._first < players or any(not 0 <= seat < players for seat in game._finishers):
        raise ValueError("Garbage snapshot names a seat that is not in the game")
