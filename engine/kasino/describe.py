"""Kasino moves in words: one verb phrase per move, said to the player and about them.

The menu says it in the imperative ("Place 4♠", "Take K♥+3♥ and 10♥+6♦ with 10♦ (16)"), the narration in the third
person ("Kari places 4♠", "Kari takes K♥+3♥ and 10♥+6♦ with 10♦ (16)"). Both come from one `Phrase`, so a move has
one name everywhere: the menu and the confirmation use `describe_move`, the events (`engine.kasino.events`) the
phrase of what they report.

>>> take_phrase(Card.parse("10♦"), [[_loose("K♥"), _loose("3♥")], [_loose("10♥"), _loose("6♦")]]).imperative
'Take K♥+3♥ and 10♥+6♦ with 10♦ (16)'
>>> place_phrase(Card.parse("4♠")).third_person
'places 4♠'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.core import Resign
from engine.kasino.moves import Build, Double, KasinoPlay, Place, Raise, Take
from engine.kasino.rules import find_item
from engine.kasino.table import BUILD, LOOSE, PILE, TableItem, hand_value, notation_order, table_value


@dataclass(frozen=True, slots=True)
class Phrase:
    """A move's verb ("take") and the rest of its words ("K♥+3♥ with 10♦")."""

    verb: str
    rest: str

    @property
    def imperative(self) -> str:
        """What a menu offers: "Place 4♠"."""
        return f"{self.verb.capitalize()} {self.rest}"

    @property
    def third_person(self) -> str:
        """What the narration says after a name: "places 4♠" (every Kasino verb takes a plain -s)."""
        return f"{self.verb}s {self.rest}"


def item_name(item: TableItem) -> str:
    """A table item in words: a loose card by itself ("7♣"), else "the 7 pile" or "the 9 build"."""
    if item.kind == LOOSE:
        return str(item.cards[0])
    return f"the {item.value} {item.kind}"


def place_phrase(card: Card) -> Phrase:
    """K11: "Place 4♠"."""
    return Phrase("place", str(card))


def take_phrase(card: Card, groups: Iterable[Sequence[TableItem]]) -> Phrase:
    """K6: "Take K♥+3♥ and 10♥+6♦ with 10♦ (16)".

    Each group of items makes the card's hand value, which is said where it is not the card's face value
    (K2: an Ace 14, 2♠ 15, 10♦ 16).
    """
    taken = " and ".join("+".join(item_name(item) for item in group) for group in groups)
    value = hand_value(card)
    worth = f" ({value})" if value != table_value(card) else ""
    return Phrase("take", f"{taken} with {card}{worth}")


def build_phrase(card: Card, onto: TableItem) -> Phrase:
    """K7: "Build 9 on 5♣ with 4♠"."""
    return Phrase("build", f"{table_value(card) + onto.value} on {item_name(onto)} with {card}")


def raise_phrase(card: Card, old_value: int) -> Phrase:
    """K8: "Raise the 6 to 9 with 3♣"."""
    return Phrase("raise", f"the {old_value} to {old_value + table_value(card)} with {card}")


def double_phrase(card: Card, target: TableItem) -> Phrase:
    """K9/K10: "Double 7♣ with 7♦", "Double the 7 pile with 7♥", "Double the 9 build with 9♥"."""
    return Phrase("double", f"{item_name(target)} with {card}")


def built_on(cards: Sequence[Card], value: int, *, build: bool = False) -> TableItem:
    """The item a build, raise or double went onto, rebuilt from an event's cards for its words.

    A build if `build`, else one card lies loose and more make a pile (K9); a build's owner is left out.
    """
    if build:
        return TableItem(BUILD, tuple(cards), value)
    if len(cards) == 1:
        return TableItem.loose(cards[0])
    return TableItem(PILE, tuple(cards), value)


def take_groups(table: Sequence[TableItem], move: Take) -> list[list[TableItem]] | None:
    """The items of a take, group by group as its notation splits them (None: an item is not on `table`)."""
    groups = move.groups or (tuple(sorted(move.targets, key=notation_order)),)
    found = [[find_item(table, key) for key in group] for group in groups]
    if any(item is None for group in found for item in group):
        return None
    return [[item for item in group if item is not None] for group in found]


def move_phrase(table: Sequence[TableItem], move: Place | Take | Build | Raise | Double) -> Phrase | None:
    """The words of a card move on `table` (None: it names an item that is not there)."""
    if isinstance(move, Place):
        return place_phrase(move.card)
    if isinstance(move, Take):
        groups = take_groups(table, move)
        return None if groups is None else take_phrase(move.card, groups)
    target = find_item(table, move.target)
    if target is None:
        return None
    if isinstance(move, Build):
        return build_phrase(move.card, target)
    if isinstance(move, Raise):
        return raise_phrase(move.card, target.value)
    return double_phrase(move.card, target)


def describe_move(table: Sequence[TableItem], move: KasinoPlay) -> str:
    """The move as a menu offers it: "Place Q♠", "Take 3♦+A♥+A♠ with 5♥", "Build 15 on 10♣ with 5♥"."""
    if isinstance(move, Resign):
        return "Resign from the game"
    phrase = move_phrase(table, move)
    return str(move) if phrase is None else phrase.imperative


def _loose(text: str) -> TableItem:
    return TableItem.loose(Card.parse(text))
