"""Frozen dataclasses of plain values (a game's settings, a score line) as JSON-safe dicts, field by field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, ClassVar, Self

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # by record type: snapshots write records after every move


def field_names(record_type: type) -> tuple[str, ...]:
    """The field names of the dataclass `record_type`, in declaration order."""
    names = _FIELD_NAMES.get(record_type)
    if names is None:
        names = _FIELD_NAMES[record_type] = tuple(item.name for item in fields(record_type))
    return names


def record_to_dict(record: object) -> dict[str, Any]:
    """Every field by its name; not `dataclasses.asdict`, which deep-copies each value."""
    return {name: getattr(record, name) for name in field_names(type(record))}


class SettingsRecord:
    """Base of a game's settings, a frozen dataclass of plain values: stored field by field, missing keys default."""

    __slots__ = ()
    GAME: ClassVar[str]  # the game's name, for the message about an unknown key

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return record_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Self:
        """Inverse of `to_dict`; missing keys take their defaults, `None` gives all defaults.

        Raises:
            ValueError: an unknown key or a value out of range.
        """
        data = dict(data or {})
        unknown = set(data) - set(field_names(cls))
        if unknown:
            raise ValueError(f"unknown {cls.GAME} settings: {', '.join(sorted(unknown))}")
        return cls(**data)
