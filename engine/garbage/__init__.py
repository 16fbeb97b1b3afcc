"""Garbage, also called Trash (RULES.md G1-G11): `GarbageGame` and the values it hands out.

`game` holds the flow (turns, automatic placing, hands, game end); `moves` the decisions and their
notation; `rules` settings, decks and legality; `events` and `views` what the bot is told and shown;
`positions` hand-made positions; `snapshot` the JSON-safe state. The house rules GV1–GV5 are `GarbageSettings`
fields; `kind.KIND.house_rules` lists them for the lobby.
"""

from engine.core import Resign
from engine.garbage.events import (
    AlsoWon,
    AutoPlayed,
    Discarded,
    DiscardReason,
    DrewFromStock,
    GameOver,
    GarbageEvent,
    HandWon,
    JackDisplaced,
    JackPlaced,
    LastTurns,
    LastTurnsOver,
    NewHandDealt,
    PlacedOnSpot,
    Resigned,
    StockReshuffled,
    TookDiscard,
)
from engine.garbage.game import GarbageGame
from engine.garbage.moves import DrawDiscard, DrawStock, GarbageDecision, GarbageMove, PlaceJack, parse_garbage_move
from engine.garbage.rules import GarbageSettings, decks_fit, decks_for
from engine.garbage.views import GarbagePublicView, GarbageView, SeatView

__all__ = [
    "AlsoWon",
    "AutoPlayed",
    "DiscardReason",
    "Discarded",
    "DrawDiscard",
    "DrawStock",
    "DrewFromStock",
    "GameOver",
    "GarbageDecision",
    "GarbageEvent",
    "GarbageGame",
    "GarbageMove",
    "GarbagePublicView",
    "GarbageSettings",
    "GarbageView",
    "HandWon",
    "JackDisplaced",
    "JackPlaced",
    "LastTurns",
    "LastTurnsOver",
    "NewHandDealt",
    "PlaceJack",
    "PlacedOnSpot",
    "Resign",
    "Resigned",
    "SeatView",
    "StockReshuffled",
    "TookDiscard",
    "decks_fit",
    "decks_for",
    "parse_garbage_move",
]
