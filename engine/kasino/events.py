"""What `KasinoGame.apply` reports, in order. Each event carries only cards that are face up (or revealed, K16).

`Resigned`, `AutoPlayed` and `GameOver` are shared with Garbage and live in `engine.events`; they are
importable from here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import Card, format_cards
from engine.events import AutoPlayed, GameOver, Resigned
from engine.kasino.describe import (
    Phrase,
    build_phrase,
    built_on,
    double_phrase,
    place_phrase,
    raise_phrase,
    take_phrase,
)
from engine.kasino.moves import CardMove
from engine.kasino.scoring import SeatScore
from engine.kasino.table import BUILD, TableItem, table_value
from engine.words import counted, plural


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """K11: a hand card now lies loose on the table."""

    seat: int
    card: Card

    @property
    def phrase(self) -> Phrase:
        """The move's words, as its menu entry said them: "Place 4♠"."""
        return place_phrase(self.card)

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel: "Kari places 4♠."."""
        return f"{names[self.seat]} {self.phrase.third_person}."


@dataclass(frozen=True, slots=True)
class CardsTaken:
    """K6: `card` took `taken` (every card of every item, piles and builds included).

    `groups` are the items taken, split as the take's sums were (only for its words; equality ignores it).
    """

    seat: int
    card: Card
    taken: tuple[Card, ...]
    groups: tuple[tuple[TableItem, ...], ...] = field(default=(), compare=False)

    @property
    def phrase(self) -> Phrase:
        """The move's words, as its menu entry said them: "Take K♥+3♥ and 10♥+6♦ with 10♦ (16)"."""
        groups = self.groups or ((*(TableItem.loose(card) for card in self.taken),),)
        return take_phrase(self.card, groups)

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel: "Kari takes K♥+3♥ and 10♥+6♦ with 10♦ (16)."."""
        return f"{names[self.seat]} {self.phrase.third_person}."


@dataclass(frozen=True, slots=True)
class BuildMade:
    """K7: `card` went onto the loose card or pile `onto`, making a build worth `value` owned by `seat`."""

    seat: int
    card: Card
    onto: tuple[Card, ...]
    value: int

    @property
    def phrase(self) -> Phrase:
        """The move's words, as its menu entry said them: "Build 9 on 5♣ with 4♠"."""
        return build_phrase(self.card, built_on(self.onto, self.value - table_value(self.card)))

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel: "Kari builds 9 on 5♣ with 4♠."."""
        return f"{names[self.seat]} {self.phrase.third_person}."


@dataclass(frozen=True, slots=True)
class BuildRaised:
    """K8: `card` raised `previous_owner`'s build from `old_value` to `value`; `seat` owns it now."""

    seat: int
    card: Card
    previous_owner: int
    old_value: int
    value: int

    @property
    def phrase(self) -> Phrase:
        """The move's words, as its menu entry said them: "Raise the 6 to 9 with 3♣"."""
        return raise_phrase(self.card, self.old_value)

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel: "Kari raises the 6 to 9 with 3♣ and takes the build over from Ola."."""
        return f"{names[self.seat]} {self.phrase.third_person}{_taken_over(names, self.seat, self.previous_owner)}."


@dataclass(frozen=True, slots=True)
class Doubled:
    """K9/K10: `card` doubled a loose card, a pile or a build worth `value` (`kind` is what it was).

    `previous_owner` is set for builds; `seat` owns a doubled build afterwards.
    """

    seat: int
    card: Card
    kind: str
    target: tuple[Card, ...]
    value: int
    previous_owner: int | None = None

    @property
    def phrase(self) -> Phrase:
        """The move's words, as its menu entry said them: "Double 7♣ with 7♦", "Double the 9 build with 9♥"."""
        return double_phrase(self.card, built_on(self.target, self.value, build=self.kind == BUILD))

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel: "Kari doubles 7♣ with 7♦."."""
        return f"{names[self.seat]} {self.phrase.third_person}{_taken_over(names, self.seat, self.previous_owner)}."


def _taken_over(names: Sequence[str], seat: int, previous_owner: int | None) -> str:
    # A build changing hands is said after the move's words, which stay those of its menu entry.
    if previous_owner is None or previous_owner == seat:
        return ""
    return f" and takes the build over from {names[previous_owner]}"


@dataclass(frozen=True, slots=True)
class Swept:
    """K12: a take left the table empty (not on the last play of a round)."""

    seat: int
    sweeps: int

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        return f"{names[self.seat]} sweeps the table (sweep {self.sweeps} this round)."


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """K3: every seat got `cards_each` new cards; which cards is private to each hand."""

    cards_each: int
    stock: int

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        new = f"{self.cards_each} new {plural('card', self.cards_each)}"
        left = "is" if self.stock == 1 else "are"
        return f"Everyone gets {new}; {counted(self.stock, 'card')} {left} left in the stock."


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """K3/K4: a new round; `table` holds the cards dealt face up, and the seat after `dealer` leads."""

    round: int
    dealer: int
    leader: int
    cards_each: int
    table: tuple[Card, ...]
    stock: int

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        return (
            f"Round {self.round}: {names[self.dealer]} deals {counted(self.cards_each, 'card')} to everyone and"
            f" {format_cards(self.table)} to the table; {names[self.leader]} plays first."
        )


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """K13/K14: the last taker got the table's `leftover` cards; every capture pile is revealed (K16).

    `last_taker` is None when nobody took anything, and then `leftover` was set aside unscored.
    """

    round: int
    last_taker: int | None
    leftover: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], ...]
    scores: tuple[SeatScore, ...]

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        if self.last_taker is None:
            were = "is" if len(self.leftover) == 1 else "are"
            ending = f"nobody took anything, so {counted(len(self.leftover), 'card')} {were} set aside"
        else:
            leftover = counted(len(self.leftover), "card")
            ending = f"{names[self.last_taker]} has the last take and gets {leftover} from the table"
        points = ", ".join(f"{names[score.seat]} {score.round_total} ({score.game_total})" for score in self.scores)
        return f"Round {self.round} is over: {ending}; points this round (total): {points}."


KasinoOwnEvent = (
    CardPlaced | CardsTaken | BuildMade | BuildRaised | Doubled | Swept | CardsDealt | RoundStarted | RoundEnded
)  # fmt: skip
# Every event `apply` reports; the last three are the ones both games share (`engine.events`).
__all__ = [
    "AutoPlayed",
    "BuildMade",
    "BuildRaised",
    "CardPlaced",
    "CardsDealt",
    "CardsTaken",
    "Doubled",
    "GameOver",
    "KasinoEvent",
    "KasinoOwnEvent",
    "Resigned",
    "RoundEnded",
    "RoundStarted",
    "Swept",
]

KasinoEvent = KasinoOwnEvent | Resigned | AutoPlayed[CardMove] | GameOver
