"""Issue 44: the bot on a PostgreSQL that goes away in the middle of play, through SimCord, on a server of its own.

Players are told the database cannot be reached (not that its storage is full) while it is down; the first move after
it returns counts, and so does the first after every session was ended under the bot; the turn timers' loop outlives
the failed reads of the outage and fires at its next tick.
"""

import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import simcord

from bot import CardBot, create_bot
from cogs.timers import TimerCog
from db.records import GameRecord
from engine.base import AnyGame
from tests import pg_outages
from tests.cogs.helpers import (
    bot_of,
    cog_of,
    game_thread,
    member_for,
    open_and_start,
    private_text,
    record_of,
    seat_to_move,
)
from tests.pg_outages import OwnServer

own_server = pg_outages.own_server  # fixtures: a PostgreSQL of this module's own, a new database on it
outage_url = pg_outages.outage_url

UNREACHABLE = (
    "The bot cannot reach its database right now, so nothing changed. Try again in a moment (if it keeps happening, "
    "tell whoever runs the bot)."
)


@pytest.fixture
async def make_bot(
    outage_url: str, db_path: Path, computers_without_pause: None
) -> AsyncIterator[Callable[[], CardBot]]:
    bots: list[CardBot] = []
    seeds = itertools.count(1)

    def factory() -> CardBot:
        bots.append(create_bot(db_path, database_url=outage_url, new_seed=lambda: next(seeds), shard_count=1))
        return bots[-1]

    yield factory
    for bot in bots:
        await bot.close()


async def stored(env: simcord.Env, game_id: int) -> tuple[GameRecord, AnyGame]:
    """The game as stored, and its engine."""
    record = await record_of(env, game_id)
    return record, bot_of(env).service.game_of(record)


async def logged(env: simcord.Env, game_id: int) -> list[tuple[str, bool]]:
    """The game's move log: (move, automatic) each."""
    return [(move.move, move.auto) for move in await bot_of(env).store.game_moves(game_id)]


async def test_moves_while_postgres_is_down_are_refused_as_unreachable_and_play_and_timers_resume_after_it(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    own_server: OwnServer,
    outage_url: str,
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, timer="2m")
    thread = game_thread(channel, game_id)
    acknowledged: list[tuple[str, bool]] = []

    async def next_move() -> tuple[simcord.MemberActor, str]:
        record, game = await stored(simcord_env, game_id)
        return member_for(members, record, seat_to_move(game)), str(game.legal_moves(seat_to_move(game))[0])

    async def play(mover: simcord.MemberActor, move: str) -> None:
        played = await mover.slash(thread, "kasino play", move=move)
        assert played.acknowledged and UNREACHABLE not in private_text(played)
        acknowledged.append((move, False))

    for _ in range(2):
        await play(*await next_move())
    mover, move = await next_move()
    own_server.stop_immediately()
    for _ in range(3):  # each move while it is down: refused, in the words of what happened
        refused = await mover.slash(thread, "kasino play", move=move)
        assert private_text(refused) == UNREACHABLE
    own_server.start()
    await play(mover, move)  # the first move after it returns counts
    assert await logged(simcord_env, game_id) == acknowledged
    assert await own_server.end_every_session(outage_url) > 0
    await play(*await next_move())  # and the first after every session was ended under the bot
    assert await logged(simcord_env, game_id) == acknowledged  # 0 lost, 0 applied twice
    await simcord_env.advance_time(125)  # timers fire after it: the absent player's turn is played for them
    moves = await logged(simcord_env, game_id)
    assert moves[:-1] == acknowledged and moves[-1][1], moves


async def test_the_timer_loop_survives_a_failed_due_timers_read_and_fires_at_the_next_tick(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], own_server: OwnServer
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, timer="2m")
    timers = cog_of(simcord_env, TimerCog)
    await simcord_env.advance_time(100)
    own_server.stop_immediately()
    await simcord_env.advance_time(25)  # the deadline (120 s) passes; every tick's read of the due timers fails
    assert timers is not None
    assert timers.tick.is_running()
    own_server.start()
    await simcord_env.advance_time(5)  # the next tick
    moves = await logged(simcord_env, game_id)
    assert len(moves) == 1 and moves[0][1], moves  # the absent player's turn, played for them
