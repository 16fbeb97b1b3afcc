"""Garbage moves and their notation: `draw stock`, `draw discard`, `jack 7` and `resign`.

A turn holds only two kinds of decision (G5 stock or discard, G6c which spot for a Jack); everything else
happens inside `GarbageGame.apply`. `str(move)` is the canonical notation and parses back to an equal move.

>>> parse_garbage_move("J 7")
PlaceJack(spot=7)
>>> [str(parse_garbage_move(text)) for text in ("Stock", "take the discard", "jack on spot 10", "RESIGN")]
['draw stock', 'draw discard', 'jack 10', 'resign']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.core import RESIGN, Rejoin, Resign, is_resign, rejoin_phrase, resign_phrase
from engine.errors import InvalidMoveError
from engine.message import Message

MAX_SPOT: Final = 10


@dataclass(frozen=True, slots=True)
class DrawStock:
    """G5: draw the top card of the stock."""

    def __str__(self) -> str:
        return "draw stock"


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """G5: take the top card of the discard pile."""

    def __str__(self) -> str:
        return "draw discard"


@dataclass(frozen=True, slots=True)
class PlaceJack:
    """G6c: put the Jack being placed on face-down spot `spot` (1 = the Ace spot)."""

    spot: int

    def __post_init__(self) -> None:
        if not 1 <= self.spot <= MAX_SPOT:
            raise ValueError(f"spot must be 1..{MAX_SPOT}, not {self.spot!r}")

    def __str__(self) -> str:
        return f"jack {self.spot}"


GarbageDecision = DrawStock | DrawDiscard | PlaceJack  # what a turn asks for (G5, G6c)
GarbageMove = GarbageDecision | Resign | Rejoin  # every move of the game (`Resign` is the one both games share)


def move_phrase(move: GarbageMove) -> Message:
    """The move in words, without the position: "draw from the stock", "put the Jack on spot 3", "resign"."""
    if isinstance(move, DrawStock):
        return Message("garbage.move-draw-stock")
    if isinstance(move, DrawDiscard):
        return Message("garbage.move-draw-discard")
    if isinstance(move, PlaceJack):
        return Message("garbage.move-place-jack", {"spot": move.spot})
    if isinstance(move, Rejoin):
        return rejoin_phrase()
    return resign_phrase()


DRAW_STOCK: Final = DrawStock()
DRAW_DISCARD: Final = DrawDiscard()
JACK_MOVES: Final = {spot: PlaceJack(spot) for spot in range(1, MAX_SPOT + 1)}

_STOCK_RE: Final = re.compile(r"(?:(?:draw|take)(?: from)?(?: the)? )?stock(?: pile)?")
_DISCARD_RE: Final = re.compile(r"(?:(?:draw|take)(?: from)?(?: the)? )?(?:top )?(?:of )?(?:the )?discard(?: pile)?")
_JACK_RE: Final = re.compile(  # the wild card of any house rule (GV1, GV2) is placed with the same move
    r"(?:put )?(?:the )?(?:jack|j|king|joker|wild) ?(?:(?:on|to|->|→) ?)?(?:the )?(?:spot ?)?(?P<spot>[0-9]{1,2})"
)


def parse_garbage_move(text: str) -> GarbageMove:
    """Read a move as people type it (case-insensitive): `draw stock`/`stock`, `draw discard`/`discard`, `jack 7`/`j 7`.

    The wild card waiting for a spot may also be named `king 7`, `joker 7` or `wild 7` (house rules GV1, GV2); the
    move is the same, written `jack 7`.

    Raises:
        InvalidMoveError: the text is not a Garbage move, or names a spot outside 1..10.
    """
    normal = " ".join(text.lower().split()).rstrip(".!")
    if _STOCK_RE.fullmatch(normal):
        return DRAW_STOCK
    if _DISCARD_RE.fullmatch(normal):
        return DRAW_DISCARD
    if is_resign(normal):
        return RESIGN
    match = _JACK_RE.fullmatch(normal)
    if match:
        spot = int(match["spot"])
        if spot not in JACK_MOVES:
            raise InvalidMoveError(Message("garbage.refused.no-such-spot", {"spot": spot, "highest": MAX_SPOT}))
        return JACK_MOVES[spot]
    raise InvalidMoveError(Message("garbage.refused.not-a-move", {"text": text.strip()}))
