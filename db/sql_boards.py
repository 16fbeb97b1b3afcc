"""Results as players compare them, in SQL (the port `Boards`): leaderboards and player figures (`db.stats`)."""

from __future__ import annotations

from db import stats
from db.records import LeaderboardPage, LeaderboardSort, PlayerStats
from db.sql_backend import SqlBackend


class SqlBoards:
    """Leaderboards and player figures on a backend's connections."""

    def __init__(self, db: SqlBackend) -> None:
        self._db = db  # the backend: its connections, transactions and the statements its database says its own way

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        sort: LeaderboardSort = "rating",
        page: int = 0,
        per_page: int = 10,
        min_games: int = 3,
        computers: bool = True,
    ) -> LeaderboardPage:
        """One page (from 0) of the server's leaderboard for `kind`, by rating, wins or win rate.

        "rating" lists players with a rated game; "win_rate" only players with at least `min_games` games. Computer
        players are listed (unranked) unless `computers` is False.

        Raises:
            ValueError: an unknown kind or sort, a negative page, or a page size below 1.
        """
        async with self._db._reading() as conn:
            return await stats.leaderboard(conn, guild_id, kind, sort, page, per_page, min_games, computers)

    async def player_stats(self, user_id: int, guild_id: int) -> PlayerStats:
        """A player's figures per kind in this server (with rating and rank) and across all servers."""
        async with self._db._reading() as conn:
            return await stats.player_stats(conn, user_id, guild_id)
