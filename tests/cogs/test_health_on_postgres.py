"""Issue 45, item 3: /healthz on PostgreSQL, over real HTTP, while a server of the test's own is stopped and started."""

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import simcord

from bot import CardBot, create_bot
from tests import pg_outages
from tests.cogs.helpers import bot_of
from tests.cogs.test_health_and_metrics import get, play_some_moves, samples, total
from tests.pg_outages import OwnServer

own_server = pg_outages.own_server  # fixtures: a PostgreSQL of this module's own, a new database on it
outage_url = pg_outages.outage_url


@pytest.fixture
async def simcord_bot(outage_url: str, db_path: Path, computers_without_pause: None) -> AsyncIterator[CardBot]:
    seeds = itertools.count(1)
    bot = create_bot(db_path, database_url=outage_url, new_seed=lambda: next(seeds), shard_count=1, metrics_port=0)
    yield bot
    await bot.close()


async def test_healthz_is_503_with_the_database_reason_while_postgres_is_down_and_200_once_it_is_back(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], own_server: OwnServer
) -> None:
    bot = bot_of(simcord_env)
    await play_some_moves(simcord_env, channel, members[0], moves=1)
    assert await get(bot, "/healthz") == (200, "ok\n")
    assert total(samples((await get(bot, "/metrics"))[1]), "cardbot_games_running") == 1

    own_server.stop_immediately()
    assert await get(bot, "/healthz") == (503, "database: cannot be reached\n")

    own_server.start()
    assert await get(bot, "/healthz") == (200, "ok\n")
