"""Kasino moves (K5-K11) and their compact notation.

Canonical notation names every table item by one card (its key, `TableItem.key`), so it needs no
table to read back:

>>> KasinoMove.parse("5h take 3d+ah+as")
KasinoMove.parse('5♥ take 3♦+A♥+A♠')
>>> str(KasinoMove.parse("8♠ take 8♣ | 5♦+3♥"))
'8♠ take 8♣ | 5♦+3♥'
>>> KasinoMove.parse("7♦ double 7♣") == Double(Card.parse("7♦"), Card.parse("7♣"))
True

`game.parse_move` also reads items named by any of their cards or by their value (`3♣ raise 6`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar, Final

from engine.cards import Card
from engine.core import RESIGN, Rejoin, Resign, is_resign
from engine.errors import InvalidMoveError
from engine.kasino.table import notation_order
from engine.message import Message

Ref = Card | int  # a table item named by one of its cards, or by its value

_VERBS: Final = {
    "take": "take", "takes": "take", "capture": "take", "captures": "take",
    "build": "build", "builds": "build",
    "raise": "raise", "raises": "raise",
    "double": "double", "doubles": "double",
    "place": "place", "places": "place", "trail": "place",
}  # fmt: skip
_MOVE_RE: Final = re.compile(r"^(?P<card>\S+)\s+(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$")
_GROUP_SPLIT: Final = re.compile(r"\|")
_REF_SPLIT: Final = re.compile(r"[\s,+]+")
_VALUE_RE: Final = re.compile(r"^[0-9]{1,2}$")
_HELP: Final = Message("kasino.refused.move-help")  # how a move is written, said after "… is not a move"


class KasinoMove:
    """Base of every Kasino move; `str(move)` is its canonical notation."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> CardMove | Resign:
        """Read canonical (or ASCII-typed) notation without a table; items must be named by a card.

        Raises:
            InvalidMoveError: the text is not a move, or names an item by value (use `game.parse_move`).
        """
        parsed = parse_notation(text)
        if isinstance(parsed, Place | Resign):
            return parsed
        card, verb, groups = parsed
        for group in groups:
            for ref in group:
                if not isinstance(ref, Card):
                    raise InvalidMoveError(Message("kasino.refused.value-needs-table", {"value": ref}))
        cards = [[ref for ref in group if isinstance(ref, Card)] for group in groups]
        return make_move(card, verb, cards)

    def __repr__(self) -> str:
        return f"KasinoMove.parse({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Take(KasinoMove):
    """K6: play `card` and take the table items named by `targets` (one key card per item).

    Two takes of the same items are the same move: `groups` only says how to show the split into
    sums and takes no part in equality.
    """

    card: Card
    targets: frozenset[Card]
    groups: tuple[tuple[Card, ...], ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        groups = self.groups or (tuple(sorted(self.targets, key=notation_order)),)
        return f"{self.card} take " + " | ".join("+".join(str(card) for card in group) for group in groups)


# Slot descriptors of the frozen dataclass, read from the class dict (so they type as what they are, untyped).
_new_move = object.__new__
_set_take_card = Take.__dict__["card"].__set__
_set_take_targets = Take.__dict__["targets"].__set__
_set_take_groups = Take.__dict__["groups"].__set__


def listed_take(card: Card, targets: frozenset[Card], groups: tuple[tuple[Card, ...], ...]) -> Take:
    """`Take(card, targets, groups)`, made faster for `legal_moves`, which lists hundreds on a crowded table.

    It fills the slots directly: the frozen dataclass `__init__` spends most of its time working around
    its own immutability, and `Take` has no `__post_init__` checks to skip. Kept because it pays: about
    10% of `legal_moves` on the benchmark's worst-case table, which has under 1 ms to list 396 moves.
    """
    take = _new_move(Take)
    _set_take_card(take, card)
    _set_take_targets(take, targets)
    _set_take_groups(take, groups)
    return take


@dataclass(frozen=True, slots=True, repr=False)
class OntoItem(KasinoMove):
    """Play `card` onto the one table item named by `target`: the shared form of `Build`, `Raise` and `Double`.

    Only its subclasses are moves; each names its verb, and two of them are never equal (dataclass equality).
    """

    VERB: ClassVar[str]
    card: Card
    target: Card

    def __str__(self) -> str:
        return f"{self.card} {self.VERB} {self.target}"


class Build(OntoItem):
    """K7: play `card` onto the loose card or pile named by `target`, making a build."""

    __slots__ = ()
    VERB = "build"


class Raise(OntoItem):
    """K8: play `card` onto another player's build named by `target`."""

    __slots__ = ()
    VERB = "raise"


class Double(OntoItem):
    """K9/K10: play `card` onto an equal-valued loose card, pile or build named by `target`."""

    __slots__ = ()
    VERB = "double"


@dataclass(frozen=True, slots=True, repr=False)
class Place(KasinoMove):
    """K11: put `card` on the table as a loose card."""

    card: Card

    def __str__(self) -> str:
        return f"{self.card} place"


StackMove = Build | Raise | Double  # moves that put a hand card onto a table item
CardMove = Take | StackMove | Place  # moves that play a hand card
KasinoPlay = CardMove | Resign | Rejoin  # every move of the game (`Resign` is the one both games share)
_ONTO_ITEM: Final = {move.VERB: move for move in (Build, Raise, Double)}


def parse_notation(text: str) -> Resign | Place | tuple[Card, str, list[list[Ref]]]:
    """Split typed notation into hand card, verb and item references (cards or values), by group.

    Raises:
        InvalidMoveError: the text is not a move.
    """
    if is_resign(text):
        return RESIGN
    cleaned = " ".join(text.strip().lower().split())
    match = _MOVE_RE.match(cleaned)
    if match is None:
        raise InvalidMoveError(Message("kasino.refused.not-a-move", {"text": text.strip(), "help": _HELP}))
    card = Card.parse(match["card"])
    verb = _VERBS.get(match["verb"])
    if verb is None:
        raise InvalidMoveError(Message("kasino.refused.not-an-action", {"verb": match["verb"], "help": _HELP}))
    rest = match["rest"]
    if verb == "place":
        if rest:
            raise InvalidMoveError(Message("kasino.refused.place-names-nothing", {"card": card}))
        return Place(card)
    groups = [[_parse_ref(part) for part in _REF_SPLIT.split(group.strip()) if part]
              for group in _GROUP_SPLIT.split(rest)]  # fmt: skip
    groups = [group for group in groups if group]
    if not groups:
        raise InvalidMoveError(Message("kasino.refused.say-which-item", {"card": card, "verb": verb}))
    if verb != "take" and (len(groups) > 1 or len(groups[0]) > 1):
        raise InvalidMoveError(Message("kasino.refused.one-item-only", {"card": card, "verb": verb}))
    return card, verb, groups


def make_move(card: Card, verb: str, groups: list[list[Card]]) -> CardMove:
    """The move for a hand card, a verb (`take`, `build`, `raise`, `double`) and the key cards it names.

    Raises:
        InvalidMoveError: a take names the same card twice.
    """
    if verb == "take":
        targets = [target for group in groups for target in group]
        if len(set(targets)) != len(targets):
            raise InvalidMoveError(Message("kasino.refused.named-twice-in-take"))
        return Take(card, frozenset(targets), tuple(tuple(group) for group in groups))
    return _ONTO_ITEM[verb](card, groups[0][0])


def _parse_ref(text: str) -> Ref:
    if _VALUE_RE.match(text):
        return int(text)
    return Card.parse(text)
