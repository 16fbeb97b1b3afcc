"""What `GarbageGame.apply` reports, in order, so the bot can narrate a whole chain of automatic steps.

`Resigned`, `AutoPlayed` and `GameOver` are shared with Kasino (`engine.events`) and importable from here too.
Every card an event carries is face up at the moment the event happens (G11): a drawn card is shown
because it is now in the open, a turned-up card because it has just been turned. Deals carry no cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.events import AutoPlayed, GameOver, Resigned
from engine.garbage.moves import GarbageDecision
from engine.words import counted


def _sizes(names: Sequence[str], sizes: tuple[int, ...]) -> str:
    return ", ".join(f"{names[seat]} {counted(size, 'spot')}" for seat, size in enumerate(sizes))


class DiscardReason(StrEnum):
    """Why a card went onto the discard pile."""

    QUEEN_OR_KING = "queen_or_king"  # G6d
    ABOVE_LAYOUT = "above_layout"  # G6d: rank above n
    SPOT_FILLED = "spot_filled"  # G6d: spot r already holds rank r
    NO_FACE_DOWN_SPOT = "no_face_down_spot"  # G6d: a Jack and nowhere to put it
    RESIGNED = "resigned"  # the player resigned while choosing a spot for a Jack
    GAME_OVER = "game_over"  # the game ended (resignations) while a Jack was waiting for a spot


@dataclass(frozen=True, slots=True)
class DrewFromStock:
    """G5: `seat` drew `card` from the stock; it is now face up in their hand."""

    seat: int
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        return f"{names[self.seat]} drew {self.card} from the stock."


@dataclass(frozen=True, slots=True)
class TookDiscard:
    """G5: `seat` took `card` from the top of the discard pile."""

    seat: int
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        return f"{names[self.seat]} took {self.card} from the discard pile."


@dataclass(frozen=True, slots=True)
class PlacedOnSpot:
    """G6a: `card` went face up on spot `spot`, and the face-down `turned_up` came into the player's hand."""

    seat: int
    spot: int
    card: Card
    turned_up: Card

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        return f"{names[self.seat]} put {self.card} on spot {self.spot} and turned up {self.turned_up}."


class JackPlaced(PlacedOnSpot):
    """G6c: `card`, a Jack, went face up on the face-down spot `spot` the player chose (or the only one)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class JackDisplaced:
    """G6b: `card` took spot `spot` from the face-up `jack`, which is now the card to place."""

    seat: int
    spot: int
    card: Card
    jack: Card

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        return f"{names[self.seat]} put {self.card} on spot {self.spot} in place of {self.jack}, which moves on."


@dataclass(frozen=True, slots=True)
class Discarded:
    """G6d (or a resignation): `card` went onto the discard pile, and the turn ended."""

    seat: int
    card: Card
    reason: DiscardReason
    layout_size: int

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        name, card = names[self.seat], self.card
        match self.reason:
            case DiscardReason.QUEEN_OR_KING:
                why = "queens and kings have no spot"
            case DiscardReason.ABOVE_LAYOUT:
                why = f"{name}'s layout has only {counted(self.layout_size, 'spot')}"
            case DiscardReason.SPOT_FILLED:
                why = f"spot {card.rank} is already filled"
            case DiscardReason.NO_FACE_DOWN_SPOT:
                why = "no spot is face down"
            case DiscardReason.RESIGNED:
                why = f"{name} resigned before choosing a spot"
            case _:
                why = "the game is over"
        return f"{name} discarded {card}: {why}."


@dataclass(frozen=True, slots=True)
class StockReshuffled:
    """G8: the stock ran out, so the discard pile except its top card became a new stock of `size` cards."""

    size: int

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        return (
            f"The stock ran out: the discard pile under its top card ({counted(self.size, 'card')}) was shuffled "
            "into a new stock."
        )


@dataclass(frozen=True, slots=True)
class HandWon:
    """G7/G10: `seat` filled every spot and won hand `hand`; `leftover` (the card in hand) was discarded.

    `layout_sizes` are every seat's spot counts from now on (G2); `game_won` is G10.
    """

    seat: int
    hand: int
    leftover: Card
    layout_sizes: tuple[int, ...]
    game_won: bool

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        won = f"{names[self.seat]} filled every spot and wins hand {self.hand}"
        if self.game_won:
            return f"{won} and the game! {self.leftover} goes to the discard pile."
        return f"{won}; {self.leftover} goes to the discard pile. Layouts now: {_sizes(names, self.layout_sizes)}."


@dataclass(frozen=True, slots=True)
class NewHandDealt:
    """G9: hand `hand` was dealt face down (no cards here: every dealt card is hidden)."""

    hand: int
    layout_sizes: tuple[int, ...]
    first: int

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        return f"Hand {self.hand} is dealt: {_sizes(names, self.layout_sizes)}. {names[self.first]} plays first."


GarbageOwnEvent = (
    DrewFromStock
    | TookDiscard
    | PlacedOnSpot
    | JackPlaced
    | JackDisplaced
    | Discarded
    | StockReshuffled
    | HandWon
    | NewHandDealt
)
# Every event `apply` reports; the last three are the ones both games share (`engine.events`).
GarbageEvent = GarbageOwnEvent | Resigned | AutoPlayed[GarbageDecision] | GameOver

__all__ = [
    "AutoPlayed",
    "DiscardReason",
    "Discarded",
    "DrewFromStock",
    "GameOver",
    "GarbageEvent",
    "GarbageOwnEvent",
    "HandWon",
    "JackDisplaced",
    "JackPlaced",
    "NewHandDealt",
    "PlacedOnSpot",
    "Resigned",
    "StockReshuffled",
    "TookDiscard",
]
