"""Kasino card values (K2) and the items that lie on the table (K5): loose cards, piles and builds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.cards import SUITS, Card, cards_from_codes, format_cards
from engine.message import Message, cards

ItemKind = Literal["loose", "pile", "build"]
LOOSE: Final = "loose"
PILE: Final = "pile"
BUILD: Final = "build"

HIGHEST_HAND_VALUE: Final = 16  # 10♦ from the hand; no build can be worth more and still be taken
_SUIT_ORDER: Final = {suit: index for index, suit in enumerate(SUITS)}
_LOOSE_ITEMS: dict[Card, TableItem] = {}


def table_value(card: Card) -> int:
    """K2: a card's value lying on the table (Ace 1, J 11, Q 12, K 13)."""
    return card.rank


def hand_value(card: Card) -> int:
    """K2: a card's value played from the hand (Ace 14, 2♠ 15, 10♦ 16, others as on the table)."""
    rank = card.rank
    if rank == 1:
        return 14
    if rank == 2 and card.suit == "♠":
        return 15
    if rank == 10 and card.suit == "♦":
        return 16
    return rank


def card_order(card: Card) -> tuple[int, int]:
    """Sort key: rank, then suit in the order ♠ ♥ ♦ ♣."""
    return card.rank, _SUIT_ORDER[card.suit]


def notation_order(card: Card) -> tuple[int, int]:
    """Sort key for table cards in notation: highest rank first, then suit in the order ♣ ♦ ♥ ♠ (`3♦+A♥+A♠`)."""
    return -card.rank, -_SUIT_ORDER[card.suit]


def hand_order(card: Card) -> tuple[int, int]:
    """Sort key for a hand: hand value, then suit in the order ♠ ♥ ♦ ♣."""
    return hand_value(card), _SUIT_ORDER[card.suit]


@dataclass(frozen=True, slots=True)
class TableItem:
    """One item on the table (K5).

    `cards[0]` is the item's *key*: the card that names it in canonical notation; it never changes
    while the item lies on the table. `owner` and `contributors` are only set for builds, and
    `doubled` is the K10 flag of a build (a pile is a doubled card by definition and keeps it False).
    """

    kind: ItemKind
    cards: tuple[Card, ...]
    value: int
    owner: int | None = None
    contributors: tuple[int, ...] = ()
    doubled: bool = False

    @classmethod
    def loose(cls, card: Card) -> TableItem:
        """A single card lying face up."""
        item = _LOOSE_ITEMS.get(card)  # items are immutable values, so one per card serves every game
        if item is None:
            item = _LOOSE_ITEMS[card] = cls(LOOSE, (card,), table_value(card))
        return item

    @property
    def key(self) -> Card:
        """The card that names this item in notation."""
        return self.cards[0]

    @property
    def is_build(self) -> bool:
        """True for a build (K7), False for a loose card or pile."""
        return self.kind == BUILD

    def label(self) -> str:
        """The item for a developer (`check`'s errors): `7♣`, `pile of 7 (7♣ 7♦)`; players read `item_label`."""
        if self.kind == LOOSE:
            return str(self.key)
        return f"{self.kind} of {self.value} ({format_cards(self.cards)})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (cards as `Card.code`)."""
        data: dict[str, Any] = {"kind": self.kind, "cards": [card.code for card in self.cards], "value": self.value}
        if self.kind == BUILD:
            data |= {"owner": self.owner, "contributors": list(self.contributors), "doubled": self.doubled}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableItem:
        """Inverse of `to_dict`.

        Raises:
            ValueError: the data does not describe a possible table item.
        """
        kind = data["kind"]
        cards = tuple(cards_from_codes(data["cards"]))
        if kind == BUILD:
            item = cls(BUILD, cards, int(data["value"]), int(data["owner"]), tuple(data["contributors"]),
                       bool(data["doubled"]))  # fmt: skip
        else:
            item = cls(kind, cards, int(data["value"]))
        item.check()
        return item

    def check(self) -> None:
        """Refuse an item the rules could never produce.

        Raises:
            ValueError: with what is wrong.
        """
        if not self.cards:
            raise ValueError("a table item needs at least one card")
        if self.kind == LOOSE:
            if len(self.cards) != 1 or self.value != table_value(self.key):
                raise ValueError(f"a loose card is one card worth its table value, not {self.label()}")
        elif self.kind == PILE:
            if len(self.cards) < 2 or any(table_value(card) != self.value for card in self.cards):
                raise ValueError(f"a pile holds two or more cards of one table value: {format_cards(self.cards)}")
        elif self.kind == BUILD:
            if len(self.cards) < 2 or not 2 <= self.value <= HIGHEST_HAND_VALUE:
                raise ValueError(f"a build holds two or more cards and is worth 2 to 16: {self.label()}")
            if self.owner is None or self.owner not in self.contributors:
                raise ValueError(f"a build's owner must be one of its contributors: {self.label()}")
        else:
            raise ValueError(f"unknown table item kind {self.kind!r}")


def item_name(item: TableItem) -> Card | Message:
    """A table item to say: a loose card by itself ("7♣"), else "the 7 pile" or "the 9 build"."""
    if item.kind == LOOSE:
        return item.cards[0]
    return Message(f"kasino.item-{item.kind}", {"value": item.value})


def item_label(item: TableItem) -> Card | Message:
    """A table item as a refusal names it, its cards shown: "7♣", "the 7 pile (7♣ 7♦)", "the 9 build (4♦ 5♠)"."""
    if item.kind == LOOSE:
        return item.cards[0]
    return Message("kasino.item-with-cards", {"item": item_name(item), "cards": cards(item.cards)})
