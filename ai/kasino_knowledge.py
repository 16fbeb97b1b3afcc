"""What a Kasino seat knows: its view, plus the cards it watched being taken this round (public events).

Everything here is derived from `KasinoView` and public events only (K16): the seat's hand, the table,
hand sizes and the stock count from the view, and the cards taken this round from `CardsTaken` events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ai.kasino_table_math import DEFAULT_SCORING, Scoring, scoring_for
from engine.cards import Card, new_deck
from engine.kasino.events import CardsTaken, RoundEnded, RoundStarted
from engine.kasino.table import TableItem, hand_value
from engine.kasino.views import KasinoView

DECK: Final = tuple(new_deck())


@dataclass(frozen=True, slots=True)
class KasinoKnowledge:
    """One seat's knowledge at its turn.

    `unseen` is every card this seat cannot place: other hands, the stock, and (without history) the
    cards already taken this round. `taken[seat]` lists the cards seen going to that seat's pile this round.
    `scoring` is how the game counts (its points table and house rules, from the view's settings).
    """

    seat: int
    players: int
    hand: tuple[Card, ...]
    table: tuple[TableItem, ...]
    hand_sizes: tuple[int, ...]
    stock: int
    resigned: tuple[bool, ...]
    unseen: tuple[Card, ...]
    taken: tuple[tuple[Card, ...], ...]
    last_taker: int | None = None
    scoring: Scoring = DEFAULT_SCORING

    @property
    def last_deal(self) -> bool:
        """True when no more cards will be dealt this round (K3)."""
        return self.stock == 0

    def opponents(self) -> tuple[int, ...]:
        """The other seats in turn order after this one (a partner too: its hand is as hidden as any)."""
        return tuple((self.seat + step) % self.players for step in range(1, self.players))

    def partner(self) -> int | None:
        """The seat's partner in partnerships (KV5), else None."""
        return (self.seat + 2) % self.players if self.scoring.teams else None

    def holder_chance(self, seat: int, value: int) -> float:
        """The chance that `seat` holds a card of hand value `value` (drawn from the unseen cards)."""
        size = self.hand_sizes[seat] or (4 if self.stock else 0)  # an empty hand is refilled from the stock
        return holding_chance(self.unseen, size, value)


def holding_chance(pool: Sequence[Card], size: int, value: int) -> float:
    """Hypergeometric: the chance that `size` cards drawn from `pool` include one of hand value `value`."""
    total = len(pool)
    wanted = sum(1 for card in pool if hand_value(card) == value)
    if not wanted or not size or not total:
        return 0.0
    missing = 1.0
    for drawn in range(min(size, total)):
        missing *= max(total - wanted - drawn, 0) / (total - drawn)
    return 1.0 - missing


def taken_this_round(history: Sequence[Any], players: int) -> tuple[tuple[Card, ...], ...]:
    """The cards each seat took since the latest round started, from public events."""
    taken: list[list[Card]] = [[] for _ in range(players)]
    for event in history:
        if isinstance(event, RoundStarted | RoundEnded):
            taken = [[] for _ in range(players)]
        elif isinstance(event, CardsTaken):
            taken[event.seat] += [event.card, *event.taken]
    return tuple(tuple(cards) for cards in taken)


def last_taker_this_round(history: Sequence[Any]) -> int | None:
    """The seat that made the latest take this round (K13), from public events."""
    for event in reversed(history):
        if isinstance(event, RoundStarted | RoundEnded):
            return None
        if isinstance(event, CardsTaken):
            return event.seat
    return None


def knowledge_from(view: KasinoView, history: Sequence[Any] = ()) -> KasinoKnowledge:
    """Everything the seat of `view` knows, from the view and the public history only."""
    public = view.public
    players = len(public.seats)
    taken = taken_this_round(history, players)
    known = set(view.hand)
    known.update(card for item in public.table for card in item.cards)
    known.update(card for cards in taken for card in cards)
    return KasinoKnowledge(
        seat=view.seat,
        players=players,
        hand=view.hand,
        table=public.table,
        hand_sizes=tuple(summary.hand_size for summary in public.seats),
        stock=public.stock,
        resigned=tuple(summary.resigned for summary in public.seats),
        unseen=tuple(card for card in DECK if card not in known),
        taken=taken,
        last_taker=last_taker_this_round(history),
        scoring=scoring_for(public.settings),
    )
