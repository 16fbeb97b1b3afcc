"""Frozen dataclasses of plain values (a game's settings, a score line) as JSON-safe dicts, field by field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

RecordT = TypeVar("RecordT")


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


def settings_from_dict(settings_type: type[RecordT], title: str, data: Mapping[str, Any] | None) -> RecordT:
    """Settings from `record_to_dict`'s form: missing keys take their defaults, `None` gives all defaults.

    Raises:
        ValueError: a key that is no field ("unknown Kasino settings: …", with the game's `title`), or a value the
            settings refuse.
    """
    data = dict(data or {})
    unknown = set(data) - set(field_names(settings_type))
    if unknown:
        raise ValueError(f"unknown {title} settings: {', '.join(sorted(unknown))}")
    return settings_type(**data)
