"""Issue 27: the bot on PostgreSQL (`DATABASE_URL`), through SimCord: whole games, a restart, timers and computers.

The tests are the SQLite suite's own, imported here, where `make_bot` gives them bots on a fresh PostgreSQL
database (with the coordinator across processes) instead of an SQLite file.
"""

import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import simcord

from bot import CardBot, create_bot
from tests.cogs.test_computers import (  # noqa: F401 - collected here, on PostgreSQL
    test_b1_one_member_and_a_computer_play_kasino_to_the_end_each_move_from_its_seed,
    test_computers_are_rated_and_the_leaderboard_shows_or_hides_them,
    test_g6c_a_restart_while_a_computer_holds_a_jack_continues_its_turn,
)
from tests.cogs.test_garbage_flow import (  # noqa: F401
    test_complete_game_through_buttons,
    test_concurrent_moves_on_the_service_apply_exactly_once,
    test_restart_mid_hand_keeps_the_old_buttons_working,
)
from tests.cogs.test_kasino_flow import (  # noqa: F401
    test_a_player_with_closed_dms_plays_a_whole_game_through_show_my_hand,
    test_complete_game_through_slash_commands_and_menus,
    test_restart_mid_round_keeps_hands_table_and_menus,
)
from tests.cogs.test_timers import (  # noqa: F401
    test_a_deadline_that_passed_while_the_bot_was_down_is_acted_on_once,
    test_warning_then_an_automatic_move_at_the_deadline,
)


@pytest.fixture
async def make_bot(
    postgres_url: str, db_path: Path, computers_without_pause: None
) -> AsyncIterator[Callable[[], CardBot]]:
    bots: list[CardBot] = []
    seeds = itertools.count(1)

    def factory() -> CardBot:
        bots.append(create_bot(db_path, database_url=postgres_url, new_seed=lambda: next(seeds), shard_count=1))
        return bots[-1]

    yield factory
    for bot in bots:
        await bot.close()
    assert not db_path.exists()  # noqa: ASYNC240 - no SQLite file was made on the side


async def test_the_bot_keeps_its_games_in_postgresql(
    simcord_bot: CardBot, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    from db.postgres.locks import AdvisoryLocks
    from db.postgres.store import PostgresStore

    assert isinstance(simcord_bot.store, PostgresStore)
    assert isinstance(simcord_bot.service.coordinator, AdvisoryLocks)
