"""What `GarbageGame.apply` reports, in order, so the bot can narrate a whole chain of automatic steps.

`Resigned`, `AutoPlayed` and `GameOver` are shared with Kasino (`engine.events`) and importable from here too.
Every card an event carries is face up at the moment the event happens (G11): a drawn card is shown
because it is now in the open, a turned-up card because it has just been turned. Deals carry no cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.events import AutoPlayed, GameOver, Rejoined, Resigned
from engine.garbage.moves import GarbageDecision
from engine.message import Count, Joined, Message, Param, Seat, seats


def _sizes(sizes: tuple[int, ...]) -> Joined:
    layouts = (
        Message("garbage.layout", {"player": Seat(seat), "spots": Count(size, "spot")})
        for seat, size in enumerate(sizes)
    )
    return Joined(tuple(layouts), "join.comma")


class DiscardReason(StrEnum):
    """Why a card went onto the discard pile."""

    QUEEN_OR_KING = "queen_or_king"  # G6d
    JACK_OR_QUEEN = "jack_or_queen"  # G6d with Kings wild (GV1): the court cards without a spot
    ABOVE_LAYOUT = "above_layout"  # G6d: rank above n
    SPOT_FILLED = "spot_filled"  # G6d: spot r already holds rank r
    NO_FACE_DOWN_SPOT = "no_face_down_spot"  # G6d: a Jack and nowhere to put it
    RESIGNED = "resigned"  # the player resigned while choosing a spot for a Jack
    GAME_OVER = "game_over"  # the game ended (resignations) while a Jack was waiting for a spot


_WHY = {  # the reasons said without parameters
    DiscardReason.QUEEN_OR_KING: "garbage.why-queen-or-king",
    DiscardReason.JACK_OR_QUEEN: "garbage.why-jack-or-queen",
    DiscardReason.NO_FACE_DOWN_SPOT: "garbage.why-no-face-down-spot",
    DiscardReason.GAME_OVER: "garbage.why-game-over",
}


@dataclass(frozen=True, slots=True)
class DrewFromStock:
    """G5: `seat` drew `card` from the stock; it is now face up in their hand."""

    seat: int
    card: Card

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message("garbage.drew-from-stock", {"player": Seat(self.seat), "card": self.card})


@dataclass(frozen=True, slots=True)
class TookDiscard:
    """G5: `seat` took `card` from the top of the discard pile."""

    seat: int
    card: Card

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message("garbage.took-discard", {"player": Seat(self.seat), "card": self.card})


@dataclass(frozen=True, slots=True)
class PlacedOnSpot:
    """G6a: `card` went face up on spot `spot`, and the face-down `turned_up` came into the player's hand."""

    seat: int
    spot: int
    card: Card
    turned_up: Card

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message(
            "garbage.placed-on-spot",
            {"player": Seat(self.seat), "card": self.card, "spot": self.spot, "turned_up": self.turned_up},
        )


class JackPlaced(PlacedOnSpot):
    """G6c: `card`, a wild card, went face up on the face-down spot `spot` the player chose (or the only one).

    The wild card is a Jack, or under the house rules a King (GV1) or a Joker (GV2).
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class JackDisplaced:
    """G6b: `card` took spot `spot` from the face-up wild card `jack`, which is now the card to place."""

    seat: int
    spot: int
    card: Card
    jack: Card

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message(
            "garbage.jack-displaced",
            {"player": Seat(self.seat), "card": self.card, "spot": self.spot, "jack": self.jack},
        )


@dataclass(frozen=True, slots=True)
class Discarded:
    """G6d (or a resignation): `card` went onto the discard pile, and the turn ended."""

    seat: int
    card: Card
    reason: DiscardReason
    layout_size: int

    def message(self) -> Message:
        """What happened, for the table channel."""
        player = Seat(self.seat)
        match self.reason:
            case DiscardReason.ABOVE_LAYOUT:
                why = Message("garbage.why-above-layout", {"player": player, "spots": Count(self.layout_size, "spot")})
            case DiscardReason.SPOT_FILLED:
                why = Message("garbage.why-spot-filled", {"spot": self.card.rank})
            case DiscardReason.RESIGNED:
                why = Message("garbage.why-resigned", {"player": player})
            case _:
                why = Message(_WHY[self.reason])
        return Message("garbage.discarded", {"player": player, "card": self.card, "why": why})


@dataclass(frozen=True, slots=True)
class StockReshuffled:
    """G8: the stock ran out, so the discard pile except its top card became a new stock of `size` cards."""

    size: int

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message("garbage.stock-reshuffled", {"size": Count(self.size, "card")})


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

    def message(self) -> Message:
        """What happened, for the table channel."""
        said: dict[str, Param] = {"player": Seat(self.seat), "hand": self.hand, "leftover": self.leftover}
        if self.game_won:
            return Message("garbage.game-won", said)
        return Message("garbage.hand-won", {**said, "layouts": _sizes(self.layout_sizes)})


@dataclass(frozen=True, slots=True)
class LastTurns:
    """GV4: `seat` filled every spot and wins hand `hand` (`leftover` was discarded); the others play once more.

    `players` each get one more turn, in this order, before the hand ends.
    """

    seat: int
    hand: int
    leftover: Card
    players: tuple[int, ...]

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message(
            "garbage.last-turns",
            {"player": Seat(self.seat), "hand": self.hand, "leftover": self.leftover, "players": seats(self.players)},
        )


@dataclass(frozen=True, slots=True)
class AlsoWon:
    """GV4: `seat` filled every spot on its last turn and wins hand `hand` too; `leftover` was discarded."""

    seat: int
    hand: int
    leftover: Card

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message("garbage.also-won", {"player": Seat(self.seat), "hand": self.hand, "leftover": self.leftover})


@dataclass(frozen=True, slots=True)
class LastTurnsOver:
    """GV4: the last turns are played and hand `hand` ends: `winners` (in the order they finished) each won it.

    `layout_sizes` are every seat's spot counts from now on; `game_winners` are the winners who filled a single Ace
    spot (G10): one wins the game, several share its win, none means the next hand is dealt.
    """

    hand: int
    winners: tuple[int, ...]
    layout_sizes: tuple[int, ...]
    game_winners: tuple[int, ...]

    def message(self) -> Message:
        """What happened, for the table channel."""
        if len(self.game_winners) > 1:
            return Message("garbage.last-turns-game-shared", {"players": seats(self.game_winners)})
        if self.game_winners:
            return Message("garbage.last-turns-game-won", {"player": Seat(self.game_winners[0])})
        return Message(
            "garbage.last-turns-over",
            {"hand": self.hand, "players": seats(self.winners), "layouts": _sizes(self.layout_sizes)},
        )


@dataclass(frozen=True, slots=True)
class NewHandDealt:
    """G9: hand `hand` was dealt face down (no cards here: every dealt card is hidden)."""

    hand: int
    layout_sizes: tuple[int, ...]
    first: int

    def message(self) -> Message:
        """What happened, for the table channel."""
        return Message(
            "garbage.hand-dealt", {"hand": self.hand, "layouts": _sizes(self.layout_sizes), "first": Seat(self.first)}
        )


GarbageOwnEvent = (
    DrewFromStock
    | TookDiscard
    | PlacedOnSpot
    | JackPlaced
    | JackDisplaced
    | Discarded
    | StockReshuffled
    | HandWon
    | LastTurns
    | AlsoWon
    | LastTurnsOver
    | NewHandDealt
)
# Every event `apply` reports; the last three are the ones both games share (`engine.events`).
GarbageEvent = GarbageOwnEvent | Resigned | Rejoined | AutoPlayed[GarbageDecision] | GameOver

__all__ = [
    "AlsoWon",
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
    "LastTurns",
    "LastTurnsOver",
    "NewHandDealt",
    "PlacedOnSpot",
    "Rejoined",
    "Resigned",
    "StockReshuffled",
    "TookDiscard",
]
