"""Conversions between Python values and the column formats of the schema (times, JSON, rows to records)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from db.records import GameRecord, MoveRecord, SeatRecord, TurnClock
from engine.message import Message
from engine.message_json import from_json as message_from_json
from engine.message_json import to_json as message_to_json

_GAME_COLUMN_NAMES: Final = (
    "id", "kind", "guild_id", "channel_id", "thread_id", "lobby_message_id", "table_message_id", "ping_message_id",
    "status", "host_id", "settings", "seed", "max_seats", "state", "version", "deadline", "warned", "created_at",
    "updated_at", "finished_at", "move_count", "turn_seconds", "afk_limit", "narration", "shown_version", "shown_moves",
    "ping_user_id", "warning_message_id", "shown_notices", "timer_at", "dm_notice_message_id",
)  # fmt: skip
_SEAT_COLUMN_NAMES: Final = (
    "seat", "user_id", "name", "is_computer", "dm_ok", "auto_streak", "hand_message_id", "strength", "dm_channel_id",
    "panel",
)  # fmt: skip
# A game's seats as one JSON array, so that one statement (a SELECT, or an UPDATE's RETURNING) yields a whole game:
# every aiosqlite call is a round trip to its thread, and a move should cost as few as possible.
SEATS_JSON: Final = (
    f"(SELECT json_group_array(json_array({', '.join(_SEAT_COLUMN_NAMES)})) FROM seats WHERE seats.game_id = games.id)"
)
# PostgreSQL's way of saying SEATS_JSON (`db.postgres.connection` puts it in its place).
SEATS_JSON_POSTGRES: Final = (
    f"(SELECT COALESCE(json_agg(json_build_array({', '.join(_SEAT_COLUMN_NAMES)}) ORDER BY seat), '[]')::text "
    "FROM seats WHERE seats.game_id = games.id)"
)
GAME_COLUMNS: Final = ", ".join((*_GAME_COLUMN_NAMES, SEATS_JSON))
# The same without the snapshot, for when the caller already holds it (saves decoding it again).
GAME_COLUMNS_NO_STATE: Final = ", ".join(
    (*("NULL AS state" if name == "state" else name for name in _GAME_COLUMN_NAMES), SEATS_JSON)
)
# The same with the snapshot and the narration only when the game is not at the version given as the first two
# parameters: the caller holds the game at that version already, and is about to change it (so has no use for the
# narration of the last change, which costs more to decode than the rest of the row).
_UNLESS_VERSION: Final = {
    "state": "CASE WHEN version = ? THEN NULL ELSE state END",
    "narration": "CASE WHEN version = ? THEN NULL ELSE narration END",
}
GAME_COLUMNS_UNLESS_VERSION: Final = ", ".join(
    (*(_UNLESS_VERSION.get(name, name) for name in _GAME_COLUMN_NAMES), SEATS_JSON)
)
SEAT_COLUMNS: Final = ", ".join(_SEAT_COLUMN_NAMES)
MOVE_COLUMNS: Final = "seq, seat, move, auto, created_at"


def time_to_text(moment: datetime) -> str:
    """ISO 8601 in UTC with microseconds, so text order is time order.

    Raises:
        ValueError: a naive datetime (the bot's clock must say it is UTC).
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{moment!r} has no time zone; pass an aware UTC datetime")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def optional_time_to_text(moment: datetime | None) -> str | None:
    """`time_to_text`, passing None through."""
    return None if moment is None else time_to_text(moment)


def text_to_time(text: str) -> datetime:
    """Inverse of `time_to_text`: an aware UTC datetime."""
    return datetime.fromisoformat(text).astimezone(UTC)


def optional_text_to_time(text: str | None) -> datetime | None:
    """Inverse of `optional_time_to_text`: an aware UTC datetime, or None."""
    return None if text is None else text_to_time(text)


def to_json(value: Any) -> str:
    """Compact JSON text (UTF-8, not escaped) for a settings, state or narration column."""
    try:
        # orjson writes what json.dumps(ensure_ascii=False, separators=(",", ":")) writes, several times faster: a
        # move writes its snapshot and narration, and reads a game's seats, settings and narration.
        return orjson.dumps(value).decode()
    except TypeError:  # an integer beyond 64 bits (an imported game's seed, say): the standard library writes it
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def from_json(text: str | bytes) -> Any:
    """The value of JSON text whose integers fit in 64 bits: the seats', settings' and narration's columns.

    orjson reads several times faster than the standard library, but reads a larger integer as a float, so a
    snapshot (whose seed may be any integer) is read by `json.loads`.
    """
    return orjson.loads(text)


def seat_from_row(row: Sequence[Any]) -> SeatRecord:
    """A `SeatRecord` from a row selected with `SEAT_COLUMNS`."""
    seat, user_id, name, is_computer, dm_ok, auto_streak, hand_message_id, strength, dm_channel_id, panel = row
    return SeatRecord(
        seat, user_id, name, bool(is_computer), bool(dm_ok), auto_streak, hand_message_id, strength, dm_channel_id,
        panel,
    )  # fmt: skip


def move_from_row(row: Sequence[Any]) -> MoveRecord:
    """A `MoveRecord` from a row selected with `MOVE_COLUMNS`."""
    seq, seat, move, auto, created_at = row
    return MoveRecord(seq, seat, move, bool(auto), text_to_time(created_at))


def game_from_row(
    row: sqlite3.Row | Sequence[Any], *, known_state: dict[str, Any] | None = None, tolerate_bad_state: bool = False
) -> GameRecord:
    """A `GameRecord` from a row selected with `GAME_COLUMNS`, or with `GAME_COLUMNS_NO_STATE` plus `known_state`.

    Raises:
        ValueError: the snapshot is not JSON (unless `tolerate_bad_state`, which gives `state=None` instead).
    """
    column = dict(zip((*_GAME_COLUMN_NAMES, "seats"), row, strict=True))
    seats = (seat_from_row(seat) for seat in from_json(column["seats"]))
    state = column["state"]
    return GameRecord(
        id=column["id"],
        kind=column["kind"],
        guild_id=column["guild_id"],
        channel_id=column["channel_id"],
        thread_id=column["thread_id"],
        lobby_message_id=column["lobby_message_id"],
        table_message_id=column["table_message_id"],
        ping_message_id=column["ping_message_id"],
        status=column["status"],
        host_id=column["host_id"],
        settings=from_json(column["settings"]),
        seed=int(column["seed"]),
        seats=tuple(sorted(seats, key=lambda seat: seat.seat)),
        state=known_state if known_state is not None else _state_from_text(state, tolerate_bad_state),
        version=column["version"],
        timer=timer_from_columns(column["deadline"], column["warned"], column["timer_at"]),
        created_at=text_to_time(column["created_at"]),
        updated_at=text_to_time(column["updated_at"]),
        finished_at=optional_text_to_time(column["finished_at"]),
        max_seats=column["max_seats"],
        move_count=column["move_count"],
        turn_seconds=column["turn_seconds"],
        afk_limit=column["afk_limit"],
        narration=narration_from_json(column["narration"]),
        shown_version=column["shown_version"],
        shown_moves=column["shown_moves"],
        ping_user_id=column["ping_user_id"],
        warning_message_id=column["warning_message_id"],
        dm_notice_message_id=column["dm_notice_message_id"],
        shown_notices=column["shown_notices"],
    )


def timer_from_columns(deadline: str | None, warned: object, timer_at: str | None) -> TurnClock:
    """A turn's timer from its columns `deadline`, `warned` and `timer_at`."""
    return TurnClock.stored(optional_text_to_time(deadline), bool(warned), optional_text_to_time(timer_at))


def timer_to_columns(timer: TurnClock) -> tuple[str | None, bool, str | None]:
    """The columns `deadline`, `warned` and `timer_at` of a turn's timer."""
    return optional_time_to_text(timer.deadline), timer.warned, optional_time_to_text(timer.due_at)


def _state_from_text(text: str | None, tolerate_bad_state: bool) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        state: dict[str, Any] = json.loads(text)  # exact for integers of any size (see `from_json`)
    except ValueError:
        if tolerate_bad_state:
            return None
        raise
    return state


def narration_to_json(narration: Sequence[Message]) -> str:
    """A game's narration for its column: a JSON list of messages (`engine.message_json.to_json`)."""
    return to_json([message_to_json(message) for message in narration])


def narration_from_json(text: str | None) -> tuple[Message, ...]:
    """The narration `narration_to_json` wrote (old sentences come as `shared.stored-text`, migration 0010)."""
    return tuple(message_from_json(line) for line in from_json(text)) if text else ()
