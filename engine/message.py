"""What the engine says, as data: a message id and its parameters, never a sentence.

The presenters put a `Message` into words for one language (`i18n.render_message`); the catalogs hold the words.
Parameters are typed so the presenter knows how to say each one: a `Seat` by the player's name, a `Card` as the
locale writes it, a `Count` with its noun in the right plural form, a `Joined` list with the language's separators,
a nested `Message` (a move's words inside a sentence), a plain number, or `None` for an optional part left out.

Messages have a JSON-safe form (`to_json` / `from_json`), so narration is stored as ids and parameters and a game's
history can be told in any language later.

>>> message = Message("shared.resigned", {"player": Seat(1)})
>>> from_json(to_json(message)) == message
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from engine.cards import Card


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


Param: TypeAlias = "int | str | Card | Seat | Count | Joined | Message | None"
"""A parameter's value: `str` only for text the players wrote (a name) or old narration stored as text."""

STORED_TEXT = "shared.stored-text"
"""Narration stored as English text before messages were data (migration 0010): shown as it was."""


def cards(items: tuple[Card, ...] | list[Card]) -> Joined:
    """Cards in a row, as a hand or the table lists them: "7♣ 7♦ A♠"."""
    return Joined(tuple(items), "join.space")


def seats(items: tuple[int, ...] | list[int]) -> Joined:
    """Players by name: "Kari", "Kari and Ola", "Kari, Ola and Nora"."""
    return Joined(tuple(Seat(seat) for seat in items), "join.comma", "join.and")


def to_json(message: Message) -> dict[str, Any]:
    """The message as JSON-safe data: `{"id": ..., "params": {...}}`, each parameter tagged by its type."""
    return {"id": message.id, "params": {name: _param_to_json(value) for name, value in message.params.items()}}


def from_json(data: Mapping[str, Any]) -> Message:
    """The message `to_json` wrote.

    Raises:
        ValueError: the data is not a stored message.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("id"), str):
        raise ValueError(f"not a stored message: {data!r}")
    params = data.get("params", {})
    if not isinstance(params, Mapping):
        raise ValueError(f"not a stored message: {data!r}")
    return Message(data["id"], {str(name): _param_from_json(value) for name, value in params.items()})


def _param_to_json(value: Param) -> Any:
    # Plain numbers, text and None stay as they are; every other type is an object with one tag key.
    if value is None or isinstance(value, int | str):
        return value
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, Seat):
        return {"seat": value.seat}
    if isinstance(value, Count):
        return {"count": value.n, "noun": value.noun}
    if isinstance(value, Joined):
        return {"join": [_param_to_json(item) for item in value.items], "sep": value.sep, "last": value.last}
    return {"message": to_json(value)}


def _param_from_json(value: Any) -> Param:
    if value is None or isinstance(value, int | str):
        return value
    if isinstance(value, Mapping):
        if "card" in value:
            return Card.parse(value["card"])
        if "seat" in value:
            return Seat(int(value["seat"]))
        if "count" in value:
            return Count(int(value["count"]), str(value["noun"]))
        if "join" in value:
            items = tuple(_param_from_json(item) for item in value["join"])
            return Joined(items, str(value["sep"]), None if value.get("last") is None else str(value["last"]))
        if "message" in value:
            return from_json(value["message"])
    raise ValueError(f"not a stored message parameter: {value!r}")
