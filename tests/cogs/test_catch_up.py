"""Issue 22: start-up settles what Discord missed in pages, within what play leaves of the request budget."""

import asyncio
from collections.abc import Callable

import pytest
import simcord

import cogs.runtime.catch_up
from bench.bench_startup import VirtualTime  # the catch-up's clock, as the bench keeps it
from bot import CardBot
from cogs.runtime.budget import RequestBudget, counts
from cogs.runtime.catch_up import catch_up
from db.sql_delivery import SqlDelivery
from tests.cogs.helpers import bot_of, open_and_start, sql_store


def busiest_second(stamps: list[float]) -> int:
    return max(sum(1 for other in stamps if stamp - 1 < other <= stamp) for stamp in stamps)


async def test_catch_up_reads_pages_and_spends_only_what_play_leaves_under_the_target() -> None:
    time = VirtualTime()
    budget = RequestBudget(clock=time.clock, sleep=time.sleep)
    stamps: list[float] = []
    pages: list[tuple[int, int]] = []
    settled: list[int] = []
    owed = list(range(1, 101))

    async def page(after: int, limit: int) -> list[int]:
        pages.append((after, limit))
        return [game_id for game_id in owed if game_id > after][:limit]

    async def settle(game_id: int) -> None:
        for _ in range(3):  # a table edit, a panel, a ping
            budget.note()
            stamps.append(time.now)
            await asyncio.sleep(0)
        settled.append(game_id)

    for _ in range(30):  # play spent 30 requests just now: 10 are left under the target this second
        budget.note()
        stamps.append(0.0)
    done = await catch_up(page, settle, budget, target=40, page=16)
    assert sorted(settled) == owed and done.settled == 100 and done.requests == 300
    assert pages[0] == (0, 16) and all(limit == 16 for _, limit in pages) and len(pages) == 8  # 7 pages and the end
    assert sum(1 for stamp in stamps[30:] if stamp < 1) <= 10
    assert busiest_second(stamps) <= 40
    assert 330 / 40 - 1 <= done.seconds <= 330 / 40 * 1.25 + 1  # near the budget, never past it


def test_only_requests_outside_interactions_count() -> None:
    from discord.http import Route

    assert counts(Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2))
    assert counts(Route("POST", "/users/@me/channels"))
    assert not counts(Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                            interaction_id=1, interaction_token="t"))  # fmt: skip
    assert not counts(Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                            webhook_id=1, webhook_token="t"))  # fmt: skip


async def test_the_budget_counts_the_bots_own_requests_and_not_the_interactions(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    bot = bot_of(simcord_env)
    before, logged = bot.budget.total, len(simcord_env.http_requests)
    await open_and_start(channel, alice, [bob], "garbage new", seats=2)
    made = simcord_env.http_requests[logged:]
    counted = [entry for entry in made if not entry.path.startswith(("/interactions/", "/webhooks/"))]
    assert len(made) > len(counted) > 0  # both kinds were made
    assert bot.budget.total - before == len(counted)


async def test_games_owed_at_start_up_are_settled_a_page_at_a_time(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob = members[:2]
    games = [(await open_and_start(channel, alice, [bob], "garbage new", seats=2))[1] for _ in range(5)]
    service = bot_of(simcord_env).service
    for game_id in games:  # a move saved in each, then the process stops before anything is shown
        record, game = await service.load(game_id)
        seat = game.to_move
        assert seat is not None
        player = record.seats[seat].user_id
        assert player is not None
        await service.play(game_id, player, str(game.legal_moves(seat)[0]))
    assert [r.id for r in await sql_store(simcord_env).unshown_games()] == games
    pages: list[tuple[int, int, list[int]]] = []
    paged = SqlDelivery.unshown_game_ids  # the delivery role of the store the restarted bot opens

    async def recording(delivery: SqlDelivery, after: int, limit: int) -> list[int]:
        found = await paged(delivery, after, limit)
        pages.append((after, limit, found))
        return found

    monkeypatch.setattr(SqlDelivery, "unshown_game_ids", recording)
    monkeypatch.setattr(cogs.runtime.catch_up, "PAGE", 2)
    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())
    await bot_of(simcord_env).start_up_done()
    assert await sql_store(simcord_env).unshown_games() == []
    assert [(after, limit) for after, limit, _ in pages] == [(0, 2), (games[1], 2), (games[3], 2), (games[4], 2)]
    assert [found for _, _, found in pages] == [games[:2], games[2:4], games[4:], []]
