"""Kasino moves as messages: one move phrase per move, said to the player and about them.

A move phrase (`kasino.move-*`) is the move's words inside a sentence ("take K♥+3♥ and 10♥+6♦ with 10♦ (16)"):
the menu capitalises it ("Take …"), an automatic turn's narration says it after a colon. What a player did is said
by the events (`engine.kasino.events`) with the same parameters in the third person ("Kari takes …"), so a move
has one name everywhere. No words live here: the catalogs (`i18n/locales/*/kasino.po`) hold them.

>>> move = take_phrase(Card.parse("10♦"), [[_loose("K♥"), _loose("3♥")], [_loose("10♥"), _loose("6♦")]])
>>> move.id, sorted(move.params)
('kasino.move-take', ['card', 'taken', 'worth'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card
from engine.core import Rejoin, Resign, rejoin_phrase
from engine.kasino.moves import Build, Double, KasinoPlay, Place, Raise, Take
from engine.kasino.rules import find_item
from engine.kasino.table import BUILD, PILE, TableItem, hand_value, item_name, notation_order, table_value
from engine.message import Joined, Message, Param


def place_params(card: Card) -> dict[str, Param]:
    """K11: "place 4♠"."""
    return {"card": card}


def take_params(card: Card, groups: Iterable[Sequence[TableItem]]) -> dict[str, Param]:
    """K6: "take K♥+3♥ and 10♥+6♦ with 10♦ (16)".

    Each group of items makes the card's hand value, which is said where it is not the card's face value
    (K2: an Ace 14, 2♠ 15, 10♦ 16).
    """
    taken = Joined(tuple(Joined(tuple(item_name(item) for item in group), "join.plus") for group in groups), "join.and")
    value = hand_value(card)
    worth = Message("kasino.worth", {"value": value}) if value != table_value(card) else None
    return {"taken": taken, "card": card, "worth": worth}


def build_params(card: Card, onto: TableItem) -> dict[str, Param]:
    """K7: "build 9 on 5♣ with 4♠"."""
    return {"value": table_value(card) + onto.value, "onto": item_name(onto), "card": card}


def raise_params(card: Card, old_value: int) -> dict[str, Param]:
    """K8: "raise the 6 to 9 with 3♣"."""
    return {"old": old_value, "value": old_value + table_value(card), "card": card}


def double_params(card: Card, target: TableItem) -> dict[str, Param]:
    """K9/K10: "double 7♣ with 7♦", "double the 7 pile with 7♥", "double the 9 build with 9♥"."""
    return {"target": item_name(target), "card": card}


def place_phrase(card: Card) -> Message:
    """K11: the move phrase "place 4♠"."""
    return Message("kasino.move-place", place_params(card))


def take_phrase(card: Card, groups: Iterable[Sequence[TableItem]]) -> Message:
    """K6: the move phrase "take K♥+3♥ and 10♥+6♦ with 10♦ (16)"."""
    return Message("kasino.move-take", take_params(card, groups))


def build_phrase(card: Card, onto: TableItem) -> Message:
    """K7: the move phrase "build 9 on 5♣ with 4♠"."""
    return Message("kasino.move-build", build_params(card, onto))


def raise_phrase(card: Card, old_value: int) -> Message:
    """K8: the move phrase "raise the 6 to 9 with 3♣"."""
    return Message("kasino.move-raise", raise_params(card, old_value))


def double_phrase(card: Card, target: TableItem) -> Message:
    """K9/K10: the move phrase "double 7♣ with 7♦"."""
    return Message("kasino.move-double", double_params(card, target))


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


def move_phrase(table: Sequence[TableItem], move: Place | Take | Build | Raise | Double) -> Message | None:
    """The move phrase of a card move on `table` (None: it names an item that is not there)."""
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


def describe_move(table: Sequence[TableItem], move: KasinoPlay) -> Message:
    """The move as a menu offers it (capitalised there): "place Q♠", "take 3♦+A♥+A♠ with 5♥", "resign from the game"."""
    if isinstance(move, Resign):
        return Message("kasino.move-resign")
    if isinstance(move, Rejoin):
        return rejoin_phrase()
    phrase = move_phrase(table, move)
    return Message("shared.move-notation", {"notation": str(move)}) if phrase is None else phrase


def _loose(text: str) -> TableItem:
    return TableItem.loose(Card.parse(text))
