"""Fast Kasino playouts for the hard player: one determinized deal, played to its end by a quick greedy policy.

A playout only needs the hands and the table: it stops when every hand is empty (the end of the deal, or
of the round when the stock is empty), so the stock order never matters. It counts points as the game does
(`Scoring`: its points table, sweeps and building rules), and in partnerships (KV5) a seat leaves its partner's
build to the partner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ai.kasino_table_math import DEFAULT_SCORING, Scoring, stacked, table_after
from engine.cards import Card
from engine.kasino.moves import CardMove, Place, Take
from engine.kasino.rules import legal_moves
from engine.kasino.table import TableItem, hand_order, hand_value

BUILD_SHARE: Final = 0.7  # a quick guess at how often an own build is still there to take next turn
PLACE_COST: Final = 0.6  # a placed card is often taken by someone else


class Deal:
    """A determinized deal in progress: every hand is known, so it can be played out exactly."""

    __slots__ = (
        "gains",
        "hands",
        "last_play_ends_round",
        "last_taker",
        "players",
        "resigned",
        "scoring",
        "sweep",
        "table",
        "to_move",
    )

    def __init__(
        self,
        hands: list[list[Card]],
        table: list[TableItem],
        to_move: int,
        last_play_ends_round: bool,
        last_taker: int | None,
        resigned: Sequence[bool],
        scoring: Scoring = DEFAULT_SCORING,
    ) -> None:
        """`last_play_ends_round`: the stock is empty, so the deal's last card ends the round (K12, K13)."""
        self.hands = hands
        self.table = table
        self.to_move = to_move
        self.players = len(hands)
        self.last_play_ends_round = last_play_ends_round
        self.last_taker = last_taker
        self.resigned = resigned
        self.scoring = scoring
        self.sweep = scoring.sweep_in(last_play_ends_round)  # KV2: none in the last deal, or none at all
        self.gains = [0.0] * self.players

    def play(self, move: CardMove) -> None:
        """Play a legal move for the seat to move and pass the turn (scoring takes, sweeps and the last take)."""
        seat = self.to_move
        self.hands[seat].remove(move.card)
        table, taken = table_after(seat, self.table, move)
        self.table = table
        worth = self.scoring.worth
        if taken:
            self.gains[seat] += sum(worth[card] for card in taken)
            self.last_taker = seat
        over = not any(self.hands)
        if taken and not table and not (over and self.last_play_ends_round):
            self.gains[seat] += self.sweep
        if over:
            if self.last_play_ends_round and self.last_taker is not None:
                self.gains[self.last_taker] += sum(sum(worth[card] for card in item.cards) for item in table)
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
                self.play(quick_move(seat, hand, self.table, final, self.scoring, self.sweep))

    def margin(self, seat: int) -> float:
        """What the deal gained `seat`'s side less the best other side's gains (partners count together, KV5)."""
        if not self.scoring.teams:
            mine = self.gains[seat]
            return mine - max(gain for other, gain in enumerate(self.gains) if other != seat)
        sides = [0.0, 0.0]
        for other, gain in enumerate(self.gains):
            sides[other % 2] += gain
        return sides[seat % 2] - sides[1 - seat % 2]


def quick_move(
    seat: int,
    hand: Sequence[Card],
    table: Sequence[TableItem],
    final: bool,
    scoring: Scoring = DEFAULT_SCORING,
    sweep: float | None = None,
) -> CardMove:
    """A cheap greedy choice: the most points taken now, builds it can take later, and the cheapest card to place.

    `sweep` is a sweep's points in this deal (by default `scoring.sweep`). In partnerships a partner's build is
    worth little to take: the partner holds the card for it.
    """
    best: CardMove | None = None
    best_score = -1e9
    count = len(table)
    worth = scoring.worth
    sweep_points = scoring.sweep if sweep is None else sweep
    partner = (seat + 2) % 4 if scoring.teams else None
    for move in legal_moves(seat, hand, table, building=scoring.building):
        if isinstance(move, Take):
            score = worth[move.card]
            for item in table:
                if item.cards[0] in move.targets:
                    points = sum(worth[card] for card in item.cards)
                    if partner is not None and item.owner == partner:
                        points *= 1.0 - BUILD_SHARE  # the partner takes it anyway: taking it spends a card
                    score += points
            if len(move.targets) == count and not final:
                score += sweep_points
        elif isinstance(move, Place):
            score = -PLACE_COST * worth[move.card] - 0.01 * hand_value(move.card)
        else:  # a build, raise or double
            target = next(item for item in table if item.cards[0] == move.target)
            made = stacked(seat, target, move)
            if not made.is_build or final:
                score = -PLACE_COST * worth[move.card]
            else:
                score = BUILD_SHARE * sum(worth[card] for card in made.cards) - 0.05
        if score > best_score:
            best, best_score = move, score
    assert best is not None
    return best
