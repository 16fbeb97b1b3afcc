"""Recording a finished game: one result row per rated player and the rating update, inside the caller's transaction.

Members are rated by their Discord id; computer players by strength, under the ids of `COMPUTER_USER_IDS`.

A seat that changed hands during the game (issue 28, `seat_changes`) is credited by `credit_seats`:
- its place and score go to the player holding it at the end, only if that player made most of its moves (more than
  half of the seat's logged moves, counting neither `resign` nor `rejoin`); a member so credited is rated like anyone;
- a computer player that held the seat for part of the game only (it took a vacated seat, or gave its seat to a
  member) has no result and is never rated for it;
- a member who left the seat (resigned or was removed) before someone else took it places below every seat, the
  later leaver above the earlier, with no points, and is rated so: leaving costs what resigning costs;
- otherwise the seat's place counts for nobody.
A seat that never changed hands is credited as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from db._queries import fetch_moves, fetch_seat_changes
from db.ratings import DEFAULT_SKILL, Skill, rate
from db.records import (
    COMPUTER_USER_IDS,
    GameRecord,
    MoveRecord,
    SeatChange,
    SeatRecord,
    computer_name,
    is_former_player_id,
)
from db.sql import Connection
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
DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rated_games = ratings.rated_games + 1,
              updated_at = excluded.updated_at
"""


_NOT_PLAYS: Final = frozenset({"resign", "rejoin"})  # logged moves that are no play of the seat's


@dataclass(frozen=True, slots=True)
class _Entrant:
    """One rated player of a finished game: a member, or a computer player standing for its strength.

    `left` is set for a member who left a seat that someone else then took: the order they left in (1 the first).
    """

    seat: SeatRecord
    user_id: int
    name: str
    left: int | None = None


@dataclass(frozen=True, slots=True)
class Stint:
    """One holder's time in a seat: who (a member's id, or None for a computer), and how many of its moves they made."""

    user_id: int | None
    name: str
    moves: int


def stints(seat: int, changes: Sequence[SeatChange], moves: Sequence[MoveRecord]) -> list[Stint]:
    """The holders of `seat` in order, each with the seat's moves made while they held it (empty: it never changed)."""
    mine = [change for change in changes if change.seat == seat]
    if not mine:
        return []
    last = max((move.seq for move in moves), default=0)
    bounds = [0, *(change.after_move for change in mine), last]
    holders = [mine[0].before, *(change.after for change in mine)]
    found = []
    for holder, start, end in zip(holders, bounds[:-1], bounds[1:], strict=True):
        played = sum(
            1 for move in moves if move.seat == seat and start < move.seq <= end and move.move not in _NOT_PLAYS
        )
        found.append(Stint(holder.user_id, holder.name, played))
    return found


def credited(stint: Sequence[Stint]) -> bool:
    """Whether the seat's last holder made most of its moves (more than half), and so is credited with its place."""
    total = sum(part.moves for part in stint)
    return bool(stint) and 2 * stint[-1].moves > total


def entrants(game: GameRecord, changes: Sequence[SeatChange] = (), moves: Sequence[MoveRecord] = ()) -> list[_Entrant]:
    """Who a finished game rates: every member, one computer seat per strength, and seats that changed hands.

    Every computer of one strength in a server is the same rated player ("Computer (hard)"), and one player cannot
    take two places in one match; so when a game seats a strength twice, its first seat in seat order (drawn from
    the game's seed) stands for it and the others play unrated. A seat that changed hands (`changes`, with the move
    log `moves`) is credited as the module says.
    """
    chosen: list[_Entrant] = []
    strengths: set[str] = set()
    leavers = [
        (change.before.user_id, change.seat, change.before.name)
        for change in changes
        if change.before.user_id is not None
    ]
    for seat in game.seats:
        history = stints(seat.seat, changes, moves)
        if history:
            if seat.user_id is not None and credited(history):
                chosen.append(_Entrant(seat, seat.user_id, seat.name))
            continue  # a computer that held the seat for part of the game only is never rated for it
        if seat.user_id is not None:
            chosen.append(_Entrant(seat, seat.user_id, seat.name))
        elif seat.strength is not None and seat.strength not in strengths:
            strengths.add(seat.strength)
            chosen.append(_Entrant(seat, COMPUTER_USER_IDS[seat.strength], computer_name(seat.strength)))
    taken = {entrant.user_id for entrant in chosen}
    for order, (user_id, seat_number, name) in enumerate(leavers, start=1):
        if user_id not in taken:  # a member holds one seat of a game at most (the service refuses a second)
            taken.add(user_id)
            chosen.append(_Entrant(game.seats[seat_number], user_id, name, left=order))
    # A member who asked to be forgotten (issue 45) is rated no more: no result row nor rating is written for them.
    return [entrant for entrant in chosen if not is_former_player_id(entrant.user_id)]


def _place(player: _Entrant, outcome: Outcome, seats: int, leavers: int) -> int:
    """The entrant's place: the seat's, or for a member who left a seat, below every seat (later leavers higher)."""
    if player.left is None:
        return outcome.places[player.seat.seat]
    return seats + 1 + leavers - player.left


def _score(player: _Entrant, outcome: Outcome) -> int:
    return outcome.scores[player.seat.seat] if player.left is None else 0


async def record_results(conn: Connection, game: GameRecord, outcome: Outcome, finished_at: str) -> None:
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
    changes = await fetch_seat_changes(conn, game.id)
    players = entrants(game, changes, await fetch_moves(conn, game.id) if changes else ())
    leavers = sum(player.left is not None for player in players)
    user_ids = [player.user_id for player in players]
    before = await _current_skills(conn, game, user_ids)
    skills = [before.get(user_id, DEFAULT_SKILL) for user_id in user_ids]
    rated = len(players) >= 2
    places = [_place(player, outcome, len(game.seats), leavers) for player in players]
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
                place,
                _score(player, outcome),
                rated,
                old.mu,
                old.sigma,
                new.mu,
                new.sigma,
                finished_at,
                under_house_rules,
            )
            for player, place, old, new in zip(players, places, skills, after, strict=True)
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
        ("left", player.user_id)
        if player.left is not None
        else ("team", team_of[player.seat.seat])
        if player.seat.seat in team_of
        else ("seat", player.seat.seat)
        for player in players
    ]


async def _current_skills(conn: Connection, game: GameRecord, user_ids: Sequence[int]) -> dict[int, Skill]:
    if not user_ids:
        return {}
    placeholders = ", ".join("?" * len(user_ids))  # one "?" per id; the ids travel as parameters
    rows = await conn.execute_fetchall(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND user_id IN ({placeholders})",
        (game.guild_id, game.kind, *user_ids),
    )
    return {user_id: Skill(mu, sigma) for user_id, mu, sigma in rows}
