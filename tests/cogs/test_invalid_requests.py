"""Issue 44, item 8: a moderator takes the bot's access away from many running games at once.

Every game's thread and channel answer 403 Missing Access (50001), a passing refusal the delivery retries with
backoff; Discord blocks the address after 10,000 such answers in 10 minutes. The process keeps its refusals within
its budget by slowing the retries down, says so once when the slowdown starts and once when it ends, and every
game catches up once access returns.
"""

import itertools
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord.http import Route

from bot import CardBot, create_bot
from cogs.runtime.invalid import WINDOW_SECONDS, InvalidRequests
from tests.cogs.helpers import bot_of, game_thread, open_and_start
from tests.cogs.test_projection import assert_table_shows_the_stored_game, stored

GAMES = 30
SHARE = 60  # this process's budget of refusals in 10 minutes; on their backoff alone the games make about 210
TURN = 15 * 60  # each game's turn timer: its automatic move is the change Discord cannot show
ACCESS_BACK = TURN + 12 * 60  # seconds of virtual time before the moderator gives the access back
STEP = 30


@pytest.fixture
async def simcord_bot(db_path: Path, computers_without_pause: None) -> AsyncIterator[CardBot]:
    seeds = itertools.count(1)
    bot = create_bot(db_path, new_seed=lambda: next(seeds), shard_count=1, invalid_requests=InvalidRequests(SHARE))
    yield bot
    await bot.close()  # SimCord never closes a bot; closing ours closes its database


def refusals_seen(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When each 403 reached the bot (virtual seconds), observed on its HTTP client, apart from what the bot counts."""
    stamps: list[float] = []
    send = bot_of(env).http.request

    async def request(route: Route, **kwargs: Any) -> Any:
        try:
            return await send(route, **kwargs)
        except discord.HTTPException as error:
            if error.status == 403:
                stamps.append(env.now().timestamp())
            raise

    monkeypatch.setattr(bot_of(env).http, "request", request)
    return stamps


def busiest_window(stamps: list[float]) -> int:
    stamps = sorted(stamps)
    return max((sum(1 for other in stamps if stamp - WINDOW_SECONDS < other <= stamp) for stamp in stamps), default=0)


async def test_many_games_refused_missing_access_stay_within_the_process_share_say_the_slowdown_once_and_catch_up(
    simcord_env: simcord.Env,
    simcord_bot: CardBot,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    games = []
    for number in range(GAMES):
        host, guest = members[number % 6], members[number % 6 + 1]
        _, game_id = await open_and_start(channel, host, [guest], "kasino new", seats=2, timer="15m")
        games.append(game_id)
    threads = [game_thread(channel, game_id) for game_id in games]
    stamps = refusals_seen(simcord_env, monkeypatch)
    # The moderator removes the bot's access to the category: every game's thread, and their channel, refuse.
    for place in [channel, *threads]:
        for method in ("POST", "PATCH", "DELETE"):
            simcord_env.inject_error(method, f"/channels/{place.id}/*", status=403, code=50001,
                                     message="Missing Access", times=None)  # fmt: skip
    with caplog.at_level(logging.INFO, logger="cogs.runtime.invalid"):
        # Every game's player to move lets the turn run out: the timer's move is saved, and Discord refuses to show it.
        for _ in range(ACCESS_BACK // STEP):
            await simcord_env.advance_time(STEP)
        refused = len(stamps)
        simcord_env.backend.faults.clear()  # access returns
        for _ in range(40):
            await simcord_env.advance_time(STEP)
            caught_up = [(await stored(simcord_env, game_id))[0].shown for game_id in games]
            if all(caught_up):
                break
        for _ in range(30):  # the refusals age out of the window
            await simcord_env.advance_time(STEP)
    assert refused > SHARE  # the storm went on past what one window allows
    assert busiest_window(stamps) <= SHARE
    assert simcord_bot.invalid_requests.total == len(stamps)  # the bot counted what it was answered
    assert all(caught_up), f"{caught_up.count(False)} of {GAMES} games still behind after access returned"
    for game_id, thread in list(zip(games, threads, strict=True))[:3]:
        await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    said = [record.getMessage() for record in caplog.records if record.name == "cogs.runtime.invalid"]
    assert len(said) == 2, said
    assert "retry more slowly" in said[0] and f"budget of {SHARE}" in said[0]
    assert "back under half" in said[1]
