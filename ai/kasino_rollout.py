"""Fast Kasino playouts for the hard player: one determinized deal, played to its end by a quick greedy policy.

A playout only needs the hands and the table: it stops when every hand is empty (the end of the deal, or
of the round when the stock is empty), so the stock order never matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ai.kasino_table_math import SWEEP_POINTS, card_points, cards_points, item_points, stacked, table_after
from engine.cards import Card
from engine.kasino.moves import CardMove, Place, Take
from engine.kasino.rules import legal_moves
from engine.kasino.table import TableItem, hand_order, hand_value

BUILD_SHARE: Final = 0.7  # a quick guess at how often an own build is still there to take next turn
PLACE_COST: Final = 0.6  # a placed card is often taken by someone else


class Deal:
    """A determinized deal in progress: every hand is known, so it can be played out exactly."""

    __slots__ = ("gains", "hands", "last_play_ends_round", "last_taker", "players", "resigned", "table", "to_move")

    def __init__(
        self,
        hands: list[list[Card]],
        table: list[TableItem],
        to_move: int,
        last_play_ends_round: bool,
        last_taker: int | None,
        resigned: Sequence[bool],
    ) -> None:
        """`last_play_ends_round`: the stock is empty, so the deal's last card ends the round (K12, K13)."""
        self.hands = hands
        self.table = table
        self.to_move = to_move
        self.players = len(hands)
        self.last_play_ends_round = last_play_ends_round
        self.last_taker = last_taker
        self.resigned = resigned
        self.gains = [0.0] * self.players

    def play(self, move: CardMove) -> None:
        """Play a legal move for the seat to move and pass the turn (scoring takes, sweeps and the last take)."""
        seat = self.to_move
        self.hands[seat].remove(move.card)
        table, taken = table_after(seat, self.table, move)
        self.table = table
        if taken:
            self.gains[seat] += cards_points(taken)
            self.last_taker = seat
        over = not any(self.hands)
        if taken and not table and not (over and self.last_play_ends_round):
            self.gains[seat] += SWEEP_POINTS
        if over:
            if self.last_play_ends_round and self.last_taker is not None:
                self.gains[self.last_taker] += sum(item_points(item) for item in table)
            return
        for step in range(1, self.players + 1):
            following = (seat + step) % self.players
            if self.hands[following]:
                self.to_move = following
                return

    def finished(self) -> bool:
        """True when every hand is empty."""
        return not any(self.hands)

    def play_out(self) -> None:
        """Play the deal to its end with `quick_move` for every seat (a resigned seat places its lowest card)."""
        while any(self.hands):
            seat = self.to_move
            hand = self.hands[seat]
            if self.resigned[seat]:
                self.play(Place(min(hand, key=hand_order)))
            else:
                final = self.last_play_ends_round and sum(map(len, self.hands)) == 1
                self.play(quick_move(seat, hand, self.table, final))


def quick_move(seat: int, hand: Sequence[Card], table: Sequence[TableItem], final: bool) -> CardMove:
    """A cheap greedy choice: the most points taken now, builds it can take later, and the cheapest card to place."""
    best: CardMove | None = None
    best_score = -1e9
    count = len(table)
    for move in legal_moves(seat, hand, table):
        if isinstance(move, Take):
            score = card_points(move.card)
            for item in table:
                if item.cards[0] in move.targets:
                    score += item_points(item)
            if len(move.targets) == count and not final:
                score += SWEEP_POINTS
        elif isinstance(move, Place):
            score = -PLACE_COST * card_points(move.card) - 0.01 * hand_value(move.card)
        else:  # a build, raise or double
            target = next(item for item in table if item.cards[0] == move.target)
            made = stacked(seat, target, move)
            if not made.is_build or final:
                score = -PLACE_COST * card_points(move.card)
            else:
                score = BUILD_SHARE * item_points(made) - 0.05
        if score > best_score:
            best, best_score = move, score
    assert best is not None
    return best
