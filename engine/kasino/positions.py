"""Reading a hand-written Kasino position (for tests and bug reports) into cards and table items."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, parse_cards
from engine.kasino.table import BUILD, LOOSE, PILE, TableItem, table_value

CardsSpec = str | Sequence[Card]
ItemSpec = str | Card | Mapping[str, Any]


def cards_from_spec(spec: CardsSpec) -> list[Card]:
    """Cards from text (`"5♥ 2♠"`, `"5h,2s"`) or a sequence of `Card`.

    Raises:
        InvalidMoveError: a word is not a card.
    """
    return list(parse_cards(spec)) if isinstance(spec, str) else list(spec)


def item_from_spec(spec: ItemSpec) -> TableItem:
    """A table item from its readable form.

    - `"8♣"` (or a `Card`): a loose card;
    - `"7♣ 7♦"` (two or more cards of one table value): a pile, first card at the bottom;
    - `{"build": "10♣ 5♥", "owner": 0}`: a build; optional `"value"` (default: the sum of the cards'
      table values), `"contributors"` (default: just the owner) and `"doubled"` (default False).

    Raises:
        ValueError: the spec does not describe an item the rules could produce.
    """
    if isinstance(spec, Card):
        return TableItem.loose(spec)
    if isinstance(spec, str):
        cards = cards_from_spec(spec)
        item = TableItem.loose(cards[0]) if len(cards) == 1 else TableItem(PILE, tuple(cards), table_value(cards[0]))
    elif isinstance(spec, Mapping) and "build" in spec:
        unknown = set(spec) - {"build", "owner", "value", "contributors", "doubled"}
        if unknown:
            raise ValueError(f"unknown build fields: {', '.join(sorted(unknown))}")
        cards = cards_from_spec(spec["build"])
        owner = int(spec["owner"])
        value = int(spec.get("value", sum(table_value(card) for card in cards)))
        contributors = tuple(sorted({owner, *spec.get("contributors", ())}))
        item = TableItem(BUILD, tuple(cards), value, owner, contributors, bool(spec.get("doubled", False)))
    else:
        raise ValueError(f"a table item is a card, a pile like “7♣ 7♦” or {{'build': ..., 'owner': ...}}, not {spec!r}")
    item.check()
    return item


def describe_item(item: TableItem) -> ItemSpec:
    """The readable form `item_from_spec` reads back (used in bug reports)."""
    if item.kind == LOOSE:
        return str(item.key)
    cards = " ".join(str(card) for card in item.cards)
    if item.kind == PILE:
        return cards
    return {"build": cards, "owner": item.owner, "value": item.value, "contributors": list(item.contributors),
            "doubled": item.doubled}  # fmt: skip
