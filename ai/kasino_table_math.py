"""Kasino arithmetic shared by the computer players: what cards are worth, and the table after a move.

What a card is worth depends on the game's points table and house rules (K14, KV2-KV5): `Scoring` holds them as
the players count them, read from the settings in the seat's view; `DEFAULT_SCORING` is the rules without house
rules, and the module's functions count by it unless given another.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from engine.cards import Card, new_deck
from engine.kasino.moves import Build, CardMove, Double, Place, Raise, Take
from engine.kasino.scoring import OFF, KasinoSettings
from engine.kasino.table import BUILD, PILE, TableItem, table_value

# K14 in expected points per captured card: aces and casinos score outright; "most cards" (1 point) and
# "most spades" (2 points) are shared out over the cards that decide them, so each card or spade is worth
# a fraction of a point (scaled by the points the game's table gives them, KV3).
CARD_POINTS: Final = 0.09
SPADE_POINTS: Final = 0.17
SWEEP_POINTS: Final = 1.0
_DEFAULT_MOST_CARDS: Final = 1
_DEFAULT_MOST_SPADES: Final = 2


@dataclass(frozen=True, slots=True)
class Scoring:
    """How the game at hand scores, as the computer players count it (from its settings).

    `worth[card]` is the expected points one captured card brings; `sweep` a sweep's points (0 with KV2 `off`; under
    `cancel` a sweep still moves the margin by a point); `last_deal_sweeps` whether a sweep counts in the round's
    last deal (KV2); `building` whether builds, raises and doubles exist (KV4); `teams` whether seats 0 and 2 play
    against 1 and 3 (KV5).
    """

    worth: Mapping[Card, float]
    sweep: float
    last_deal_sweeps: bool
    building: bool
    teams: bool
    settings: KasinoSettings

    def side(self, seat: int) -> int:
        """The side a seat scores for: its team in partnerships, else itself."""
        return seat % 2 if self.teams else seat

    def allied(self, seat: int, other: int) -> bool:
        """Whether `other` scores for the same side as `seat` (the seat itself, or its partner)."""
        return seat == other or (self.teams and (seat - other) % 2 == 0)

    @property
    def solo(self) -> Scoring:
        """The same scoring with every seat for itself (a team's pooled tallies are then scored as one seat's)."""
        return scoring_for(replace(self.settings, partnerships=False)) if self.teams else self

    def sweep_in(self, last_deal: bool) -> float:
        """A sweep's points in a deal: none in the round's last deal when KV2 says so."""
        return self.sweep if self.last_deal_sweeps or not last_deal else 0.0


@functools.lru_cache(maxsize=64)
def scoring_for(settings: KasinoSettings) -> Scoring:
    """The `Scoring` of a game with these settings."""
    card = CARD_POINTS * settings.most_cards / _DEFAULT_MOST_CARDS
    spade = SPADE_POINTS * settings.most_spades / _DEFAULT_MOST_SPADES
    special = {1: float(settings.ace)}
    worth = {}
    for each in new_deck():
        extra = special.get(each.rank, 0.0)
        if each.rank == 2 and each.suit == "♠":
            extra = float(settings.little_casino)
        elif each.rank == 10 and each.suit == "♦":
            extra = float(settings.big_casino)
        value = card + extra  # the order `card_points` always added them in, so the default table is unchanged
        if each.suit == "♠":
            value += spade
        worth[each] = value
    sweep = 0.0 if settings.sweeps == OFF else SWEEP_POINTS * settings.sweep
    return Scoring(worth, sweep, settings.last_deal_sweeps, settings.building, settings.partnerships, settings)


DEFAULT_SCORING: Final = scoring_for(KasinoSettings())


def card_points(card: Card, scoring: Scoring = DEFAULT_SCORING) -> float:
    """The expected K14 points one captured card brings."""
    return scoring.worth[card]


def cards_points(cards: Sequence[Card], scoring: Scoring = DEFAULT_SCORING) -> float:
    """`card_points` summed."""
    worth = scoring.worth
    return sum(worth[card] for card in cards)


def item_points(item: TableItem, scoring: Scoring = DEFAULT_SCORING) -> float:
    """`card_points` of every card in a table item."""
    return cards_points(item.cards, scoring)


def table_after(seat: int, table: Sequence[TableItem], move: CardMove) -> tuple[list[TableItem], list[Card]]:
    """The table after `seat` plays a legal `move`, and the cards the move takes (the played card included)."""
    card = move.card
    if isinstance(move, Place):
        return [*table, TableItem.loose(card)], []
    if isinstance(move, Take):
        targets = move.targets
        kept: list[TableItem] = []
        taken = [card]
        for item in table:
            if item.cards[0] in targets:
                taken += item.cards
            else:
                kept.append(item)
        return kept, taken
    return [stacked(seat, item, move) if item.cards[0] == move.target else item for item in table], []


def stacked(seat: int, target: TableItem, move: Build | Raise | Double) -> TableItem:
    """K7-K10: the item `target` becomes when `move` puts its card on it."""
    card = move.card
    cards = (*target.cards, card)
    if isinstance(move, Build):
        return TableItem(BUILD, cards, table_value(card) + target.value, seat, (seat,))
    contributors = tuple(sorted({*target.contributors, seat}))
    if isinstance(move, Raise):
        return TableItem(BUILD, cards, table_value(card) + target.value, seat, contributors)
    if target.is_build:
        return TableItem(BUILD, cards, target.value, seat, contributors, doubled=True)
    return TableItem(PILE, cards, target.value)
