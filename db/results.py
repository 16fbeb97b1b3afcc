"""Recording a finished game: one result row per human seat and the rating update, inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from db.ratings import DEFAULT_SKILL, Skill, rate
from db.records import GameRecord
from engine.base import Outcome

_INSERT_RESULT = """
INSERT INTO results (game_id, user_id, guild_id, kind, seat, name, place, score, rated,
                     mu_before, sigma_before, mu_after, sigma_after, finished_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
_UPSERT_RATING = """
INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, rated_games, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)
ON CONFLICT (guild_id, kind, user_id)
DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rated_games = rated_games + 1, updated_at = excluded.updated_at
"""


async def record_results(conn: aiosqlite.Connection, game: GameRecord, outcome: Outcome, finished_at: str) -> None:
    """Write result rows for every human seat and update their ratings; call inside a transaction.

    Raises:
        ValueError: the outcome does not have one place and one score per seat.
    """
    if len(outcome.places) != len(game.seats) or len(outcome.scores) != len(game.seats):
        raise ValueError(f"the outcome covers {len(outcome.places)} seats but game #{game.id} has {len(game.seats)}")
    humans = [seat for seat in game.seats if seat.user_id is not None]
    human_ids = [seat.user_id for seat in humans if seat.user_id is not None]
    before = await _current_skills(conn, game, human_ids)
    skills = [before.get(user_id, DEFAULT_SKILL) for user_id in human_ids]
    # Computer seats are left out of the match, so they cannot move a human's rating either way.
    rated = len(humans) >= 2
    after = rate(skills, [outcome.places[seat.seat] for seat in humans]) if rated else tuple(skills)
    await conn.executemany(
        _INSERT_RESULT,
        [
            (
                game.id,
                seat.user_id,
                game.guild_id,
                game.kind,
                seat.seat,
                seat.name,
                outcome.places[seat.seat],
                outcome.scores[seat.seat],
                rated,
                old.mu,
                old.sigma,
                new.mu,
                new.sigma,
                finished_at,
            )
            for seat, old, new in zip(humans, skills, after, strict=True)
        ],
    )
    if rated:
        await conn.executemany(
            _UPSERT_RATING,
            [
                (game.guild_id, game.kind, seat.user_id, new.mu, new.sigma, finished_at)
                for seat, new in zip(humans, after, strict=True)
            ],
        )


async def _current_skills(
    conn: aiosqlite.Connection, game: GameRecord, user_ids: Sequence[int | None]
) -> dict[int, Skill]:
    if not user_ids:
        return {}
    placeholders = ", ".join("?" * len(user_ids))  # one "?" per id; the ids travel as parameters
    rows = await conn.execute_fetchall(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND user_id IN ({placeholders})",
        (game.guild_id, game.kind, *user_ids),
    )
    return {user_id: Skill(mu, sigma) for user_id, mu, sigma in rows}
