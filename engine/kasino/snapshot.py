"""A Kasino game as JSON-safe primitives (cards as `Card.code`), and the checks that a state is one play could reach.

These functions are the game's own serialization (`KasinoGame.SNAPSHOT`), kept apart from its flow; they read and
write the private fields of `KasinoGame`, which they know by the protocol `KasinoFields` (so this module does not
import the game). `engine.core.BaseGame` writes and checks the header before them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Protocol

from engine.cards import Card, cards_from_codes, new_deck
from engine.kasino.scoring import KasinoSettings, SeatScore
from engine.kasino.table import LOOSE, TableItem

DECK: Final = frozenset(new_deck())
_DECK_CODES: Final = frozenset(card.code for card in DECK)


class KasinoFields(Protocol):
    """The state of a Kasino game, as `KasinoGame` keeps it."""

    _players: int
    _settings: KasinoSettings
    _round: int
    _dealer: int
    _to_move: int | None
    _hands: list[list[Card]]
    _stock: list[Card]
    _table: list[TableItem]
    _captured: list[list[Card]]
    _set_aside: list[Card]
    _sweeps: list[int]
    _totals: list[int]
    _last_taker: int | None
    _resigned: list[int]
    _moves: int
    _over: bool
    _last_round: tuple[SeatScore, ...] | None


def dump(game: KasinoFields) -> dict[str, Any]:
    """The state after the header (schema, kind, players, seed, settings) that `BaseGame.to_dict` writes."""
    return {
        "round": game._round,
        "dealer": game._dealer,
        "to_move": game._to_move,
        "hands": [_codes(hand) for hand in game._hands],
        "stock": _codes(game._stock),
        "table": [item.to_dict() for item in game._table],
        "captured": [_codes(pile) for pile in game._captured],
        "set_aside": _codes(game._set_aside),
        "sweeps": list(game._sweeps),
        "totals": list(game._totals),
        "last_taker": game._last_taker,
        "resigned": list(game._resigned),
        "move_count": game._moves,
        "over": game._over,
        "last_round": None if game._last_round is None else [score.to_dict() for score in game._last_round],
    }


def load(game: KasinoFields, data: Mapping[str, Any]) -> None:
    """Fill `game`, made empty for `data`'s players, seed and settings, with the rest of what `dump` wrote.

    Raises KeyError, TypeError or ValueError on a malformed snapshot (its header is already checked).
    """
    game._round = int(data["round"])
    game._dealer = int(data["dealer"])
    game._to_move = None if data["to_move"] is None else int(data["to_move"])
    game._hands = [_cards(hand) for hand in data["hands"]]
    game._stock = _cards(data["stock"])
    game._table = [TableItem.from_dict(item) for item in data["table"]]
    game._captured = [_cards(pile) for pile in data["captured"]]
    game._set_aside = _cards(data["set_aside"])
    game._sweeps = [int(count) for count in data["sweeps"]]
    game._totals = [int(total) for total in data["totals"]]
    game._last_taker = None if data["last_taker"] is None else int(data["last_taker"])
    game._resigned = [int(seat) for seat in data["resigned"]]
    game._moves = int(data["move_count"])
    game._over = bool(data["over"])
    last = data["last_round"]
    game._last_round = None if last is None else tuple(SeatScore.from_dict(score) for score in last)


def all_cards(game: KasinoFields) -> list[Card]:
    """Every card of the game, wherever it is (B2: each of the 52 exactly once)."""
    return [
        *(card for hand in game._hands for card in hand),
        *game._stock,
        *(card for item in game._table for card in item.cards),
        *(card for pile in game._captured for card in pile),
        *game._set_aside,
    ]


def check_state(game: KasinoFields) -> None:
    """Refuse a state the rules could not reach: B2 conservation, seats in range, one build per owner.

    Raises:
        ValueError: with what is wrong.
    """
    players = game._players
    cards = all_cards(game)
    # By code: a card's code names it exactly, and strings hash faster than cards.
    if len(cards) != len(DECK) or {card.code for card in cards} != _DECK_CODES:
        raise ValueError("every one of the 52 cards must be in exactly one place")
    per_seat = (game._hands, game._captured, game._sweeps, game._totals)
    if any(len(values) != players for values in per_seat):
        raise ValueError(f"hands, capture piles, sweeps and scores need one entry per seat ({players})")
    owners = [item.owner for item in game._table if item.owner is not None]  # only builds have one
    seats_named = [*owners, *(s for item in game._table for s in item.contributors), *game._resigned]
    if game._last_taker is not None:
        seats_named.append(game._last_taker)
    if any(not 0 <= seat < players for seat in seats_named) or not 0 <= game._dealer < players:
        raise ValueError("a seat number is out of range")
    if len(owners) != len(set(owners)):
        raise ValueError("a player can own only one build at a time (K7)")
    settings = game._settings
    if not settings.building and any(item.kind != LOOSE for item in game._table):
        raise ValueError("with building off (KV4) the table holds only loose cards")
    if settings.partnerships and any(game._totals[a] != game._totals[b] for a, b in settings.teams(players)):
        raise ValueError("partners (KV5) share their team's total")
    if len(game._resigned) != len(set(game._resigned)):
        raise ValueError("a seat can resign only once")
    if game._over:
        return
    if game._to_move is None or not 0 <= game._to_move < players or not game._hands[game._to_move]:
        raise ValueError("the seat to move must exist and hold at least one card")
    if game._to_move in game._resigned:
        raise ValueError("a resigned seat cannot be the one to move")


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _cards(codes: Iterable[str]) -> list[Card]:
    return cards_from_codes(codes)
