"""Ratings: openskill Plackett-Luce per (server, kind, player); computer players are rated by strength."""

import pytest

from db.ratings import DEFAULT_SKILL, Skill, rate
from db.sql_store import SqlStore
from tests.db.helpers import GUILD, finish_game


def test_rate_puts_the_winner_above_the_loser() -> None:
    winner, loser = rate([DEFAULT_SKILL, DEFAULT_SKILL], [1, 2])
    assert winner.rating > DEFAULT_SKILL.rating > loser.rating


def test_rate_orders_four_placings() -> None:
    skills = rate([DEFAULT_SKILL] * 4, [3, 1, 4, 2])
    assert skills[1].mu > skills[3].mu > skills[0].mu > skills[2].mu


def test_rate_gives_tied_players_the_same_mean() -> None:
    first, second, third = rate([DEFAULT_SKILL] * 3, [1, 1, 3])
    assert first.mu == pytest.approx(second.mu)
    assert second.mu > third.mu


def test_rate_leaves_a_single_player_unchanged() -> None:
    assert rate([Skill(30.0, 5.0)], [1]) == (Skill(30.0, 5.0),)


def test_rate_needs_one_place_per_player() -> None:
    with pytest.raises(ValueError, match="2 skills but 1 places"):
        rate([DEFAULT_SKILL, DEFAULT_SKILL], [1])


async def rating_of(store: SqlStore, user: int, kind: str = "kasino", guild: int = GUILD) -> float:
    rating = (await store.player_stats(user, guild)).for_kind(kind).rating
    assert rating is not None, (user, kind)
    return rating


async def test_a_win_raises_the_winner_above_the_loser(store: SqlStore) -> None:
    await finish_game(store, (1, 2), (2, 1))
    assert await rating_of(store, 2) > DEFAULT_SKILL.rating > await rating_of(store, 1)


async def test_ratings_carry_over_from_game_to_game(store: SqlStore) -> None:
    await finish_game(store, (1, 2), (1, 2))
    once = await rating_of(store, 1)
    await finish_game(store, (1, 2), (1, 2))
    assert await rating_of(store, 1) > once


async def test_four_player_placings_order_the_ratings(store: SqlStore) -> None:
    await finish_game(store, (1, 2, 3, 4), (3, 1, 4, 2))
    ratings = [await rating_of(store, user) for user in (2, 4, 1, 3)]
    assert ratings == sorted(ratings, reverse=True)
    assert len(set(ratings)) == 4


async def test_computer_players_are_rated_by_strength_and_members_against_them(store: SqlStore) -> None:
    await finish_game(store, (1, None), (2, 1), strengths=["hard"])
    await finish_game(store, (2, None), (1, 2), strengths=["hard"])
    hard = (await store.leaderboard(GUILD, "kasino", "rating")).rows
    by_name = {row.name: row for row in hard}
    assert set(by_name) == {"u1", "u2", "Computer (hard)"}
    assert by_name["Computer (hard)"].games == 2 and by_name["Computer (hard)"].wins == 1
    # Losing to the computer costs rating, beating it (after it won once) gains more than a first win would.
    assert await rating_of(store, 1) < DEFAULT_SKILL.rating < await rating_of(store, 2)


async def test_two_computers_of_one_strength_are_one_rated_player_the_first_seat_standing_for_it(
    store: SqlStore,
) -> None:
    # Seats: member 1 (3rd), hard (1st), member 2 (4th), hard (2nd): only the first hard seat is rated.
    await finish_game(store, (1, None, 2, None), (3, 1, 4, 2), strengths=["hard", "hard"])
    async with store.transaction() as conn:
        rows = await conn.execute_fetchall("SELECT user_id, seat, name, place FROM results ORDER BY seat")
    assert [tuple(row) for row in rows] == [(1, 0, "u1", 3), (-3, 1, "Computer (hard)", 1), (2, 2, "u2", 4)]


async def test_a_game_with_one_member_and_a_computer_is_rated(store: SqlStore) -> None:
    await finish_game(store, (1, None), (1, 2), (16, 4))
    stats = (await store.player_stats(1, GUILD)).for_kind("kasino")
    assert (stats.server.games, stats.server.wins, stats.server.points) == (1, 1, 16)
    assert stats.rating is not None and stats.rating > DEFAULT_SKILL.rating
    assert (stats.rank, stats.rated_players) == (1, 1)  # members only: the computer is not ranked


async def test_result_rows_keep_the_rating_before_and_after(store: SqlStore) -> None:
    await finish_game(store, (1, 2), (1, 2))
    await finish_game(store, (1, 2), (1, 2))
    async with store.transaction() as conn:
        rows = await conn.execute_fetchall(
            "SELECT mu_before, sigma_before, mu_after, sigma_after FROM results WHERE user_id = 1 ORDER BY game_id"
        )
    (before1, sigma1, after1, sigma_after1), (before2, sigma2, after2, _) = rows
    assert (before1, sigma1) == (DEFAULT_SKILL.mu, DEFAULT_SKILL.sigma)
    assert (before2, sigma2) == (after1, sigma_after1)
    assert after2 > before2
