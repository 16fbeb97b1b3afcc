"""Garbage settings, decks (G1), and which decisions a turn allows (G5, G6c) with the reason for a refusal (B3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from engine.cards import Card
from engine.errors import IllegalMoveError
from engine.garbage.moves import DRAW_DISCARD, DRAW_STOCK, JACK_MOVES, MAX_SPOT, DrawDiscard, DrawStock, PlaceJack
from engine.message import Count, Joined, Message
from engine.records import SettingsRecord

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
_DECKS_BY_PLAYERS: Final = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # G1


def decks_for(players: int) -> int:
    """G1: how many 52-card decks a game of `players` uses.

    Raises:
        ValueError: `players` is not 2–6.
    """
    if players not in _DECKS_BY_PLAYERS:
        raise ValueError(f"Garbage is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.")
    return _DECKS_BY_PLAYERS[players]


@dataclass(frozen=True, slots=True)
class GarbageSettings(SettingsRecord):
    """Options chosen in the lobby. `start_size` (house rule, 1–10): spots in every layout at the start (G2)."""

    start_size: int = MAX_SPOT
    GAME: ClassVar[str] = "Garbage"

    def __post_init__(self) -> None:
        if type(self.start_size) is not int or not 1 <= self.start_size <= MAX_SPOT:
            raise ValueError(f"start_size must be a whole number from 1 to {MAX_SPOT}, not {self.start_size!r}.")


def legal_decisions(
    up: Sequence[bool], pending: Card | None, stock: int, discard: int
) -> tuple[DrawStock | DrawDiscard | PlaceJack, ...]:
    """The decisions open to the seat to move: stock before discard, face-down spots lowest first."""
    if pending is not None:
        return tuple(JACK_MOVES[spot] for spot, face_up in enumerate(up, start=1) if not face_up)
    if not discard:
        return (DRAW_STOCK,)
    if not stock and discard < 2:
        return (DRAW_DISCARD,)
    return (DRAW_STOCK, DRAW_DISCARD)


def check_decision(
    move: DrawStock | DrawDiscard | PlaceJack, up: Sequence[bool], pending: Card | None, stock: int, discard: int
) -> None:
    """Refuse a decision the position does not allow, saying why.

    Raises:
        IllegalMoveError: with the reason.
    """
    if pending is not None:
        if not isinstance(move, PlaceJack):
            choices = Joined(tuple(str(legal) for legal in legal_decisions(up, pending, stock, discard)), "join.comma")
            raise IllegalMoveError(Message("garbage.refused.choose-spot-first", {"card": pending, "choices": choices}))
        if move.spot > len(up):
            layout = Count(len(up), "spot")
            raise IllegalMoveError(Message("garbage.refused.spot-beyond-layout", {"spot": move.spot, "layout": layout}))
        if up[move.spot - 1]:
            raise IllegalMoveError(Message("garbage.refused.spot-face-up", {"spot": move.spot}))
    elif isinstance(move, PlaceJack):
        raise IllegalMoveError(Message("garbage.refused.no-jack"))
    elif isinstance(move, DrawDiscard) and not discard:
        raise IllegalMoveError(Message("garbage.refused.discard-empty"))
    elif isinstance(move, DrawStock) and not stock and discard < 2:
        raise IllegalMoveError(Message("garbage.refused.stock-empty"))
