"""Garbage, also called Trash (RULES.md G1-G11): `GarbageGame` and the values it hands out.

`game` holds the flow (turns, automatic placing, hands, game end); `moves` the decisions and their
notation; `rules` settings and legality; `events` and `views` what the bot is told and shown;
`positions` hand-made positions; `snapshot` the JSON-safe state.
"""

from engine.garbage.events import (
    AutoPlayed,
    Discarded,
    DiscardReason,
    DrewFromStock,
    GameOver,
    GarbageEvent,
    HandWon,
    JackDisplaced,
    JackPlaced,
    NewHandDealt,
    PlacedOnSpot,
    Resigned,
    StockReshuffled,
    TookDiscard,
)
from engine.garbage.game import GarbageGame, GarbageSettings, decks_for
from engine.garbage.moves import DrawDiscard, DrawStock, GarbageMove, PlaceJack, Resign, parse_garbage_move
from engine.garbage.views import GarbagePublicView, GarbageView, SeatView

__all__ = [
    "AutoPlayed",
    "DiscardReason",
    "Discarded",
    "DrawDiscard",
    "DrawStock",
    "DrewFromStock",
    "GameOver",
    "GarbageEvent",
    "GarbageGame",
    "GarbageMove",
    "GarbagePublicView",
    "GarbageSettings",
    "GarbageView",
    "HandWon",
    "JackDisplaced",
    "JackPlaced",
    "NewHandDealt",
    "PlaceJack",
    "PlacedOnSpot",
    "Resign",
    "Resigned",
    "SeatView",
    "StockReshuffled",
    "TookDiscard",
    "decks_for",
    "parse_garbage_move",
]
