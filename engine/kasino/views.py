"""What each player may see (K16): the public view, and one seat's view with its own hand and moves."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.kasino.moves import CardMove
from engine.kasino.scoring import KasinoSettings, SeatScore
from engine.kasino.table import TableItem


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """Public facts about one seat: sizes and scores, never cards."""

    seat: int
    hand_size: int
    captured: int
    sweeps: int
    score: int
    resigned: bool


@dataclass(frozen=True, slots=True)
class KasinoPublicView:
    """Everything anyone may see: the table, counts per seat, scores; no hand card and no stock order.

    `last_round` is the previous round's K14 breakdown (numbers only; the revealed capture piles are
    in that round's `RoundEnded` event). `to_move` is None once the game is over. `settings` are the game's
    (its house rules: how it scores, whether building is on, partnerships); left out of `repr`, which seeds the
    computer players' choices, so a game with default settings gets the same moves as before house rules.
    """

    round: int
    dealer: int
    to_move: int | None
    stock: int
    table: tuple[TableItem, ...]
    seats: tuple[SeatSummary, ...]
    target: int
    last_round: tuple[SeatScore, ...] | None
    over: bool
    settings: KasinoSettings = field(default=KasinoSettings(), repr=False)
    # Cards played this round, one per move (K5): the round's own move count, which a panel numbers its turn by.
    # Out of `repr` too, for the same reason as `settings`.
    played: int = field(default=0, repr=False)

    @property
    def is_over(self) -> bool:
        """True once the game has ended (the same as `over`; both engines' views have `is_over`)."""
        return self.over

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """KV5's partnerships, `((0, 2), (1, 3))`; None when every seat plays for itself."""
        return self.settings.teams(len(self.seats)) if self.settings.partnerships else None


@dataclass(frozen=True, slots=True)
class KasinoView:
    """What `seat` may see: the public view, its own hand and its legal moves (empty unless it is to move)."""

    public: KasinoPublicView
    seat: int
    hand: tuple[Card, ...]
    legal_moves: tuple[CardMove, ...]
