"""Leaderboards (sorts, ties, pagination, min games, names) and player statistics."""

from typing import Any, cast

import pytest

from db.records import LeaderboardPage, LeaderboardSort
from db.sql_store import SqlStore
from tests.db.helpers import GUILD, finish_game


async def board(store: SqlStore, sort: LeaderboardSort, **options: Any) -> LeaderboardPage:
    return await store.leaderboard(GUILD, "kasino", sort, **options)


def users_of(page: LeaderboardPage) -> list[int]:
    return [row.user_id for row in page.rows]


async def test_rating_sort_lists_rated_players_best_first(store: SqlStore) -> None:
    await finish_game(store, (1, 2, 3), (3, 1, 2))
    await finish_game(store, (4, 5), (2, 1), guild=GUILD + 1)
    page = await board(store, "rating")
    assert users_of(page) == [2, 3, 1]
    assert [row.rank for row in page.rows] == [1, 2, 3]
    ratings = [row.rating for row in page.rows]
    assert ratings[0] is not None and ratings[1] is not None and ratings[2] is not None
    assert ratings[0] > ratings[1] > ratings[2]
    assert page.total == 3


async def test_wins_sort_shares_ranks_on_ties_and_lists_unrated_players(store: SqlStore) -> None:
    await finish_game(store, (1, 2), (1, 2))
    await finish_game(store, (3, None, None), (1, 2, 3), strengths=["easy", "easy"])  # one rated "easy" at most
    await finish_game(store, (2, 4), (2, 1))
    async with store.transaction() as conn:  # as if 3 had played before ratings existed
        await conn.execute("DELETE FROM ratings WHERE user_id = 3")
    page = await board(store, "wins", computers=False)
    rows = {row.user_id: row for row in page.rows}
    # 3 won 1 of 1 (rate 1.0), 1 and 4 won 1 of 1 as well, 2 won 0 of 2.
    assert {user: row.rank for user, row in rows.items()} == {1: 1, 3: 1, 4: 1, 2: 4}
    assert rows[3].rating is None
    assert (rows[2].games, rows[2].wins, rows[2].win_rate) == (2, 0, 0.0)


async def test_win_rate_sort_needs_min_games_and_says_so(store: SqlStore) -> None:
    for _ in range(3):
        await finish_game(store, (1, 2), (1, 2))
    await finish_game(store, (3, 2), (1, 2))
    page = await board(store, "win_rate")
    assert users_of(page) == [1, 2]
    assert page.min_games == 3
    assert [row.win_rate for row in page.rows] == [1.0, 0.0]
    assert users_of(await board(store, "win_rate", min_games=1)) == [1, 3, 2]


async def test_pagination_splits_and_keeps_ranks(store: SqlStore) -> None:
    for user in range(1, 13):
        await finish_game(store, (user, 100), (1, 2), (user, 0))
    # 100 played 12 games and lost all; everyone else won once. 13 players on the wins board.
    first = await board(store, "wins", per_page=5)
    last = await board(store, "wins", page=2, per_page=5)
    beyond = await board(store, "wins", page=3, per_page=5)
    assert (first.total, first.pages, len(first.rows)) == (13, 3, 5)
    assert [row.rank for row in last.rows] == [1, 1, 13]
    assert users_of(last)[-1] == 100
    assert beyond.rows == () and beyond.page == 3


async def test_leaderboard_shows_the_latest_display_name(store: SqlStore) -> None:
    await finish_game(store, (1, 2), (1, 2), names={1: "Old name"})
    await finish_game(store, (1, 2), (1, 2), names={1: "New name"})
    page = await board(store, "wins")
    assert page.rows[0].name == "New name"


async def test_leaderboard_counts_only_this_server_and_kind(store: SqlStore) -> None:
    await finish_game(store, (1, 2), (1, 2))
    await finish_game(store, (3, 4), (1, 2), guild=GUILD + 1)
    await finish_game(store, (5, 6), (1, 2), kind="garbage")
    assert sorted(users_of(await board(store, "wins"))) == [1, 2]


async def test_empty_leaderboard_has_no_pages(store: SqlStore) -> None:
    page = await board(store, "rating")
    assert (page.rows, page.total, page.pages) == ((), 0, 0)


@pytest.mark.parametrize(("sort", "options"), [("elo", {}), ("wins", {"page": -1}), ("wins", {"per_page": 0})])
async def test_leaderboard_refuses_bad_arguments(store: SqlStore, sort: str, options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        await board(store, cast(Any, sort), **options)  # "elo": deliberately no sort there is


async def test_player_stats_in_this_server_and_overall(store: SqlStore) -> None:
    await finish_game(store, (1, 2), (1, 2), (16, 3))
    await finish_game(store, (1, 3), (2, 1), (10, 17))
    await finish_game(store, (1, 2), (1, 2), (20, 1), guild=GUILD + 1)
    await finish_game(store, (1, None), (1, 2), (1, 0), kind="garbage")
    await finish_game(store, (2, None), (2, 1), strengths=["hard"])  # computers are rated, but never ranked
    stats = await store.player_stats(1, GUILD)
    kasino = stats.for_kind("kasino")
    assert (kasino.server.games, kasino.server.wins, kasino.server.points) == (2, 1, 26)
    assert (kasino.overall.games, kasino.overall.wins, kasino.overall.points) == (3, 2, 46)
    assert kasino.server.win_rate == 0.5
    assert kasino.rated_players == 3
    members = [row for row in (await board(store, "rating")).rows if not row.is_computer]
    assert kasino.rating is not None
    assert kasino.rank == 1 + sum(cast(float, row.rating) > kasino.rating for row in members)  # rated: listed
    garbage = stats.for_kind("garbage")
    assert (garbage.server.games, garbage.rank, garbage.rated_players) == (1, 1, 1)
    assert (stats.server_total.games, stats.overall_total.games) == (3, 4)
    assert stats.name == "u1"


async def test_player_stats_for_someone_who_never_played(store: SqlStore) -> None:
    stats = await store.player_stats(42, GUILD)
    assert stats.name is None
    assert all(kind.server.games == kind.overall.games == 0 and kind.rating is None for kind in stats.kinds)


async def test_computers_are_listed_by_strength_without_a_rank_or_hidden(store: SqlStore) -> None:
    await finish_game(store, (1, None), (1, 2), strengths=["easy"])
    await finish_game(store, (2, None), (2, 1), strengths=["hard"])
    await finish_game(store, (3, None, None), (2, 1, 3), strengths=["hard", "hard"])
    await finish_game(store, (1, None), (1, 2), strengths=["easy"])
    shown = await board(store, "rating")
    assert [(row.name, row.rank) for row in shown.rows] == [
        ("Computer (hard)", None),
        ("u1", 1),
        ("u3", 2),
        ("u2", 3),
        ("Computer (easy)", None),
    ]
    hard = next(row for row in shown.rows if row.name == "Computer (hard)")
    assert (hard.games, hard.wins, hard.user_id, hard.is_computer) == (2, 2, -3, True)  # one seat of two rated
    assert (shown.total, shown.computers) == (5, True)
    hidden = await board(store, "rating", computers=False)
    assert [(row.name, row.rank) for row in hidden.rows] == [("u1", 1), ("u3", 2), ("u2", 3)]
    assert (hidden.total, hidden.pages, hidden.computers) == (3, 1, False)


async def test_computers_count_in_the_pages_only_when_listed(store: SqlStore) -> None:
    for user in range(1, 6):
        await finish_game(store, (user, None), (1, 2), strengths=["medium"])
    assert (await board(store, "wins", per_page=5)).pages == 2
    assert (await board(store, "wins", per_page=5, computers=False)).pages == 1
