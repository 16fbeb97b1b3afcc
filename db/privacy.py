"""A member's stored data (issue 45): what `/privacy show` sends them, and forgetting them on `/privacy forget`.

Forgetting keeps every game whole, so that each still replays: the member's seats stay, under an id Discord never
gives and the name "a former player" (`db.records.former_player_id`, `FORMER_PLAYER_NAME`); the seat changes they
were part of and the games they hosted likewise; stored narration that carried their name as text carries the
message `privacy.former-player` instead. Their result rows and ratings (their stats) are deleted, so no leaderboard
or `/stats` answer lists them, and nobody else's figures change.

A server's data is likewise deleted a while after the bot leaves it (`departed_guilds`, `purge_guild`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Final

from db._codec import narration_from_json, narration_to_json, text_to_time, time_to_text
from db.records import FORMER_PLAYER_BASE, FORMER_PLAYER_MESSAGE, FORMER_PLAYER_NAME, Forgotten, MemberData
from db.sql import Connection
from engine.message import STORED_TEXT, Joined, Message, Param

# Deleting a server's data: children first (the foreign keys would cascade too; explicit, in case they are off).
_PURGE: Final = (
    "DELETE FROM seat_changes WHERE game_id IN (SELECT id FROM games WHERE guild_id = ?)",
    "DELETE FROM results WHERE guild_id = ?",
    "DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE guild_id = ?)",
    "DELETE FROM seats WHERE game_id IN (SELECT id FROM games WHERE guild_id = ?)",
    "DELETE FROM games WHERE guild_id = ?",
    "DELETE FROM ratings WHERE guild_id = ?",
    "DELETE FROM guild_settings WHERE guild_id = ?",
    "DELETE FROM house_rule_presets WHERE guild_id = ?",
    "DELETE FROM departed_guilds WHERE guild_id = ?",
)


def _rows(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(dict(zip(columns, row, strict=True)) for row in rows)


async def member_data(conn: Connection, user_id: int) -> MemberData:
    """Every row stored under `user_id`: seats with their games and results, seat changes, hosted games, ratings."""
    games = _rows(
        ("game", "kind", "server", "channel", "status", "seat", "name", "opened", "finished", "place", "score"),
        await conn.execute_fetchall(
            """SELECT g.id, g.kind, g.guild_id, g.channel_id, g.status, s.seat, s.name, g.created_at, g.finished_at,
                      r.place, r.score
               FROM seats AS s JOIN games AS g ON g.id = s.game_id
               LEFT JOIN results AS r ON r.game_id = s.game_id AND r.user_id = s.user_id
               WHERE s.user_id = ? ORDER BY g.id""",
            (user_id,),
        ),
    )
    changes = _rows(
        ("game", "number", "seat", "after_move", "role", "name"),
        await conn.execute_fetchall(
            """SELECT game_id, number, seat, after_move,
                      CASE WHEN from_user_id = ? THEN 'left the seat'
                           WHEN to_user_id = ? THEN 'took the seat' ELSE 'host who allowed it' END,
                      CASE WHEN from_user_id = ? THEN from_name WHEN to_user_id = ? THEN to_name ELSE '' END
               FROM seat_changes WHERE from_user_id = ? OR to_user_id = ? OR host_id = ?
               ORDER BY game_id, number""",
            (user_id,) * 7,
        ),
    )
    hosted = tuple(
        int(row[0])
        for row in await conn.execute_fetchall("SELECT id FROM games WHERE host_id = ? ORDER BY id", (user_id,))
    )
    results = _rows(
        ("game", "server", "kind", "seat", "name", "place", "score", "rated", "rating_before", "rating_after",
         "finished"),
        await conn.execute_fetchall(
            """SELECT game_id, guild_id, kind, seat, name, place, score, rated, mu_before - 3 * sigma_before,
                      mu_after - 3 * sigma_after, finished_at
               FROM results WHERE user_id = ? ORDER BY finished_at, game_id""",
            (user_id,),
        ),
    )  # fmt: skip
    ratings = _rows(
        ("server", "kind", "rating", "mu", "sigma", "rated_games", "updated"),
        await conn.execute_fetchall(
            """SELECT guild_id, kind, mu - 3 * sigma, mu, sigma, rated_games, updated_at
               FROM ratings WHERE user_id = ? ORDER BY guild_id, kind""",
            (user_id,),
        ),
    )
    stats = _rows(
        ("server", "kind", "games", "wins", "points"),
        await conn.execute_fetchall(
            """SELECT guild_id, kind, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), SUM(score)
               FROM results WHERE user_id = ? GROUP BY guild_id, kind ORDER BY guild_id, kind""",
            (user_id,),
        ),
    )
    return MemberData(user_id, games, changes, hosted, results, ratings, stats)


async def forget_member(conn: Connection, user_id: int, names: Iterable[str] = ()) -> Forgotten:
    """Take `user_id` and their names (the stored ones, and `names`) out of every row; call inside a transaction.

    Their seats, seat changes and hosted games name a former player (see the module); their narration likewise;
    their results and ratings are deleted.
    """
    said = {name for name in names if name}
    said |= await _column(conn, "SELECT name FROM seats WHERE user_id = ?", user_id)
    said |= await _column(conn, "SELECT from_name FROM seat_changes WHERE from_user_id = ?", user_id)
    said |= await _column(conn, "SELECT to_name FROM seat_changes WHERE to_user_id = ?", user_id)
    said |= await _column(conn, "SELECT name FROM results WHERE user_id = ?", user_id)
    said.discard(FORMER_PLAYER_NAME)
    games: set[int] = set()
    for query in (
        "SELECT game_id FROM seats WHERE user_id = ?",
        "SELECT game_id FROM seat_changes WHERE from_user_id = ?1 OR to_user_id = ?1 OR host_id = ?1",
        "SELECT id FROM games WHERE host_id = ?1 OR ping_user_id = ?1",
        "SELECT game_id FROM results WHERE user_id = ?",
    ):
        games |= {int(game) for game in await _column(conn, query, user_id)}
    # The seat keeps the former holder's place in the game; how they were reached (their DM channel) goes.
    await conn.execute(
        """UPDATE seats SET user_id = seat + ?, name = ?, dm_channel_id = NULL, hand_message_id = NULL, panel = NULL
           WHERE user_id = ?""",
        (FORMER_PLAYER_BASE, FORMER_PLAYER_NAME, user_id),
    )
    for side in ("from", "to"):
        # `side` is one of two fixed words; every value travels as a parameter.
        await conn.execute(
            f"UPDATE seat_changes SET {side}_user_id = seat + ?, {side}_name = ? WHERE {side}_user_id = ?",
            (FORMER_PLAYER_BASE, FORMER_PLAYER_NAME, user_id),
        )
    await conn.execute("UPDATE seat_changes SET host_id = ? WHERE host_id = ?", (FORMER_PLAYER_BASE, user_id))
    await conn.execute("UPDATE games SET host_id = ? WHERE host_id = ?", (FORMER_PLAYER_BASE, user_id))
    await conn.execute("UPDATE games SET ping_user_id = NULL WHERE ping_user_id = ?", (user_id,))
    for game in sorted(games):
        await _scrub_narration(conn, game, said)
    results = await conn.execute("DELETE FROM results WHERE user_id = ?", (user_id,))
    ratings = await conn.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
    return Forgotten(tuple(sorted(games)), results.rowcount, ratings.rowcount)


async def _column(conn: Connection, query: str, value: Any) -> set[Any]:
    return {row[0] for row in await conn.execute_fetchall(query, (value,))}


async def _scrub_narration(conn: Connection, game_id: int, names: set[str]) -> None:
    """The game's stored narration, and its seat changes', with every one of `names` said as a former player."""
    rows = list(await conn.execute_fetchall("SELECT narration FROM games WHERE id = ?", (game_id,)))
    if rows and rows[0][0]:
        told = narration_from_json(rows[0][0])
        scrubbed = tuple(_scrubbed(message, names) for message in told)
        if scrubbed != told:
            await conn.execute("UPDATE games SET narration = ? WHERE id = ?", (narration_to_json(scrubbed), game_id))
    for number, text in await conn.execute_fetchall(
        "SELECT number, narration FROM seat_changes WHERE game_id = ?", (game_id,)
    ):
        told = narration_from_json(text)
        scrubbed = tuple(_scrubbed(message, names) for message in told)
        if scrubbed != told:
            await conn.execute(
                "UPDATE seat_changes SET narration = ? WHERE game_id = ? AND number = ?",
                (narration_to_json(scrubbed), game_id, number),
            )


def _scrubbed(message: Message, names: set[str]) -> Message:
    if message.id == STORED_TEXT:  # an old sentence stored as English text (migration 0010): its words replaced
        text = message.params.get("text")
        if isinstance(text, str):
            for name in sorted(names, key=len, reverse=True):
                text = text.replace(name, FORMER_PLAYER_NAME)
            return Message(message.id, {**message.params, "text": text})
    return Message(message.id, {key: _scrubbed_param(value, names) for key, value in message.params.items()})


def _scrubbed_param(value: Param, names: set[str]) -> Param:
    if isinstance(value, str) and value in names:  # text in a message is what players wrote: their names
        return Message(FORMER_PLAYER_MESSAGE)
    if isinstance(value, Message):
        return _scrubbed(value, names)
    if isinstance(value, Joined):
        return Joined(tuple(_scrubbed_param(item, names) for item in value.items), value.sep, value.last)
    return value


async def mark_departed(conn: Connection, guild_id: int, now: datetime) -> None:
    """Note that the bot left `guild_id` at `now` (an earlier mark stands: the time counts from the first leave)."""
    await conn.execute(
        "INSERT INTO departed_guilds (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
        (guild_id, time_to_text(now)),
    )


async def departed_since(conn: Connection, guild_id: int) -> datetime | None:
    """When the bot left `guild_id`, or None while it is there (or never left)."""
    rows = list(await conn.execute_fetchall("SELECT left_at FROM departed_guilds WHERE guild_id = ?", (guild_id,)))
    return text_to_time(rows[0][0]) if rows else None


async def departed_before(conn: Connection, cutoff: datetime) -> list[int]:
    """The servers the bot left before `cutoff`, oldest first."""
    rows = await conn.execute_fetchall(
        "SELECT guild_id FROM departed_guilds WHERE left_at < ? ORDER BY left_at, guild_id", (time_to_text(cutoff),)
    )
    return [int(row[0]) for row in rows]


async def purge_guild(conn: Connection, guild_id: int) -> list[int]:
    """Delete everything stored for `guild_id` (see `_PURGE`); the ids of the games deleted. Inside a transaction."""
    games = [int(row[0]) for row in await conn.execute_fetchall("SELECT id FROM games WHERE guild_id = ?", (guild_id,))]
    for statement in _PURGE:
        await conn.execute(statement, (guild_id,))
    return games
