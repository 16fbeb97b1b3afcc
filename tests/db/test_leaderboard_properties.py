"""Property: the SQL leaderboard equals a plain-Python tally of the same games, page by page."""

import asyncio
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from db.store import Store
from engine.base import places_from_standing
from tests.db.helpers import GUILD, finish_game

PLAYERS = range(1, 7)

games_strategy = st.lists(
    st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True).flatmap(
        lambda users: st.tuples(st.just(users), st.lists(st.integers(0, 5), min_size=len(users), max_size=len(users)))
    ),
    min_size=1,
    max_size=6,
)


def expected_wins_board(games):
    """(user, games, wins, points) in the wins order, with competition ranks by wins."""
    tally = {}
    for users, scores in games:
        places = places_from_standing([(score,) for score in scores])
        for user, place, score in zip(users, places, scores, strict=True):
            played, won, points = tally.get(user, (0, 0, 0))
            tally[user] = (played + 1, won + (place == 1), points + score)
    order = sorted(tally, key=lambda user: (-tally[user][1], -tally[user][1] / tally[user][0], user))
    return [(1 + sum(tally[other][1] > tally[user][1] for other in tally), user, *tally[user]) for user in order]


async def wins_board_in_pages(games, per_page):
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bot.db")
        try:
            for users, scores in games:
                places = places_from_standing([(score,) for score in scores])
                await finish_game(store, users, places, scores)
            rows, page, pages = [], 0, None
            while pages is None or page < pages:
                result = await store.leaderboard(GUILD, "kasino", "wins", page=page, per_page=per_page)
                rows += result.rows
                pages, page = result.pages, page + 1
            return [(row.rank, row.user_id, row.games, row.wins, row.points) for row in rows], result.total
        finally:
            await store.close()


@settings(max_examples=25, deadline=None)
@given(games=games_strategy, per_page=st.integers(1, 4))
def test_wins_leaderboard_pages_match_a_python_tally(games, per_page) -> None:
    rows, total = asyncio.run(wins_board_in_pages(games, per_page))
    expected = expected_wins_board(games)
    assert rows == expected
    assert total == len(expected)
