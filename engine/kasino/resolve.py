"""Reading typed Kasino notation against the table: items named by any of their cards, or by value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card
from engine.core import Resign
from engine.errors import AmbiguousMoveError, IllegalMoveError
from engine.kasino.moves import CardMove, Place, Ref, make_move, parse_notation
from engine.kasino.rules import find_item
from engine.kasino.table import TableItem, item_label
from engine.message import Joined, Message, Param

# Which items a value may name for each verb, and the refusal when none is worth that value.
_VALUE_KINDS: Final = {
    "take": (("loose", "pile", "build"), "kasino.refused.no-item-worth"),
    "build": (("loose", "pile"), "kasino.refused.no-loose-worth"),
    "raise": (("build",), "kasino.refused.no-build-worth"),
    "double": (("loose", "pile", "build"), "kasino.refused.no-item-worth"),
}


def resolve_move(hand: Sequence[Card], table: Sequence[TableItem], text: str, *, building: bool = True) -> CardMove:
    """The move `text` means here, with every table item named by its key card.

    It is not yet checked against the rules beyond the hand card, the items existing, and (with `building` off,
    KV4) the verb being a take.

    Raises:
        InvalidMoveError: not a move at all.
        IllegalMoveError: the hand card is not in the hand, or a named item is not on the table.
        AmbiguousMoveError: a value names more than one item.
    """
    parsed = parse_notation(text)
    assert not isinstance(parsed, Resign), "the game reads `resign` before it looks at the table"
    if isinstance(parsed, Place):
        if parsed.card not in hand:
            raise IllegalMoveError(Message("kasino.refused.not-in-hand", {"card": parsed.card}))
        return parsed
    card, verb, groups = parsed
    if card not in hand:
        raise IllegalMoveError(Message("kasino.refused.not-in-hand", {"card": card}))
    if verb != "take" and not building:  # KV4: said before looking for the item a build or raise names
        raise IllegalMoveError(Message("kasino.refused.building-off", {"card": card}))
    named: list[TableItem] = []
    keyed = []
    for group in groups:
        keys = []
        for ref in group:
            item = _item_for(ref, card, verb, hand, table)
            if item in named:
                raise IllegalMoveError(Message("kasino.refused.named-twice", {"item": item_label(item)}))
            named.append(item)
            keys.append(item.key)
        keyed.append(keys)
    return make_move(card, verb, keyed)


def _item_for(ref: Ref, card: Card, verb: str, hand: Sequence[Card], table: Sequence[TableItem]) -> TableItem:
    if isinstance(ref, Card):
        item = find_item(table, ref)
        if item is None:
            where = "kasino.refused.in-hand-not-table" if ref in hand else "kasino.refused.not-on-table"
            raise IllegalMoveError(Message(where, {"card": ref}))
        return item
    kinds, none_worth = _VALUE_KINDS[verb]
    candidates = [item for item in table if item.value == ref and item.kind in kinds]
    if not candidates:
        raise IllegalMoveError(Message(none_worth, {"value": ref}))
    if len(candidates) > 1:
        items = Joined(tuple(item_label(item) for item in candidates), "join.comma")
        params: dict[str, Param] = {"count": len(candidates), "value": ref, "items": items}
        example: dict[str, Param] = {"card": card, "verb": verb, "key": candidates[0].key}  # “5♥ take 7♣”
        raise AmbiguousMoveError(Message("kasino.refused.ambiguous-value", params | example))
    return candidates[0]
