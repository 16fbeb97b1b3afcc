import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import ConfigError, Settings

BOT = Path(__file__).resolve().parent.parent / "bot.py"


def test_missing_token_prints_one_clear_line_and_exits_non_zero(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, str(BOT)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Cannot start: DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there."
    ]
    assert "Traceback" not in done.stdout + done.stderr


def test_settings_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert settings.database_path == Path("data/bot.db")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.shard_count is None  # Discord says how many shards


def test_settings_read_every_variable() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": " abc ",
            "DATABASE_PATH": "x/y.db",
            "DEV_GUILD_ID": "123",
            "LOG_LEVEL": "debug",
            "SHARD_COUNT": "4",
        }
    )
    assert (
        settings.token, settings.database_path, settings.dev_guild_id, settings.log_level, settings.shard_count
    ) == ("abc", Path("x/y.db"), 123, "DEBUG", 4)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "a", "DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID must be a server id"),
        ({"DISCORD_TOKEN": "a", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be"),
        ({"DISCORD_TOKEN": "a", "SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
        ({"DISCORD_TOKEN": "a", "SHARD_COUNT": "many"}, "SHARD_COUNT must be"),
    ],
)
def test_settings_refuse_bad_values_with_a_reason(env: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_env_example_lists_every_setting() -> None:
    example = (BOT.parent / ".env.example").read_text(encoding="utf-8")
    names = {line.split("=")[0] for line in example.splitlines() if line and not line.startswith("#")}
    assert names == {
        "DISCORD_TOKEN",
        "DATABASE_PATH",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "SHARD_COUNT",
        "SHARD_IDS",
        "DATABASE_URL",
        "REQUESTS_PER_SECOND",
        "DISCORD_API_BASE",
        "METRICS_PORT",
        "METRICS_HOST",
        "BACKUP_DIR",
        "BACKUP_EVERY",
        "BACKUP_KEEP",
        "RETENTION_DAYS",
    }
    source = BOT.read_text(encoding="utf-8")
    assert all(f'"{name}"' in source for name in names)


def test_a_database_from_a_newer_bot_is_refused_before_connecting(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 999")
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "DATABASE_PATH": str(path)}
    done = subprocess.run(
        [sys.executable, str(BOT)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 3
    assert "Cannot use the database" in done.stdout and "schema version 999" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert "not-a-real-token" not in done.stdout + done.stderr
