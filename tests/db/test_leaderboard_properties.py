"""Property: the SQL leaderboard equals a plain-Python tally of the same games, page by page."""

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from db.store import Store
from engine.base import places_from_standing
from tests.db.helpers import GUILD, finish_game

PLAYERS = range(1, 7)

# Finished games: each game's users in seat order, and their scores.
Games = list[tuple[list[int], list[int]]]
games_strategy: st.SearchStrategy[Games] = st.lists(
    st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True).flatmap(
        lambda users: st.tuples(st.just(users), st.lists(st.integers(0, 5), min_size=len(users), max_size=len(users)))
    ),
    min_size=1,
    max_size=6,
)


def expected_wins_board(games: Games) -> list[tuple[int, ...]]:
    """(user, games, wins, points) in the wins order, with competition ranks by wins."""
    tally: dict[int, tuple[int, int, int]] = {}
    for users, scores in games:
        places = places_from_standing([(score,) for score in scores])
        for user, place, score in zip(users, places, scores, strict=True):
            played, won, points = tally.get(user, (0, 0, 0))
            tally[user] = (played + 1, won + (place == 1), points + score)
    order = sorted(tally, key=lambda user: (-tally[user][1], -tally[user][1] / tally[user][0], user))
    return [(1 + sum(tally[other][1] > tally[user][1] for other in tally), user, *tally[user]) for user in order]


async def wins_board_in_pages(games: Games, per_page: int) -> tuple[list[tuple[int, ...]], int]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bot.db")
        try:
            for users, scores in games:
                places = places_from_standing([(score,) for score in scores])
                await finish_game(store, users, places, scores)
            rows: list[Any] = []
            page, pages = 0, None
            while pages is None or page < pages:
                result = await store.leaderboard(GUILD, "kasino", "wins", page=page, per_page=per_page)
                rows += result.rows
                pages, page = result.pages, page + 1
            return [(row.rank, row.user_id, row.games, row.wins, row.points) for row in rows], result.total
        finally:
            await store.close()


@settings(max_examples=25, deadline=None)
@given(games=games_strategy, per_page=st.integers(1, 4))
def test_wins_leaderboard_pages_match_a_python_tally(games: Games, per_page: int) -> None:
    rows, total = asyncio.run(wins_board_in_pages(games, per_page))
    expected = expected_wins_board(games)
    assert rows == expected
    assert total == len(expected)
