"""What `KasinoGame.apply` reports, in order. Each event carries only cards that are face up (or revealed, K16).

`Resigned`, `AutoPlayed` and `GameOver` are shared with Garbage and live in `engine.events`; they are
importable from here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, format_cards
from engine.events import AutoPlayed, GameOver, Resigned
from engine.kasino.moves import CardMove
from engine.kasino.scoring import SeatScore


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """K11: a hand card now lies loose on the table."""

    seat: int
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        return f"{names[self.seat]} places {self.card} on the table."


@dataclass(frozen=True, slots=True)
class CardsTaken:
    """K6: `card` took `taken` (every card of every item, piles and builds included)."""

    seat: int
    card: Card
    taken: tuple[Card, ...]

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        return f"{names[self.seat]} takes {format_cards(self.taken)} with {self.card}."


@dataclass(frozen=True, slots=True)
class BuildMade:
    """K7: `card` went onto the loose card or pile `onto`, making a build worth `value` owned by `seat`."""

    seat: int
    card: Card
    onto: tuple[Card, ...]
    value: int

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        return f"{names[self.seat]} builds {self.value} with {self.card} on {format_cards(self.onto)}."


@dataclass(frozen=True, slots=True)
class BuildRaised:
    """K8: `card` raised `previous_owner`'s build from `old_value` to `value`; `seat` owns it now."""

    seat: int
    card: Card
    previous_owner: int
    old_value: int
    value: int

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        return (
            f"{names[self.seat]} raises {names[self.previous_owner]}'s {self.old_value} build to {self.value}"
            f" with {self.card} and now owns it."
        )


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

    def describe(self, names: Sequence[str]) -> str:
        """One sentence for the table channel."""
        name = names[self.seat]
        if self.kind == "loose":
            return f"{name} doubles {format_cards(self.target)} with {self.card}: a pile worth {self.value}."
        if self.kind == "pile":
            return f"{name} adds {self.card} to the {self.value} pile."
        if self.previous_owner is None or self.previous_owner == self.seat:
            return f"{name} doubles their own {self.value} build with {self.card}."
        return f"{name} doubles {names[self.previous_owner]}'s {self.value} build with {self.card} and now owns it."


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
        return f"Everyone gets {self.cards_each} new cards; {self.stock} cards are left in the stock."


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
            f"Round {self.round}: {names[self.dealer]} deals {self.cards_each} cards to everyone and"
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
            ending = f"nobody took anything, so {len(self.leftover)} cards are set aside"
        else:
            ending = f"{names[self.last_taker]} has the last take and gets {len(self.leftover)} cards from the table"
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
