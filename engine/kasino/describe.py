"""Kasino moves in words, for menus and for the turns played for resigned seats."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Resign
from engine.kasino.moves import Build, Double, KasinoPlay, Place, Raise, Take
from engine.kasino.rules import find_item
from engine.kasino.table import LOOSE, TableItem, table_value


def describe_move(table: Sequence[TableItem], move: KasinoPlay) -> str:
    """The move in words: "5♥ takes 3♦ A♥ A♠", "5♥ builds 15 on 10♣", "Q♠ is placed on the table"."""
    if isinstance(move, Resign):
        return "Resign from the game"
    if isinstance(move, Place):
        return f"{move.card} is placed on the table"
    if isinstance(move, Take):
        return _describe_take(table, move)
    target = find_item(table, move.target)
    if target is None:
        return str(move)
    worth = table_value(move.card)
    if isinstance(move, Build):
        onto = str(target.key) if target.kind == LOOSE else f"the {target.value} pile"
        return f"{move.card} builds {worth + target.value} on {onto}"
    if isinstance(move, Raise):
        return f"{move.card} raises the {target.value} build to {worth + target.value}"
    assert isinstance(move, Double)
    what = str(target.key) if target.kind == LOOSE else f"the {target.value} {target.kind}"
    return f"{move.card} doubles {what}"


def _describe_take(table: Sequence[TableItem], move: Take) -> str:
    items = [item for item in (find_item(table, target) for target in move.targets) if item]
    if len(items) != len(move.targets):
        return str(move)
    items.sort(key=list(table).index)
    parts = [" ".join(str(card) for item in items if not item.is_build for card in item.cards)]
    parts += [f"the {item.value} build" for item in items if item.is_build]
    return f"{move.card} takes {' and '.join(part for part in parts if part)}"
