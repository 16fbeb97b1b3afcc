"""Issue 45, item 3: /healthz and /metrics over real HTTP while a game is played, and when a part goes away."""

import itertools
import random
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import simcord
from prometheus_client.parser import text_string_to_metric_families

from bot import CardBot, create_bot
from engine.registry import game_class
from tests.cogs.helpers import bot_of, game_thread, response_of, state_of
from tests.cogs.test_computers import solo_lobby


@pytest.fixture
async def simcord_bot(db_path: Path, computers_without_pause: None) -> AsyncIterator[CardBot]:
    """The bot with /healthz and /metrics on 127.0.0.1, on a port the system picks (port 0)."""
    seeds = itertools.count(1)
    bot = create_bot(db_path, new_seed=lambda: next(seeds), shard_count=1, metrics_port=0)
    yield bot
    await bot.close()


async def get(bot: CardBot, path: str) -> tuple[int, str]:
    """GET `path` from the bot's own server, over a real socket: (status, body)."""
    assert bot.health is not None
    url = f"http://127.0.0.1:{bot.health.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url, timeout=aiohttp.ClientTimeout(total=10)) as answer:
        return answer.status, await answer.text()


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a scrape: {(name, ((label, value), ...)): value}."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def total(found: Samples, name: str, **labels: str) -> float:
    """The sum of the samples called `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(value for (sample, have), value in found.items() if sample == name and wanted <= set(have))


async def play_some_moves(
    env: simcord.Env, channel: simcord.ChannelHandle, member: simcord.MemberActor, moves: int
) -> int:
    """A member against a medium computer player: `moves` of the member's turns (the computer answers each)."""
    opened, game_id = await solo_lobby(channel, member, "kasino new", ["medium"], seats=2)
    await member.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    rng = random.Random(3)
    for _ in range(moves):
        record = await bot_of(env).store.get_game(game_id)
        assert record is not None
        game = game_class(record.kind).from_dict(state_of(record))
        assert game.to_move is not None
        assert not record.seats[game.to_move].is_computer
        legal = [str(move) for move in game.legal_moves(game.to_move)]
        played = await member.slash(thread, "kasino play", move=rng.choice(legal))
        assert played.acknowledged
    return game_id


async def test_metrics_count_moves_by_kind_latency_requests_by_route_and_the_running_game(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    bot = bot_of(simcord_env)
    await play_some_moves(simcord_env, channel, members[0], moves=3)

    status, text = await get(bot, "/metrics")
    assert status == 200
    found = samples(text)
    moves = await bot.store.game_moves(1)
    assert total(found, "cardbot_moves_total", kind="kasino") == len(moves) >= 6  # the member's and the computer's
    assert total(found, "cardbot_move_latency_seconds_count") == 3  # the member's moves, each once shown
    assert total(found, "cardbot_computer_decision_seconds_count", kind="kasino") >= 3
    assert total(found, "cardbot_games_running") == 1
    assert total(found, "cardbot_delivery_backlog_games") == 0
    assert total(found, "cardbot_delivery_retries_pending") == 0
    assert total(found, "cardbot_discord_invalid_requests") == 0
    assert total(found, "cardbot_up", part="gateway") == total(found, "cardbot_up", part="database") == 1
    # Requests by route template (never an id) and counted against the 50 a second.
    routes = {dict(labels)["route"] for (name, labels) in found if name == "cardbot_discord_requests_total"}
    assert "POST /channels/{channel_id}/messages" in routes
    assert all(not any(character.isdigit() for character in route.split(" ", 1)[1]) for route in routes), routes
    assert total(found, "cardbot_discord_requests_total", counted="true") > 0


async def test_healthz_turns_503_with_the_database_reason_once_the_database_is_gone(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    bot = bot_of(simcord_env)
    await play_some_moves(simcord_env, channel, members[0], moves=1)
    assert await get(bot, "/healthz") == (200, "ok\n")
    await bot.store.close()

    status, body = await get(bot, "/healthz")
    assert (status, body) == (503, "database: cannot be reached\n")
    status, text = await get(bot, "/metrics")  # the figures still answer, saying the database does not
    found = samples(text)
    assert status == 200
    assert total(found, "cardbot_up", part="database") == 0
    assert total(found, "cardbot_games_running") == 1  # the last count the database gave is kept


async def test_healthz_turns_503_with_the_gateway_reason_while_disconnected_and_200_once_back(
    simcord_env: simcord.Env,
) -> None:
    bot = bot_of(simcord_env)
    shard = bot.get_shard(0)
    assert shard is not None
    await shard.disconnect()
    assert await get(bot, "/healthz") == (503, "gateway: disconnected\n")
    await shard.reconnect()
    assert await get(bot, "/healthz") == (200, "ok\n")


async def test_discord_errors_are_counted_by_code(simcord_env: simcord.Env, channel: simcord.ChannelHandle) -> None:
    bot = bot_of(simcord_env)
    with pytest.raises(Exception):  # noqa: B017 - whichever HTTPException: its code is what is counted
        await bot.http.get_message(channel.id, 1)  # no such message: 10008
    found = samples((await get(bot, "/metrics"))[1])
    assert total(found, "cardbot_discord_errors_total", code="10008", status="404") == 1
    assert total(found, "cardbot_discord_requests_total", route="GET /channels/{channel_id}/messages/{message_id}") == 1
