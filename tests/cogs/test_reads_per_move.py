"""Issue 40, item 2: a move reads its game once and restores its engine at most once, through the real bot.

The store and the engine are wrapped here (the bot is not changed for it): a read or a restore counts when the bot's
own code makes it (a caller in `cogs/` or `service/`), not the test looking at the game between moves.
"""

import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import simcord

from bench.bench_reads import READS, by_the_bot  # the store's reads of a game, as the bench counts them
from db.records import GameRecord
from engine.kasino import KasinoGame
from tests.cogs.helpers import bot_of, member_for, open_and_start, record_of, seat_to_move, state_of
from tests.cogs.test_computers import computer_cog
from tests.cogs.test_kasino_flow import dm_hand_message, two_taps


def count_reads(monkeypatch: pytest.MonkeyPatch, store: object, counts: Counter[str]) -> None:
    for name in READS:
        original = getattr(store, name)

        async def counting(
            *args: Any, _original: Callable[..., Awaitable[Any]] = original, _name: str = name, **kwargs: Any
        ) -> Any:
            by_bot = by_the_bot()
            found = await _original(*args, **kwargs)
            if by_bot and found is not None:
                counts["reads"] += 1
                counts[_name] += 1
            return found

        monkeypatch.setattr(store, name, counting)


def count_rebuilds(monkeypatch: pytest.MonkeyPatch, counts: Counter[str]) -> None:
    for name in ("from_dict", "new"):
        original = getattr(KasinoGame, name).__func__

        def rebuilding(
            cls: type[KasinoGame],
            /,
            *args: Any,
            _original: Callable[..., Any] = original,
            _name: str = name,
            **kwargs: Any,
        ) -> Any:
            if by_the_bot():
                counts["rebuilds"] += 1
                counts[_name] += 1
            return _original(cls, *args, **kwargs)

        monkeypatch.setattr(KasinoGame, name, classmethod(rebuilding))


async def play_from_dms(env: simcord.Env, members: list[simcord.MemberActor], game_id: int, rng: random.Random) -> int:
    """Play the game to its end from the movers' DM panels; returns the number of moves."""
    record = await record_of(env, game_id)
    first = record.move_count
    while record.status == "running":
        seat = seat_to_move(KasinoGame.from_dict(state_of(record)))
        member = member_for(members, record, seat)
        await two_taps(member.user, dm_hand_message(member, record, seat), rng)
        after = await record_of(env, game_id)
        assert after.version > record.version, "the move was not applied"
        record = after
    return record.move_count - first


async def test_a_move_reads_its_game_once_and_restores_no_engine(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    host, guest = members[:2]
    _, game_id = await open_and_start(channel, host, [guest], "kasino new", seats=2, target=5)
    counts: Counter[str] = Counter()
    count_reads(monkeypatch, bot_of(simcord_env).store, counts)
    count_rebuilds(monkeypatch, counts)
    moves = await play_from_dms(simcord_env, [host, guest], game_id, random.Random(5))
    assert moves > 10
    assert counts["reads"] / moves <= 1.2, counts
    assert counts["rebuilds"] / moves <= 1.0, counts
    # The one read is the move's own, version-checked (the game may have moved in another process meanwhile).
    assert counts["checked_game"] == moves, counts
    assert counts["get_game"] == 0, counts


async def test_the_computer_watcher_never_reads_a_game_without_computer_seats(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cog = computer_cog(simcord_env)
    looked_at: list[int] = []
    waiting = cog.players.waiting

    async def watched(game_id: int) -> GameRecord | None:
        looked_at.append(game_id)
        return await waiting(game_id)

    monkeypatch.setattr(cog.players, "waiting", watched)
    host, guest = members[:2]
    _, game_id = await open_and_start(channel, host, [guest], "kasino new", seats=2, target=5)
    await play_from_dms(simcord_env, [host, guest], game_id, random.Random(6))
    assert game_id not in looked_at
    assert not cog._workers  # no worker was started for it either
