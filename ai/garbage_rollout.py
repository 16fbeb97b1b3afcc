"""Fast Garbage playouts for the hard player: one determinized hand played to its end (G5-G8) by medium's rules.

Every seat plays the same simple policy here (take a discard that turns up a card, else draw; Jacks to the
lowest face-down spot: which face-down spot a Jack covers hardly matters, since every face-down card is
equally unknown). The policy reads only face-up state; the playout itself knows the sampled cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import JACK, Card


class Hand:
    """A determinized Garbage hand in progress."""

    __slots__ = ("discard", "layouts", "resigned", "rng", "stock", "to_move", "up")

    def __init__(
        self,
        layouts: list[list[Card]],
        up: list[list[bool]],
        stock: list[Card],
        discard: list[Card],
        to_move: int,
        resigned: Sequence[bool],
        rng: random.Random,
    ) -> None:
        """`stock` and `discard` have their top card last; `rng` shuffles a G8 reshuffle."""
        self.layouts = layouts
        self.up = up
        self.stock = stock
        self.discard = discard
        self.to_move = to_move
        self.resigned = resigned
        self.rng = rng

    def wants(self, seat: int, card: Card) -> bool:
        """True when `card` would turn up one of `seat`'s face-down cards (G6a-c)."""
        up = self.up[seat]
        rank = card.rank
        if rank == JACK:
            return False in up
        if rank > len(up):
            return False
        return not up[rank - 1] or self.layouts[seat][rank - 1].rank == JACK

    def draw(self) -> Card:
        """G5 from the stock, reshuffling the discard pile under its top card first when the stock is empty (G8)."""
        if not self.stock:
            top = self.discard.pop()
            self.stock, self.discard = self.discard, [top]
            self.rng.shuffle(self.stock)
        return self.stock.pop()

    def place(self, seat: int, card: Card, jack_spot: int | None = None) -> bool:
        """G6 from `card` on; True when `seat` wins the hand (G7). `jack_spot` is where the first Jack goes."""
        layout, up = self.layouts[seat], self.up[seat]
        size = len(layout)
        while True:
            rank = card.rank
            if rank == JACK:
                if False not in up:
                    break
                spot = jack_spot if jack_spot is not None else up.index(False) + 1
                jack_spot = None
            elif rank > size:
                break
            elif not up[rank - 1]:
                spot = rank
            elif layout[rank - 1].rank == JACK:
                card, layout[rank - 1] = layout[rank - 1], card  # G6b: the Jack moves on
                continue
            else:
                break
            card, layout[spot - 1] = layout[spot - 1], card
            up[spot - 1] = True
            if False not in up:
                return True
        self.discard.append(card)
        self.to_move = (seat + 1) % len(self.layouts)
        return False

    def turn(self, seat: int) -> bool:
        """One whole turn of the playout policy (a resigned seat always draws, as `auto_move` does)."""
        if self.discard and not self.resigned[seat] and self.wants(seat, self.discard[-1]):
            card = self.discard.pop()
        elif self.stock or len(self.discard) > 1:
            card = self.draw()
        else:
            card = self.discard.pop()
        return self.place(seat, card)

    def play_out(self, limit: int = 2_000) -> int | None:
        """Play turns until a seat wins the hand; return it (None if `limit` turns pass, which play never needs)."""
        for _ in range(limit):
            seat = self.to_move
            if self.turn(seat):
                return seat
        return None
