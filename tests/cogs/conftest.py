"""SimCord fixtures: the real bot on a real SQLite file in a temporary folder."""

import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import simcord

import cogs.runtime.timing
from bot import CardBot, create_bot


@pytest.fixture
def computers_without_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computer seats move at once in tests (1.5 s of wall time each would add up); pacing has its own test.

    Every bot here is made after this (see `make_bot`): the suite-wide payload check starts SimCord before a
    module's autouse fixtures run.
    """
    monkeypatch.setattr(cogs.runtime.timing, "COMPUTER_PAUSE_SECONDS", 0.0)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
async def make_bot(db_path: Path, computers_without_pause: None) -> AsyncIterator[Callable[[], CardBot]]:
    bots: list[CardBot] = []
    seeds = itertools.count(1)  # games get seeds 1, 2, 3 ...: every run plays the same cards

    def factory() -> CardBot:
        bots.append(create_bot(db_path, new_seed=lambda: next(seeds), shard_count=1))
        return bots[-1]

    yield factory
    # SimCord never closes a bot; closing ours closes its aiosqlite connection.
    for bot in bots:
        await bot.close()


@pytest.fixture
def simcord_bot(make_bot: Callable[[], CardBot]) -> CardBot:
    return make_bot()


@pytest.fixture
def guild(simcord_env: simcord.Env) -> simcord.GuildHandle:
    return simcord_env.create_guild("Cards")


@pytest.fixture
def channel(guild: simcord.GuildHandle) -> simcord.ChannelHandle:
    return guild.create_text_channel("games")


@pytest.fixture
def members(simcord_env: simcord.Env, guild: simcord.GuildHandle) -> list[simcord.MemberActor]:
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace"]
    return [guild.add_member(simcord_env.create_user(name)) for name in names]
