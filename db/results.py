"""Recording a finished game: one result row per rated player and the rating update, inside the caller's transaction.

Members are rated by their Discord id; computer players by strength, under the ids of `COMPUTER_USER_IDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from db.ratings import DEFAULT_SKILL, Skill, rate
from db.records import COMPUTER_USER_IDS, GameRecord, SeatRecord, computer_name
from engine.base import Outcome
from engine.registry import game_kind

_INSERT_RESULT = """
INSERT INTO results (game_id, user_id, guild_id, kind, seat, name, place, score, rated,
                     mu_before, sigma_before, mu_after, sigma_after, finished_at, house_rules)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
_UPSERT_RATING = """
INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, rated_games, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)
ON CONFLICT (guild_id, kind, user_id)
DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rated_games = rated_games + 1, updated_at = excluded.updated_at
"""


@dataclass(frozen=True, slots=True)
class _Entrant:
    """One rated player of a finished game: a member, or a computer player standing for its strength."""

    seat: SeatRecord
    user_id: int
    name: str


def entrants(game: GameRecord) -> list[_Entrant]:
    """Who a finished game rates: every member, and one computer seat per strength.

    Every computer of one strength in a server is the same rated player ("Computer (hard)"), and one player cannot
    take two places in one match; so when a game seats a strength twice, its first seat in seat order (drawn from
    the game's seed) stands for it and the others play unrated.
    """
    chosen: list[_Entrant] = []
    strengths: set[str] = set()
    for seat in game.seats:
        if seat.user_id is not None:
            chosen.append(_Entrant(seat, seat.user_id, seat.name))
        elif seat.strength is not None and seat.strength not in strengths:
            strengths.add(seat.strength)
            chosen.append(_Entrant(seat, COMPUTER_USER_IDS[seat.strength], computer_name(seat.strength)))
    return chosen


async def record_results(conn: aiosqlite.Connection, game: GameRecord, outcome: Outcome, finished_at: str) -> None:
    """Write a result row for every entrant (see `entrants`) and update their ratings; call inside a transaction.

    Members are rated against the computer players as against anyone: beating "Computer (hard)" is worth what its
    rating says it is worth, and the computers' ratings move with every game, so an easy computer that everybody
    beats soon gives little. A game with fewer than two entrants changes no rating. A game played in teams
    (`outcome.teams`, partnerships) is rated as teams: partners share the team's place (`db.ratings.rate`).

    Each row notes whether the game was played under house rules (any of its kind's house rules off its default, from
    the settings it was played with), which `/stats` counts.

    Raises:
        ValueError: the outcome does not have one place and one score per seat.
    """
    if len(outcome.places) != len(game.seats) or len(outcome.scores) != len(game.seats):
        raise ValueError(f"the outcome covers {len(outcome.places)} seats but game #{game.id} has {len(game.seats)}")
    players = entrants(game)
    user_ids = [player.user_id for player in players]
    before = await _current_skills(conn, game, user_ids)
    skills = [before.get(user_id, DEFAULT_SKILL) for user_id in user_ids]
    rated = len(players) >= 2
    places = [outcome.places[player.seat.seat] for player in players]
    teams = _teams_of(players, outcome)
    after = rate(skills, places, teams) if rated else tuple(skills)
    under_house_rules = _under_house_rules(game)
    await conn.executemany(
        _INSERT_RESULT,
        [
            (
                game.id,
                player.user_id,
                game.guild_id,
                game.kind,
                player.seat.seat,
                player.name,
                outcome.places[player.seat.seat],
                outcome.scores[player.seat.seat],
                rated,
                old.mu,
                old.sigma,
                new.mu,
                new.sigma,
                finished_at,
                under_house_rules,
            )
            for player, old, new in zip(players, skills, after, strict=True)
        ],
    )
    if rated:
        await conn.executemany(
            _UPSERT_RATING,
            [
                (game.guild_id, game.kind, player.user_id, new.mu, new.sigma, finished_at)
                for player, new in zip(players, after, strict=True)
            ],
        )


def _under_house_rules(game: GameRecord) -> bool:
    """Whether the game was played with any house rule of its kind off its default (False for a kind not listed)."""
    try:
        kind = game_kind(game.kind)
    except KeyError:
        return False
    return bool(kind.rules_in_force(game.settings))


def _teams_of(players: Sequence[_Entrant], outcome: Outcome) -> list[tuple[str, int]] | None:
    """Each entrant's team, when the game was played in teams (`Outcome.teams`: seats by team); else None.

    A seat in no team (there should be none) plays as a team of its own.
    """
    teams: tuple[tuple[int, ...], ...] | None = getattr(outcome, "teams", None)
    if not teams:
        return None
    team_of = {seat: index for index, team in enumerate(teams) for seat in team}
    return [
        ("team", team_of[player.seat.seat]) if player.seat.seat in team_of else ("seat", player.seat.seat)
        for player in players
    ]


async def _current_skills(conn: aiosqlite.Connection, game: GameRecord, user_ids: Sequence[int]) -> dict[int, Skill]:
    if not user_ids:
        return {}
    placeholders = ", ".join("?" * len(user_ids))  # one "?" per id; the ids travel as parameters
    rows = await conn.execute_fetchall(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND user_id IN ({placeholders})",
        (game.guild_id, game.kind, *user_ids),
    )
    return {user_id: Skill(mu, sigma) for user_id, mu, sigma in rows}
