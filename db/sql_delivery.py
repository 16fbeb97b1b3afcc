"""What Discord shows of each game, in SQL (the port `DeliveryProjection`): message ids, seats' panels, leases.

Bookkeeping as a rule: these notes are written without waiting for a flush to disk, since losing one costs a redraw.
"""

from __future__ import annotations

from datetime import datetime
from typing import Unpack

from db._codec import time_to_text
from db._queries import fetch_game, fetch_games, update_given
from db.errors import GameNotFoundError
from db.records import GameCounts, GameRecord, MessageIds, SeatReach
from db.sql_backend import SqlBackend


class SqlDelivery:
    """Delivery leases, watermarks and Discord ids on a backend's connections."""

    def __init__(self, db: SqlBackend) -> None:
        self._db = db  # the backend: its connections, transactions and the statements its database says its own way

    async def set_messages(self, game_id: int, **ids: Unpack[MessageIds]) -> None:
        """Record Discord message and thread ids; only the given ones change, None clears one.

        Raises:
            GameNotFoundError.
        """
        # Where the game lives (lobby message, thread) is kept durably; what the table shows now is bookkeeping.
        placed = "lobby_message_id" in ids or "thread_id" in ids
        async with self._db.transaction() if placed else self._db._bookkeeping() as conn:
            if not await update_given(conn, "games", dict(ids), "id = ?", (game_id,)):
                raise GameNotFoundError(game_id)

    async def note_seat(self, game_id: int, seat: int, *, holder: int, **reach: Unpack[SeatReach]) -> bool:
        """Record how the seat's player `holder` is reached (DMs, DM channel, panel message and digest); bookkeeping.

        Only while `holder` still holds the seat: the delivery reaches a player across awaits (a slow or retried DM
        edit), and the seat may change hands meanwhile (`change_seat`, which forgets how the holder before was
        reached). Written unconditionally, the old holder's DM channel and panel would come back, and every later
        panel of the seat would go to them. The holder alone names the tenure: a member never holds a seat of a game
        again once they left it (`service.seats`), and a delivery of one game runs one at a time, so a later
        version's notes are never overwritten by an earlier one's.

        Returns:
            Whether the notes were written: False when `holder` no longer holds the seat (or there is no such seat).
        """
        where = "game_id = ? AND seat = ? AND user_id = ?"
        async with self._db._bookkeeping() as conn:
            return await update_given(conn, "seats", dict(reach), where, (game_id, seat, holder))

    async def claim_delivery(self, game_id: int, owner: str, until: datetime, now: datetime) -> GameRecord | None:
        """Lease the game's delivery to `owner` until `until`; None if another owner holds an unexpired lease.

        The lease lets several workers (or processes) share one database without showing a change twice.
        """
        async with self._db._bookkeeping() as conn:
            cursor = await conn.execute(
                """UPDATE games SET delivery_owner = ?, delivery_until = ?
                   WHERE id = ? AND (delivery_owner IS NULL OR delivery_owner = ? OR delivery_until < ?)""",
                (owner, time_to_text(until), game_id, owner, time_to_text(now)),
            )
            if not cursor.rowcount:
                return None
            return await fetch_game(conn, game_id, tolerate_bad_state=True)

    async def release_delivery(
        self, game_id: int, owner: str, *, shown_version: int | None = None, shown_moves: int | None = None
    ) -> None:
        """End `owner`'s lease; with `shown_version`/`shown_moves`, record that Discord caught up that far."""
        async with self._db._bookkeeping() as conn:
            # SET reads the old values, so `shown_notices` restarts only when `shown_moves` moves on.
            await conn.execute(
                """UPDATE games SET delivery_owner = NULL, delivery_until = NULL,
                                    shown_version = CASE WHEN coalesce(?1, 0) > shown_version THEN ?1
                                                         ELSE shown_version END,
                                    shown_notices = CASE WHEN coalesce(?2, 0) > shown_moves THEN 0
                                                         ELSE shown_notices END,
                                    shown_moves = CASE WHEN coalesce(?2, 0) > shown_moves THEN ?2 ELSE shown_moves END
                   WHERE id = ?3 AND delivery_owner = ?4""",
                (shown_version, shown_moves, game_id, owner),
            )

    async def note_notices(self, game_id: int, owner: str, *, moves: int, notices: int = 0) -> None:
        """Record (under `owner`'s lease) that the posts of the first `moves` moves went out, and `notices` of the next.

        Never goes back: a note behind what is recorded changes nothing.
        """
        async with self._db._bookkeeping() as conn:
            await conn.execute(
                """UPDATE games SET shown_moves = ?1, shown_notices = ?2
                   WHERE id = ?3 AND delivery_owner = ?4
                     AND (shown_moves < ?1 OR (shown_moves = ?1 AND shown_notices < ?2))""",
                (moves, notices, game_id, owner),
            )

    async def release_all_deliveries(self) -> int:
        """Void every delivery lease of this process's games; returns how many there were.

        Only for start-up: a lease still on record belongs to a process that died while delivering (on SQLite this
        process holds the file's lock; on PostgreSQL these are the games of its own shards).
        """
        async with self._db._bookkeeping() as conn:
            cursor = await conn.execute(
                "UPDATE games SET delivery_owner = NULL, delivery_until = NULL "
                f"WHERE delivery_owner IS NOT NULL AND {self._db.own_games}"
            )
            return cursor.rowcount

    async def unshown_games(self) -> list[GameRecord]:
        """Games that started and that Discord is behind on, oldest first (an index finds them without a scan)."""
        async with self._db._reading() as conn:
            return await fetch_games(
                conn, "shown_version < version AND status IN ('running', 'finished', 'cancelled')", ()
            )

    async def unshown_game_ids(self, after: int, limit: int) -> list[int]:
        """A page of the started games Discord is behind on: at most `limit` ids above `after`, in order.

        Keyset paging through the partial index `games_unshown`: each page costs the same however many games are
        owed, and no record is loaded.
        """
        async with self._db._reading() as conn:
            rows = await conn.execute_fetchall(
                f"""SELECT id FROM games
                   WHERE shown_version < version AND status IN ('running', 'finished', 'cancelled') AND id > ?
                     AND {self._db.own_games}
                   ORDER BY id LIMIT ?""",
                (after, limit),
            )
        return [game_id for (game_id,) in rows]

    async def game_counts(self) -> GameCounts:
        """How many of this process's games run, and how many Discord is behind on: two counts on partial indexes.

        Also the health check's question to the database (`cogs.runtime.health`): cheap whatever the number of games.
        """
        async with self._db._reading() as conn:
            rows = await conn.execute_fetchall(
                f"""SELECT (SELECT count(*) FROM games
                             WHERE status IN ('lobby', 'running') AND status = 'running' AND {self._db.own_games}),
                           (SELECT count(*) FROM games
                             WHERE shown_version < version AND status IN ('running', 'finished', 'cancelled')
                               AND {self._db.own_games})"""
            )
        ((running, unshown),) = rows
        return GameCounts(int(running), int(unshown))

    async def move_to_channel(self, game_id: int) -> GameRecord:
        """The game's thread is gone: play on in its channel, where everything is to be shown anew.

        Raises:
            GameNotFoundError.
        """
        async with self._db._bookkeeping() as conn:
            await conn.execute(
                """UPDATE games SET thread_id = NULL, table_message_id = NULL, ping_message_id = NULL,
                                    ping_user_id = NULL, warning_message_id = NULL,
                                    dm_notice_message_id = NULL, shown_version = 0
                   WHERE id = ?""",
                (game_id,),
            )
            return await fetch_game(conn, game_id, tolerate_bad_state=True)
