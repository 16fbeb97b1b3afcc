"""A member's stored data and a departed server's, in SQL (the port `MemberRecords`, issue 45; `db.privacy`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from db import privacy
from db._queries import fetch_games, marks
from db.records import Forgotten, GameRecord, GameStatus, MemberData
from db.sql_backend import UNFINISHED, SqlBackend


class SqlMemberRecords:
    """A member's data shown and forgotten, a departed server's kept a while and purged, on a backend's connections."""

    def __init__(self, db: SqlBackend) -> None:
        self._db = db  # the backend: its connections, transactions and the statements its database says its own way

    async def member_data(self, user_id: int) -> MemberData:
        """Everything stored under `user_id` (`/privacy show`)."""
        async with self._db._reading() as conn:
            return await privacy.member_data(conn, user_id)

    async def member_games(self, user_id: int, statuses: Sequence[GameStatus] = UNFINISHED) -> list[GameRecord]:
        """The games of `statuses` in which `user_id` holds a seat, in id order."""
        async with self._db._reading() as conn:
            return await fetch_games(
                conn,
                f"id IN (SELECT game_id FROM seats WHERE user_id = ?) AND status IN ({marks(statuses)})",
                (user_id, *statuses),
            )

    async def forget_member(self, user_id: int, names: Sequence[str] = ()) -> Forgotten:
        """Take `user_id` and their names out of every row, delete their results and ratings (`db.privacy`)."""
        async with self._db.transaction() as conn:
            return await privacy.forget_member(conn, user_id, names)

    async def mark_departed(self, guild_id: int, now: datetime) -> None:
        """Note that the bot was removed from `guild_id` at `now` (a first mark stands)."""
        async with self._db.transaction() as conn:
            await privacy.mark_departed(conn, guild_id, now)

    async def clear_departed(self, guild_id: int) -> bool:
        """The bot is in `guild_id` (again): keep its data. True if it had been marked as departed."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))
            return bool(cursor.rowcount)

    async def departed_since(self, guild_id: int) -> datetime | None:
        """When the bot was removed from `guild_id`; None while it is there."""
        async with self._db._reading() as conn:
            return await privacy.departed_since(conn, guild_id)

    async def departed_before(self, cutoff: datetime) -> list[int]:
        """The servers the bot was removed from before `cutoff`."""
        async with self._db._reading() as conn:
            return await privacy.departed_before(conn, cutoff)

    async def purge_guild(self, guild_id: int) -> list[int]:
        """Delete every row of `guild_id` (games, moves, results, ratings, settings); the deleted games' ids."""
        async with self._db.transaction() as conn:
            return await privacy.purge_guild(conn, guild_id)
