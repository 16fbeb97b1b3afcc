"""Fast Garbage playouts for the hard player: one determinized hand played to its end (G5-G8) by medium's rules.

Every seat plays the same simple policy here (take a discard that turns up a card, else draw; wild cards to the
lowest face-down spot: which face-down spot a wild card covers hardly matters, since every face-down card is
equally unknown). The policy reads only face-up state; the playout itself knows the sampled cards.

The house rules are the view's: which cards are wild (GV1, GV2), and the last turn (GV4): when `first` is given, a
completed layout lets the seats up to `first` play once more, and every seat that completes its layout by then wins
the hand too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cards import Card
from engine.garbage.rules import GarbageSettings

_JACKS_WILD = GarbageSettings().is_wild  # the main rules: Jacks are wild


class Hand:
    """A determinized Garbage hand in progress."""

    __slots__ = ("discard", "finished", "first", "layouts", "resigned", "rng", "stock", "to_move", "up", "wild")

    def __init__(
        self,
        layouts: list[list[Card]],
        up: list[list[bool]],
        stock: list[Card],
        discard: list[Card],
        to_move: int,
        resigned: Sequence[bool],
        rng: random.Random,
        *,
        wild: Callable[[Card], bool] = _JACKS_WILD,
        first: int | None = None,
        finished: Sequence[int] = (),
    ) -> None:
        """`stock` and `discard` have their top card last; `rng` shuffles a G8 reshuffle.

        `wild` says which cards are wild; `first` (GV4 only) is who played first in this hand, and `finished` the
        seats that already completed their layouts while the last turns are played.
        """
        self.layouts = layouts
        self.up = up
        self.stock = stock
        self.discard = discard
        self.to_move = to_move
        self.resigned = resigned
        self.rng = rng
        self.wild = wild
        self.first = first
        self.finished = list(finished)

    def wants(self, seat: int, card: Card) -> bool:
        """True when `card` would turn up one of `seat`'s face-down cards (G6a-c)."""
        up = self.up[seat]
        if self.wild(card):
            return False in up
        rank = card.rank
        if rank > len(up):
            return False
        return not up[rank - 1] or self.wild(self.layouts[seat][rank - 1])

    def draw(self) -> Card:
        """G5 from the stock, reshuffling the discard pile under its top card first when the stock is empty (G8)."""
        if not self.stock:
            top = self.discard.pop()
            self.stock, self.discard = self.discard, [top]
            self.rng.shuffle(self.stock)
        return self.stock.pop()

    def place(self, seat: int, card: Card, jack_spot: int | None = None) -> bool:
        """G6 from `card` on; True when `seat` fills its layout (G7). `jack_spot` is where the first wild card goes.

        When the layout is filled the card in hand is discarded and the turn passes on (`finish` says whether the
        hand is over).
        """
        layout, up = self.layouts[seat], self.up[seat]
        size = len(layout)
        wild = self.wild
        while True:
            rank = card.rank
            if wild(card):
                if False not in up:
                    break
                spot = jack_spot if jack_spot is not None else up.index(False) + 1
                jack_spot = None
            elif rank > size:
                break
            elif not up[rank - 1]:
                spot = rank
            elif wild(layout[rank - 1]):
                card, layout[rank - 1] = layout[rank - 1], card  # G6b: the wild card moves on
                continue
            else:
                break
            card, layout[spot - 1] = layout[spot - 1], card
            up[spot - 1] = True
            if False not in up:
                self.discard.append(card)
                self.finished.append(seat)
                self.to_move = (seat + 1) % len(self.layouts)
                return True
        self.discard.append(card)
        self.to_move = (seat + 1) % len(self.layouts)
        return False

    def over(self) -> bool:
        """True once the hand is decided: a layout is filled, and under GV4 the last turns are played too."""
        return bool(self.finished) and (self.first is None or self.to_move == self.first)

    def turn(self, seat: int) -> bool:
        """One whole turn of the playout policy (a resigned seat always draws, as `auto_move` does)."""
        if self.discard and not self.resigned[seat] and self.wants(seat, self.discard[-1]):
            card = self.discard.pop()
        elif self.stock or len(self.discard) > 1:
            card = self.draw()
        else:
            card = self.discard.pop()
        return self.place(seat, card)

    def play_out(self, limit: int = 2_000) -> frozenset[int]:
        """Play turns until the hand is decided; return the seats that won it (none if `limit` turns pass)."""
        for _ in range(limit):
            if self.over():
                break
            self.turn(self.to_move)
        return frozenset(self.finished) if self.over() else frozenset()
