"""A game whose move log no longer replays is stopped, said so once in its thread, and accepts no more moves."""

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import simcord

from bot import CardBot
from tests.cogs.helpers import (
    bot_of,
    game_thread,
    labels,
    member_for,
    open_and_start,
    private_text,
    record_of,
    seat_to_move,
    table_message,
)
from tests.cogs.test_kasino_flow import play_turn, state


async def test_an_unreplayable_game_is_frozen_with_one_message_and_refuses_moves(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    db_path: Path,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    await play_turn(simcord_env, channel, members, game_id, random.Random(3), "slash")
    record, game = await state(simcord_env, game_id)
    await bot_of(simcord_env).store.close()
    with sqlite3.connect(db_path) as conn:  # damage the log: the first move names a card nobody was dealt twice
        conn.execute("UPDATE moves SET move = 'Z♠ place' WHERE game_id = ? AND seq = 1", (game_id,))

    await simcord_env.restart_bot(make_bot())
    thread = game_thread(channel, game_id)
    notices = [m for m in thread.history() if "could not be restored" in m.content]
    assert len(notices) == 1 and "no results were recorded" in notices[0].content
    assert "Show my hand" not in labels(table_message(thread, game_id))

    mover = member_for(members, record, seat_to_move(game))
    refused = await mover.slash(thread, "kasino play", move=str(game.legal_moves(seat_to_move(game))[0]))
    assert "stopped because it could not be restored" in private_text(refused)
    assert (await record_of(simcord_env, game_id)).status == "frozen"

    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())
    assert len([m for m in thread.history() if "could not be restored" in m.content]) == 1  # said once
