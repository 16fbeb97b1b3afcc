"""Issue 45, item 1: BACKUP_DIR, BACKUP_EVERY and BACKUP_KEEP are read and checked like the other settings."""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import ConfigError, Settings

BOT = Path(__file__).resolve().parent.parent / "bot.py"
TOKEN = {"DISCORD_TOKEN": "abc"}


def test_no_backup_dir_means_no_backups_of_its_own() -> None:
    settings = Settings.from_env(TOKEN)
    assert settings.backup_dir is None and settings.scheduled_backups() is None


def test_backup_settings_are_read_with_daily_and_seven_by_default(tmp_path: Path) -> None:
    settings = Settings.from_env({**TOKEN, "BACKUP_DIR": str(tmp_path / "b")})
    assert (settings.backup_dir, settings.backup_every, settings.backup_keep) == (tmp_path / "b", 24, 7)
    settings = Settings.from_env(
        {**TOKEN, "DATABASE_PATH": "x/y.db", "BACKUP_DIR": " backups ", "BACKUP_EVERY": "6", "BACKUP_KEEP": "28"}
    )
    backups = settings.scheduled_backups()
    assert backups is not None
    assert (backups.database, backups.folder, backups.every_hours, backups.keep) == (
        Path("x/y.db"),
        Path("backups"),
        6,
        28,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"BACKUP_EVERY": "24"}, "BACKUP_EVERY needs BACKUP_DIR"),
        ({"BACKUP_KEEP": "7"}, "BACKUP_KEEP needs BACKUP_DIR"),
        ({"BACKUP_DIR": "b", "BACKUP_EVERY": "0"}, "BACKUP_EVERY must be the hours between backups"),
        ({"BACKUP_DIR": "b", "BACKUP_EVERY": "1.5"}, "BACKUP_EVERY must be"),
        ({"BACKUP_DIR": "b", "BACKUP_EVERY": "8761"}, "from 1 to 8760"),
        ({"BACKUP_DIR": "b", "BACKUP_KEEP": "0"}, "BACKUP_KEEP must be how many backups to keep"),
        ({"BACKUP_DIR": "b", "BACKUP_KEEP": "all"}, "BACKUP_KEEP must be"),
        (
            {"BACKUP_DIR": "b", "DATABASE_URL": "postgresql://h/db"},
            "with DATABASE_URL, back PostgreSQL up with .*pg_dump",
        ),
    ],
)
def test_backup_settings_refuse_bad_values_with_a_reason(env: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({**TOKEN, **env})


def test_backup_dir_naming_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    with pytest.raises(ConfigError, match="BACKUP_DIR must be a folder"):
        Settings.from_env({**TOKEN, "BACKUP_DIR": str(tmp_path / "f")})


def test_a_malformed_backup_setting_stops_the_bot_with_status_2_and_one_line(tmp_path: Path) -> None:
    env = {**os.environ, **TOKEN, "BACKUP_DIR": "backups", "BACKUP_EVERY": "daily"}
    done = subprocess.run(
        [sys.executable, str(BOT)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Cannot start: BACKUP_EVERY must be the hours between backups, a whole number from 1 to 8760, not 'daily'."
    ]
