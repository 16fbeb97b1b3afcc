"""A Kasino deal with every hand known (one guess of the hidden cards), for the expert's search and solver.

A position is immutable, so the solver can keep it in a transposition table. It plays K6-K11 with the engine's
own move list (`legal_moves`) and table arithmetic, scores takes into each seat's tally, a sweep (K12, never on
the round's last play) and, when the deal's last card ends the round, the last take (K13), as the game's
`Scoring` counts them (KV2 sweeps, KV4 building).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ai.kasino_outcome import Tally, add_cards
from ai.kasino_rollout import quick_move
from ai.kasino_table_math import DEFAULT_SCORING, Scoring, table_after
from engine.cards import Card
from engine.kasino.moves import CardMove, Place, Take
from engine.kasino.rules import legal_moves
from engine.kasino.table import TableItem, hand_order

_NO_MOVES: Final[tuple[CardMove, ...]] = ()


@dataclass(slots=True, eq=False)
class Position:
    """Hands, table, seat to move, last taker and tallies of a deal in progress; `play` gives the next one.

    `ends_round`: the stock is empty, so the deal's last card ends the round (K12, K13).
    """

    hands: tuple[tuple[Card, ...], ...]
    table: tuple[TableItem, ...]
    to_move: int
    tallies: tuple[Tally, ...]
    last_taker: int | None
    ends_round: bool
    resigned: tuple[bool, ...]
    scoring: Scoring = DEFAULT_SCORING
    _key: tuple[object, ...] | None = field(default=None, init=False, repr=False)

    @property
    def over(self) -> bool:
        """True when every hand is empty: the deal is played out."""
        return not any(self.hands)

    def key(self) -> tuple[object, ...]:
        """Everything that decides the rest of the deal, as a hashable value (hands in a fixed order)."""
        if self._key is None:
            hands = tuple(tuple(sorted(hand, key=hand_order)) for hand in self.hands)
            self._key = (hands, self.table, self.to_move, self.tallies, self.last_taker)
        return self._key

    def moves(self) -> tuple[CardMove, ...]:
        """The legal moves of the seat to move (a resigned seat only places its lowest card, as the engine does)."""
        seat = self.to_move
        hand = self.hands[seat]
        if not hand:
            return _NO_MOVES
        if self.resigned[seat]:
            return (Place(min(hand, key=hand_order)),)
        return legal_moves(seat, hand, self.table, building=self.scoring.building)

    def play(self, move: CardMove) -> Position:
        """The position after the seat to move plays the legal `move`."""
        seat = self.to_move
        hands = list(self.hands)
        hand = list(hands[seat])
        hand.remove(move.card)
        hands[seat] = tuple(hand)
        table, taken = table_after(seat, self.table, move)
        tallies = list(self.tallies)
        last_taker = self.last_taker
        over = not any(hands)
        scoring = self.scoring
        if taken:
            last_taker = seat
            swept = not table and not (over and self.ends_round)
            tallies[seat] = add_cards(tallies[seat], taken, round(scoring.sweep_in(self.ends_round)) if swept else 0)
        if over and self.ends_round and last_taker is not None:
            leftover = [card for item in table for card in item.cards]
            tallies[last_taker] = add_cards(tallies[last_taker], leftover, scoring.settings.last_take)
            table = []
        players = len(hands)
        following = seat
        for step in range(1, players + 1):
            following = (seat + step) % players
            if hands[following]:
                break
        return Position(tuple(hands), tuple(table), following, tuple(tallies), last_taker, self.ends_round,
                        self.resigned, scoring)  # fmt: skip

    def quick(self) -> CardMove:
        """The fast rollout policy's move for the seat to move."""
        seat = self.to_move
        hand = self.hands[seat]
        if self.resigned[seat]:
            return Place(min(hand, key=hand_order))
        final = self.ends_round and sum(map(len, self.hands)) == 1
        scoring = self.scoring
        return quick_move(seat, hand, self.table, final, scoring, scoring.sweep_in(self.ends_round))

    def play_out(self) -> Position:
        """The end of the deal when every seat plays the fast policy."""
        position = self
        while not position.over:
            position = position.play(position.quick())
        return position


def ordered(moves: Sequence[CardMove]) -> list[CardMove]:
    """Moves in the order a search should try them: the biggest takes first, then builds and doubles, places last."""
    return sorted(moves, key=_search_order)


def _search_order(move: CardMove) -> int:
    if isinstance(move, Take):
        return -len(move.targets)
    return 1 if isinstance(move, Place) else 0
