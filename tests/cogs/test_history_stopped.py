"""Issue 44, item 10: the history and export of games that stopped before their end say why, and a replay of any
length is told off the event loop.

- A frozen game (its log could not be restored) was told with the replay's card-parsing error ("“Z♠” is not a card");
  now its history and export say it was stopped, and tell its moves as far as they replay.
- A cancelled game's export said it could be replayed "once the game has ended"; it says it never can.
- Replaying a long game (some 2,000 moves of six-seat Garbage) held the event loop for tenths of a second; the replay
  runs in a worker thread.
"""

import random
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import simcord

import cogs.history
import service.history
from bot import CardBot
from service.export import read_export
from tests.cogs.helpers import bot_of, game_thread, given, open_and_start, private_text, record_of
from tests.cogs.test_kasino_flow import play_turn


async def frozen_game(
    env: simcord.Env,
    make_bot: Callable[[], CardBot],
    db_path: Path,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> int:
    """A Kasino game of two moves whose second logged move is damaged, frozen by the bot's start-up check."""
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    rng = random.Random(3)
    for _ in range(2):
        await play_turn(env, channel, members, game_id, rng, "slash")
    await bot_of(env).store.close()
    with sqlite3.connect(db_path) as conn:  # the second move names a card nobody was dealt
        conn.execute("UPDATE moves SET move = 'Z♠ place' WHERE game_id = ? AND seq = 2", (game_id,))
    await env.restart_bot(make_bot())
    assert (await record_of(env, game_id)).status == "frozen"
    return game_id


async def test_a_frozen_games_history_says_it_is_frozen_and_tells_the_moves_that_replay(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    db_path: Path,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    game_id = await frozen_game(simcord_env, make_bot, db_path, channel, members)
    carol = members[2]
    opened = await carol.slash(game_thread(channel, game_id), "game history")
    assert opened.ephemeral
    assert opened.response is not None
    assert opened.response.content == (
        f"Kasino #{game_id} was stopped because its moves could not be restored: you see its moves as far as they "
        "replay (1 move), and only what every spectator saw."
    )
    description = given(opened.response.embeds[0].description)
    assert "`1` " in description and "`2` " not in description  # the first move is told, the damaged one is not
    assert "is not a card" not in private_text(opened)


async def test_a_frozen_games_export_says_it_is_frozen_and_cannot_be_replayed(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    db_path: Path,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    game_id = await frozen_game(simcord_env, make_bot, db_path, channel, members)
    exported = await members[2].slash(channel, "game export", game=game_id)
    assert exported.response is not None
    assert exported.response.content == (
        f"Kasino #{game_id} was stopped because its moves could not be restored: the file holds its moves as far as "
        "they replay (1 move), without the seed, so it cannot be replayed."
    )
    game = read_export((await exported.response.attachments[0].read()).decode("utf-8"))
    assert game.tags["Status"] == "frozen" and "Seed" not in game.tags and len(game.moves) == 1
    assert game.tags["Replayable"].startswith("no: the game was stopped because its moves could not be restored")
    assert game.comments[-1].startswith("The game was stopped because its moves could not be restored")
    assert not any("once the game has ended" in comment for comment in game.comments)


async def test_a_cancelled_games_export_says_it_can_never_be_replayed(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    await play_turn(simcord_env, channel, members, game_id, random.Random(5), "slash")
    thread = game_thread(channel, game_id)
    await alice.slash(thread, "game cancel")
    assert (await record_of(simcord_env, game_id)).status == "cancelled"

    exported = await bob.slash(thread, "game export")
    assert exported.response is not None
    assert "cannot be replayed" in exported.response.content
    text = (await exported.response.attachments[0].read()).decode("utf-8")
    assert "once the game has ended" not in text and "until the game ends" not in text
    game = read_export(text)
    assert game.tags["Replayable"] == "no: the game was cancelled, so its seed is never given"
    assert game.comments[-1] == "The game was cancelled: its file holds no seed and can never be replayed."


async def test_a_history_is_replayed_off_the_event_loop(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2)
    threads: list[tuple[str, int]] = []

    def watch(module: ModuleType, name: str) -> None:
        work = getattr(module, name)

        def watched(*args: Any, **kwargs: Any) -> Any:
            threads.append((name, threading.get_ident()))
            return work(*args, **kwargs)

        monkeypatch.setattr(module, name, watched)

    watch(service.history, "replay_history")  # the replay
    watch(cogs.history, "_entries")  # every step in words
    watch(cogs.history, "_export")  # the file
    loop_thread = threading.get_ident()  # the test shares the bot's event loop
    opened = await bob.slash(game_thread(channel, game_id), "game history")
    exported = await bob.slash(game_thread(channel, game_id), "game export")
    assert opened.response is not None
    assert exported.response is not None
    assert opened.response.embeds and exported.response.attachments
    assert {name for name, _ in threads} == {"replay_history", "_entries", "_export"}
    assert all(thread != loop_thread for _, thread in threads)
