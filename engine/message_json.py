"""Messages as JSON-safe data, as narration is stored: `{"id": ..., "params": {...}}`, each parameter tagged.

>>> from engine.message import Seat
>>> message = Message("shared.resigned", {"player": Seat(1)})
>>> from_json(to_json(message)) == message
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import Card
from engine.message import CardParam, Count, Joined, Message, Param, Seat


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
    if isinstance(value, CardParam):
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
