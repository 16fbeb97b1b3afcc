"""Issue 27: the settings for several bot processes on one token and one PostgreSQL."""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord.http
import pytest

from bot import ConfigError, Settings, create_bot, use_api_base

BOT = Path(__file__).resolve().parent.parent / "bot.py"


def settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "abc", **env})


def test_a_single_process_by_default() -> None:
    plain = settings()
    assert (plain.shard_ids, plain.database_url, plain.requests_per_second, plain.discord_api_base) == (
        None, None, 50, None
    )  # fmt: skip


@pytest.mark.parametrize(
    ("ids", "count", "expected"),
    [
        ("0", "2", (0,)),
        ("1", "2", (1,)),
        ("0,1", "4", (0, 1)),
        (" 2 , 3 ", "4", (2, 3)),
        ("0-3", "4", (0, 1, 2, 3)),
        ("4-5,0", "8", (0, 4, 5)),
        ("1,1", "2", (1,)),
    ],
)
def test_shard_ids_are_listed_or_ranges(ids: str, count: str, expected: tuple[int, ...]) -> None:
    assert settings(SHARD_IDS=ids, SHARD_COUNT=count).shard_ids == expected


def test_the_cluster_settings_are_read() -> None:
    read = settings(
        SHARD_COUNT="2",
        SHARD_IDS="1",
        DATABASE_URL="postgresql://bot:secret@db:5432/bot",
        REQUESTS_PER_SECOND="25",
        DISCORD_API_BASE="http://nirn-proxy:8080/",
    )
    assert read.shard_ids == (1,)
    assert read.database_url == "postgresql://bot:secret@db:5432/bot"
    assert read.requests_per_second == 25
    assert read.discord_api_base == "http://nirn-proxy:8080"
    assert settings(DATABASE_URL="postgres://db/bot").database_url == "postgres://db/bot"
    assert settings(DISCORD_API_BASE="https://proxy.example/api/v10").discord_api_base == "https://proxy.example"
    assert settings(REQUESTS_PER_SECOND="1").requests_per_second == 1


def test_secrets_stay_out_of_the_settings_repr() -> None:
    read = settings(DATABASE_URL="postgresql://bot:hunter2@db/bot")
    assert "hunter2" not in repr(read) and "abc" not in repr(read)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_IDS": "2", "SHARD_COUNT": "2"}, r"below SHARD_COUNT \(2\): shards are numbered 0 to 1"),
        ({"SHARD_IDS": "0-4", "SHARD_COUNT": "4"}, r"SHARD_IDS must be below SHARD_COUNT \(4\)"),
        ({"SHARD_IDS": "one", "SHARD_COUNT": "2"}, "SHARD_IDS must be shard ids or ranges separated by commas"),
        ({"SHARD_IDS": "3-1", "SHARD_COUNT": "4"}, "SHARD_IDS must be shard ids or ranges"),
        ({"SHARD_IDS": "0,,1", "SHARD_COUNT": "4"}, "SHARD_IDS must be shard ids or ranges"),
        ({"SHARD_IDS": "-1", "SHARD_COUNT": "4"}, "SHARD_IDS must be shard ids or ranges"),
        ({"SHARD_IDS": "²", "SHARD_COUNT": "4"}, "SHARD_IDS must be shard ids or ranges"),
        ({"DATABASE_URL": "mysql://db/bot"}, "DATABASE_URL must start with postgresql:// or postgres://"),
        ({"DATABASE_URL": "data/bot.db"}, "DATABASE_URL must start with postgresql://"),
        ({"REQUESTS_PER_SECOND": "0"}, "REQUESTS_PER_SECOND must be a whole number from 1 to 50"),
        ({"REQUESTS_PER_SECOND": "51"}, "REQUESTS_PER_SECOND must be a whole number from 1 to 50"),
        ({"REQUESTS_PER_SECOND": "12.5"}, "REQUESTS_PER_SECOND must be a whole number"),
        ({"DISCORD_API_BASE": "nirn-proxy:8080"}, "DISCORD_API_BASE must be an http:// or https:// address"),
        ({"DISCORD_API_BASE": "ftp://proxy"}, "DISCORD_API_BASE must be an http:// or https:// address"),
        ({"DISCORD_API_BASE": "http://"}, "DISCORD_API_BASE must be an http:// or https:// address"),
    ],
)
def test_bad_cluster_settings_are_refused_with_one_line(env: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as refused:
        settings(**env)
    assert "\n" not in str(refused.value)


def test_a_bad_database_url_is_not_echoed() -> None:
    with pytest.raises(ConfigError) as refused:
        settings(DATABASE_URL="mysql://bot:hunter2@db/bot")
    assert "hunter2" not in str(refused.value)


def test_a_bad_setting_stops_the_real_bot_with_its_line(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "abc", "SHARD_IDS": "0"}
    env.pop("SHARD_COUNT", None)
    done = subprocess.run(
        [sys.executable, str(BOT)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Cannot start: SHARD_IDS needs SHARD_COUNT, the number of shards of all the bot's processes together."
    ]


async def test_the_bot_runs_the_shards_and_the_cap_it_is_given(tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "bot.db", shard_count=4, shard_ids=(2, 3), requests_per_second=25)
    try:
        assert (bot.shard_count, bot.shard_ids, bot.budget.limit) == (4, [2, 3], 25)
    finally:
        await bot.close()
    alone = create_bot(tmp_path / "bot.db")
    try:
        assert (alone.shard_ids, alone.budget.limit) == (None, 50)
    finally:
        await alone.close()


def test_the_api_base_sends_requests_through_the_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)  # restored after the test
    use_api_base(None)
    assert discord.http.Route("GET", "/gateway/bot").url == "https://discord.com/api/v10/gateway/bot"
    use_api_base(settings(DISCORD_API_BASE="http://nirn-proxy:8080").discord_api_base)
    assert discord.http.Route("GET", "/gateway/bot").url == "http://nirn-proxy:8080/api/v10/gateway/bot"
