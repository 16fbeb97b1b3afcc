"""What the engine says, as data: a message id and its parameters, never a sentence.

The presenters put a `Message` into words for one language (`i18n.render_message`); the catalogs hold the words.
Parameters are typed so the presenter knows how to say each one: a `Seat` by the player's name, a `Card` as the
locale writes it, a `Count` with its noun in the right plural form, a `Joined` list with the language's separators,
a nested `Message` (a move's words inside a sentence), a plain number, or `None` for an optional part left out.

Messages have a JSON-safe form (`engine.message_json`), so narration is stored as ids and parameters and a game's
history can be told in any language later. Refusals are messages too: every `GameError` carries one.

This module imports nothing of the engine, so every engine module may say things with it: a card is any
`CardParam` (`engine.cards.Card` is one), since the cards' own refusal ("… is not a card") is a message too.

>>> Message("shared.resigned", {"player": Seat(1)})
Message(id='shared.resigned', params={'player': Seat(seat=1)})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias


class CardParam:
    """A card in a message, said as the locale writes cards: the base of `engine.cards.Card` (no fields of its own)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Seat:
    """A player, said by their name."""

    seat: int


@dataclass(frozen=True, slots=True)
class Count:
    """`n` of a noun ("1 card", "3 cards"): the catalog's entry `count.<noun>` has the plural forms."""

    n: int
    noun: str


@dataclass(frozen=True, slots=True)
class Joined:
    """Several parameters said as one list: between each two the catalog's `sep`, before the last its `last`."""

    items: tuple[Param, ...]
    sep: str
    last: str | None = None


@dataclass(frozen=True, slots=True)
class Message:
    """A message id and its parameters; the catalogs say it in words."""

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)


Param: TypeAlias = "int | str | CardParam | Seat | Count | Joined | Message | None"
"""A parameter's value: `str` only for text the players wrote (a name) or old narration stored as text."""

STORED_TEXT = "shared.stored-text"
"""Narration stored as English text before messages were data (migration 0010): shown as it was."""


def cards(items: Sequence[CardParam]) -> Joined:
    """Cards in a row, as a hand or the table lists them: "7♣ 7♦ A♠"."""
    return Joined(tuple(items), "join.space")


def seats(items: tuple[int, ...] | list[int]) -> Joined:
    """Players by name: "Kari", "Kari and Ola", "Kari, Ola and Nora"."""
    return Joined(tuple(Seat(seat) for seat in items), "join.comma", "join.and")


def log_text(message: Message) -> str:
    """The message as one line for logs and test failures, words left out: `kasino.refused.not-in-hand(card=3♥)`."""
    if not message.params:
        return message.id
    return f"{message.id}({', '.join(f'{name}={_log_param(value)}' for name, value in message.params.items())})"


def _log_param(value: Param) -> str:
    if isinstance(value, Message):
        return log_text(value)
    if isinstance(value, Joined):
        return "[" + ", ".join(_log_param(item) for item in value.items) + "]"
    if isinstance(value, str):
        return repr(value)
    return str(value)
