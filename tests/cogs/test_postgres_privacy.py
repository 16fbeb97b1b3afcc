"""Issue 45 on PostgreSQL: `/privacy forget`, `/privacy show` and the retention purge, the SQLite tests' own."""

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import CardBot, create_bot
from tests.cogs.test_privacy import (  # noqa: F401 - collected here, on PostgreSQL
    RETENTION_DAYS,
    test_a_rejoin_within_retention_days_keeps_everything,
    test_a_removed_servers_data_is_deleted_after_retention_days,
    test_after_forget_no_row_table_history_export_leaderboard_or_stats_holds_the_member,
    test_keep_changes_nothing,
    test_privacy_show_gives_the_member_only_their_own_data,
)


@pytest.fixture
async def simcord_bot(postgres_url: str, db_path: Path, computers_without_pause: None) -> AsyncIterator[CardBot]:
    seeds = itertools.count(1)
    bot = create_bot(
        db_path, database_url=postgres_url, new_seed=lambda: next(seeds), shard_count=1, retention_days=RETENTION_DAYS
    )
    yield bot
    await bot.close()
    assert not db_path.exists()  # noqa: ASYNC240 - no SQLite file was made on the side
