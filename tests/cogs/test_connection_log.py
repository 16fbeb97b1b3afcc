"""The start-up and connection log: one line when ready, one when the connection drops, one when it is back."""

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord

from bot import CardBot
from tests.cogs.helpers import bot_of, open_and_start


async def test_one_ready_line_names_servers_running_games_and_the_database(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    db_path: Path,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    await open_and_start(channel, members[0], [members[1]], "kasino new", seats=2)
    await bot_of(simcord_env).store.close()
    with caplog.at_level(logging.INFO, logger="bot"):
        await simcord_env.restart_bot(make_bot())
    ready = [record.getMessage() for record in caplog.records if record.getMessage().startswith("Ready as")]
    assert len(ready) == 1, ready
    assert "1 servers, 1 running games" in ready[0] and str(db_path) in ready[0]


async def test_a_dropped_connection_is_one_line_and_its_return_another(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    bot = bot_of(simcord_env)
    with caplog.at_level(logging.INFO, logger="bot"):
        await bot.on_shard_disconnect(0)
        await bot.on_shard_disconnect(0)  # discord.py retries; the log does not repeat itself
        await bot.on_shard_resumed(0)
        await bot.on_shard_resumed(0)  # nothing was lost the second time
    lines = [record.getMessage() for record in caplog.records if record.name == "bot"]
    assert lines == [
        "Lost the connection to Discord (shard 0); reconnecting.",
        "Connection to Discord is back (shard 0).",
    ]
