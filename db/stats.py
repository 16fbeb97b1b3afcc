"""Leaderboards and player statistics, aggregated in SQL from result rows and the ratings table."""

from __future__ import annotations

import math
from typing import Final

from db.records import KindStats, LeaderboardPage, LeaderboardRow, LeaderboardSort, PlayerStats, Tally
from db.sql import Connection
from engine import registry

# Per-player figures in one server and kind; `rating` is NULL for a player without a rated game.
# Parameters: guild, kind, guild, kind.
_BOARD: Final = """
WITH tallies AS (
    SELECT user_id, COUNT(*) AS games, SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins, SUM(score) AS points
    FROM results WHERE guild_id = ? AND kind = ? GROUP BY user_id
), board AS (
    SELECT t.user_id, t.games, t.wins, t.points, CAST(t.wins AS DOUBLE PRECISION) / t.games AS win_rate,
           r.mu - 3 * r.sigma AS rating
    FROM tallies AS t
    LEFT JOIN ratings AS r ON r.guild_id = ? AND r.kind = ? AND r.user_id = t.user_id
)
"""
# Per sort: who qualifies (one "games >= ?" parameter), what shares a rank, and the full listing order.
_SORTS: Final[dict[str, tuple[str, str, str]]] = {
    "rating": ("rating IS NOT NULL AND games >= ?", "rating DESC", "rating DESC, games DESC, user_id"),
    "wins": ("games >= ?", "wins DESC", "wins DESC, win_rate DESC, user_id"),
    "win_rate": ("games >= ?", "win_rate DESC", "win_rate DESC, games DESC, user_id"),
}
# The name from the player's latest finished game in the server. Parameter: guild.
_LATEST_NAME: Final = (
    "(SELECT n.name FROM results AS n WHERE n.guild_id = ? AND n.user_id = ranked.user_id "
    "ORDER BY n.finished_at DESC, n.game_id DESC LIMIT 1)"
)
_TALLY: Final = (
    "SELECT kind, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), SUM(score), SUM(house_rules) FROM results"
)


async def leaderboard(
    conn: Connection,
    guild_id: int,
    kind: str,
    sort: LeaderboardSort,
    page: int,
    per_page: int,
    min_games: int,
    computers: bool = True,
) -> LeaderboardPage:
    """One page of the server's leaderboard for `kind`; tied players share a rank.

    Computer players are listed where their figures put them (with `computers`), without a rank: ranks count
    members only (the same ranks as `/stats`), so listing the computers never moves anybody down.

    Raises:
        ValueError: an unknown kind or sort, a negative page, or a page size below 1.
    """
    if kind not in registry.KINDS:
        raise ValueError(f"unknown game kind {kind!r}")
    if sort not in _SORTS:
        raise ValueError(f"unknown leaderboard sort {sort!r}; use one of {', '.join(_SORTS)}")
    if page < 0 or per_page < 1:
        raise ValueError(f"page must be >= 0 and per_page >= 1, not {page} and {per_page}")
    qualifies, rank_order, order = _SORTS[sort]
    qualifies += " AND (? = 1 OR user_id >= 0)"  # computers (negative ids) only when asked for (a 0/1 flag)
    least_games = max(min_games, 1) if sort == "win_rate" else 1
    board_args = (guild_id, kind, guild_id, kind)
    # The SQL fragments come from the fixed table above; every value travels as a parameter.
    count_rows = await conn.execute_fetchall(
        f"{_BOARD} SELECT COUNT(*) FROM board WHERE {qualifies}", (*board_args, least_games, computers)
    )
    total = next(iter(count_rows))[0]
    rows = await conn.execute_fetchall(
        f"""{_BOARD}
        SELECT ranked.rank, ranked.user_id, {_LATEST_NAME}, ranked.rating, ranked.games, ranked.wins,
               ranked.win_rate, ranked.points
        FROM (SELECT board.*,
                     CASE WHEN user_id < 0 THEN NULL
                          ELSE RANK() OVER (PARTITION BY user_id < 0 ORDER BY {rank_order}) END AS rank
              FROM board WHERE {qualifies}) AS ranked
        ORDER BY {order} LIMIT ? OFFSET ?""",
        (*board_args, guild_id, least_games, computers, per_page, page * per_page),  # in the order the marks appear
    )
    return LeaderboardPage(
        rows=tuple(LeaderboardRow(*row) for row in rows),
        page=page,
        pages=math.ceil(total / per_page),
        total=total,
        sort=sort,
        min_games=min_games,
        computers=computers,
    )


async def player_stats(conn: Connection, user_id: int, guild_id: int) -> PlayerStats:
    """A player's games, wins, points, rating and rank per kind in one server, and their totals across servers."""
    server = {
        kind: Tally(*figures)
        for kind, *figures in await conn.execute_fetchall(
            f"{_TALLY} WHERE user_id = ? AND guild_id = ? GROUP BY kind", (user_id, guild_id)
        )
    }
    overall = {
        kind: Tally(*figures)
        for kind, *figures in await conn.execute_fetchall(f"{_TALLY} WHERE user_id = ? GROUP BY kind", (user_id,))
    }
    rated_players: dict[str, int] = {
        row[0]: row[1]
        for row in await conn.execute_fetchall(
            "SELECT kind, COUNT(*) FROM ratings WHERE guild_id = ? AND user_id >= 0 GROUP BY kind", (guild_id,)
        )
    }
    # Rank = 1 + the number of members rated strictly higher, the same rule as the leaderboard's RANK() (computer
    # players, with negative ids, are not ranked).
    standings = {
        kind: (rating, rank)
        for kind, rating, rank in await conn.execute_fetchall(
            """SELECT me.kind, me.mu - 3 * me.sigma,
                      1 + SUM(CASE WHEN other.mu - 3 * other.sigma > me.mu - 3 * me.sigma THEN 1 ELSE 0 END)
               FROM ratings AS me
               JOIN ratings AS other ON other.guild_id = me.guild_id AND other.kind = me.kind AND other.user_id >= 0
               WHERE me.guild_id = ? AND me.user_id = ?
               GROUP BY me.kind, me.mu, me.sigma""",
            (guild_id, user_id),
        )
    }
    names = await conn.execute_fetchall(
        "SELECT name FROM results WHERE guild_id = ? AND user_id = ? ORDER BY finished_at DESC, game_id DESC LIMIT 1",
        (guild_id, user_id),
    )
    return PlayerStats(
        user_id=user_id,
        guild_id=guild_id,
        name=next((name for (name,) in names), None),
        kinds=tuple(
            KindStats(
                kind=kind,
                server=server.get(kind, Tally()),
                overall=overall.get(kind, Tally()),
                rating=standings.get(kind, (None, None))[0],
                rank=standings.get(kind, (None, None))[1],
                rated_players=rated_players.get(kind, 0),
            )
            for kind in registry.KINDS
        ),
    )
