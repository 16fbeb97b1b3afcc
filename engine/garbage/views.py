"""What the players may see of a Garbage game (G11): everything face up, and nothing else.

No face-down card and no stock order is ever in a view, not even for the layout's owner.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import JACK, JOKER, Card
from engine.garbage.moves import GarbageDecision


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat: its layout of `layout_size` spots (spot k at index k-1; None is face down) and its score."""

    seat: int
    layout_size: int
    hands_won: int
    resigned: bool
    spots: tuple[Card | None, ...]
    pending: Card | None  # a wild card waiting for this seat to choose its spot (G6c)

    @property
    def face_down_spots(self) -> tuple[int, ...]:
        """Numbers of the spots still face down."""
        return tuple(spot for spot, card in enumerate(self.spots, start=1) if card is None)


@dataclass(frozen=True, slots=True)
class GarbagePublicView:
    """The whole table as anyone may see it. `discard` lists the pile from the bottom up (the last is the top).

    The house rules in force are public too: the wild rank (GV1), whether Jokers are in the decks (GV2), how many
    decks (G1, GV5), and the last turn (GV4). Under GV4, `first` is who played first in this hand, `finished` are
    the seats that completed their layouts this hand while `last_turns` (the seat to move first) still play their
    one more turn.
    """

    seats: tuple[SeatView, ...]
    discard: tuple[Card, ...]
    stock_size: int
    to_move: int | None
    hand_number: int
    move_count: int
    wild_rank: int = JACK
    jokers: bool = False
    decks: int = 1
    last_turn: bool = False
    first: int | None = None  # who played first in this hand (G4), told under GV4 only
    finished: tuple[int, ...] = ()
    last_turns: tuple[int, ...] = ()

    def is_wild(self, card: Card) -> bool:
        """True for a card that plays the Jack rules (G6): the wild rank, or a Joker."""
        return card.rank == self.wild_rank or card.rank == JOKER

    @property
    def discard_top(self) -> Card | None:
        """The card a player may take (G5), if any."""
        return self.discard[-1] if self.discard else None

    @property
    def discard_size(self) -> int:
        """How many cards lie on the discard pile."""
        return len(self.discard)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.to_move is None


@dataclass(frozen=True, slots=True)
class GarbageView:
    """What `seat` sees: the public view (Garbage has no private cards) plus the seat's legal moves."""

    public: GarbagePublicView
    seat: int
    legal_moves: tuple[GarbageDecision, ...]
