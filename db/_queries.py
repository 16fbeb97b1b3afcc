"""Small SQL building blocks shared by the store's methods; every function runs on the caller's connection."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from db._codec import (
    GAME_COLUMNS,
    GAME_COLUMNS_UNLESS_VERSION,
    MOVE_COLUMNS,
    game_from_row,
    move_from_row,
    narration_from_json,
    text_to_time,
    time_to_text,
)
from db.errors import GameNotFoundError
from db.records import GameRecord, MoveRecord, Occupant, SeatChange, SeatRecord
from db.sql import Connection

# Columns the keyword-style updates may touch; anything else is a programming error.
UPDATABLE: Final = {
    "games": frozenset(
        {
            "lobby_message_id",
            "thread_id",
            "table_message_id",
            "ping_message_id",
            "ping_user_id",
            "warning_message_id",
            "dm_notice_message_id",
        }
    ),
    "seats": frozenset({"dm_ok", "auto_streak", "hand_message_id", "dm_channel_id", "panel"}),
}


def marks(values: Sequence[object]) -> str:
    """One "?" per value for an IN list; the values themselves travel as parameters.

    Raises:
        ValueError: no values (SQL has no empty IN list).
    """
    if not values:
        raise ValueError("an IN list needs at least one value")
    return ", ".join("?" * len(values))


def game_columns(unless_version: int | None) -> tuple[str, tuple[int, ...]]:
    """The columns that read a game and its seats (see `fetch_game`), and the parameters they take first."""
    if unless_version is None:
        return GAME_COLUMNS, ()
    return GAME_COLUMNS_UNLESS_VERSION, (unless_version, unless_version)


async def fetch_game(
    conn: Connection, game_id: int, *, tolerate_bad_state: bool = False, unless_version: int | None = None
) -> GameRecord:
    """The game with its seats; without its snapshot (`state` None) and narration if it is at `unless_version`.

    Raises:
        GameNotFoundError: no game has this id.
    """
    columns, parameters = game_columns(unless_version)
    rows = await conn.execute_fetchall(f"SELECT {columns} FROM games WHERE id = ?", (*parameters, game_id))
    if not rows:
        raise GameNotFoundError(game_id)
    return game_from_row(next(iter(rows)), tolerate_bad_state=tolerate_bad_state)


async def fetch_games(conn: Connection, where: str, args: Sequence[Any]) -> list[GameRecord]:
    """Games matching `where` (a fixed SQL condition with `?` marks for `args`), oldest first, with their seats."""
    rows = await conn.execute_fetchall(f"SELECT {GAME_COLUMNS} FROM games WHERE {where} ORDER BY id", args)
    return [game_from_row(row) for row in rows]


async def fetch_moves(conn: Connection, game_id: int) -> list[MoveRecord]:
    """The game's move log in order."""
    rows = await conn.execute_fetchall(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
    return [move_from_row(row) for row in rows]


async def fetch_seat_changes(conn: Connection, game_id: int) -> list[SeatChange]:
    """The game's seat changes in order (migration 0013)."""
    rows = await conn.execute_fetchall(
        """SELECT number, seat, after_move, from_user_id, from_name, from_strength, to_user_id, to_name, to_strength,
                  host_id, narration, created_at
           FROM seat_changes WHERE game_id = ? ORDER BY number""",
        (game_id,),
    )
    return [
        SeatChange(
            number=row[0],
            seat=row[1],
            after_move=row[2],
            before=Occupant(row[3], row[4], row[5]),
            after=Occupant(row[6], row[7], row[8]),
            host_id=row[9],
            narration=narration_from_json(row[10]),
            created_at=text_to_time(row[11]),
        )
        for row in rows
    ]


async def rewrite_seats(conn: Connection, game_id: int, seats: Sequence[SeatRecord]) -> None:
    """Replace the game's seats by `seats`, numbered 0.. in the given order (only before any move is logged)."""
    await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    await conn.executemany(
        """INSERT INTO seats (game_id, seat, user_id, name, is_computer, dm_ok, auto_streak, hand_message_id,
                              strength)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                game_id,
                number,
                seat.user_id,
                seat.name,
                seat.is_computer,
                seat.dm_ok,
                seat.auto_streak,
                seat.hand_message_id,
                seat.strength,
            )
            for number, seat in enumerate(seats)
        ],
    )


async def touch(conn: Connection, game_id: int, now: datetime) -> None:
    """Bump the game's version and stamp `updated_at` (the lobby changed)."""
    await conn.execute(
        "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ?", (time_to_text(now), game_id)
    )


async def update_given(
    conn: Connection, table: str, changes: Mapping[str, object], where: str, args: Sequence[Any]
) -> bool:
    """Set the columns in `changes` on the rows matching `where`; False when no row matched.

    Raises:
        ValueError: a column that may not be changed this way.
    """
    unknown = set(changes) - UPDATABLE[table]
    if unknown:
        raise ValueError(f"{table} columns {sorted(unknown)} cannot be changed here")
    if not changes:
        rows = await conn.execute_fetchall(f"SELECT 1 FROM {table} WHERE {where}", args)
        return bool(rows)
    # Column names come from the whitelist above; the values travel as parameters.
    assignments = ", ".join(f"{column} = ?" for column in changes)
    cursor = await conn.execute(f"UPDATE {table} SET {assignments} WHERE {where}", (*changes.values(), *args))
    return cursor.rowcount > 0
