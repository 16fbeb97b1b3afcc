"""Reading typed Kasino notation against the table: items named by any of their cards, or by value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card
from engine.core import Resign
from engine.errors import AmbiguousMoveError, IllegalMoveError
from engine.kasino.moves import CardMove, Place, Ref, make_move, parse_notation
from engine.kasino.rules import find_item
from engine.kasino.table import TableItem

# Which items a value may name for each verb, and how to call them in a message.
_VALUE_KINDS: Final = {
    "take": (("loose", "pile", "build"), "item"),
    "build": (("loose", "pile"), "loose card or pile"),
    "raise": (("build",), "build"),
    "double": (("loose", "pile", "build"), "item"),
}


def resolve_move(hand: Sequence[Card], table: Sequence[TableItem], text: str) -> CardMove:
    """The move `text` means here, with every table item named by its key card.

    It is not yet checked against the rules beyond the hand card and the items existing.

    Raises:
        InvalidMoveError: not a move at all.
        IllegalMoveError: the hand card is not in the hand, or a named item is not on the table.
        AmbiguousMoveError: a value names more than one item.
    """
    parsed = parse_notation(text)
    assert not isinstance(parsed, Resign), "the game reads `resign` before it looks at the table"
    if isinstance(parsed, Place):
        if parsed.card not in hand:
            raise IllegalMoveError(f"{parsed.card} is not in your hand.")
        return parsed
    card, verb, groups = parsed
    if card not in hand:
        raise IllegalMoveError(f"{card} is not in your hand.")
    named: list[TableItem] = []
    keyed = []
    for group in groups:
        keys = []
        for ref in group:
            item = _item_for(ref, card, verb, hand, table)
            if item in named:
                raise IllegalMoveError(f"You named {item.label()} twice.")
            named.append(item)
            keys.append(item.key)
        keyed.append(keys)
    return make_move(card, verb, keyed)


def _item_for(ref: Ref, card: Card, verb: str, hand: Sequence[Card], table: Sequence[TableItem]) -> TableItem:
    if isinstance(ref, Card):
        item = find_item(table, ref)
        if item is None:
            where = "in your hand, not" if ref in hand else "not"
            raise IllegalMoveError(f"{ref} is {where} on the table.")
        return item
    kinds, what = _VALUE_KINDS[verb]
    candidates = [item for item in table if item.value == ref and item.kind in kinds]
    if not candidates:
        raise IllegalMoveError(f"There is no {what} worth {ref} on the table.")
    if len(candidates) > 1:
        labels = ", ".join(item.label() for item in candidates)
        raise AmbiguousMoveError(
            f"{len(candidates)} items are worth {ref} ({labels}); name one by a card,"
            f" e.g. “{card} {verb} {candidates[0].key}”."
        )
    return candidates[0]
