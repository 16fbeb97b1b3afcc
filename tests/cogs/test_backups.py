"""Issue 45, item 1: the bot takes its own backups (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP) under SimCord's clock."""

import itertools
import logging
import threading
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import simcord

from bot import CardBot, create_bot
from cogs.timers import TimerCog
from db.backup import ScheduledBackups, check_copy
from tests.cogs.helpers import cog_of, open_and_start

EVERY_HOURS = 1
KEEP = 2


@pytest.fixture
def backup_dir(tmp_path: Path) -> Path:
    return tmp_path / "backups"


@pytest.fixture
def backups(db_path: Path, backup_dir: Path) -> ScheduledBackups:
    return ScheduledBackups(db_path, backup_dir, EVERY_HOURS, KEEP)


@pytest.fixture
async def simcord_bot(
    db_path: Path, backups: ScheduledBackups, computers_without_pause: None
) -> AsyncIterator[CardBot]:
    seeds = itertools.count(1)
    bot = create_bot(db_path, new_seed=lambda: next(seeds), shard_count=1, backups=backups)
    yield bot
    await bot.close()


async def test_scheduled_backups_keep_backup_keep_files_taken_off_the_event_loop(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    backups: ScheduledBackups,
    backup_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    loop_thread = threading.get_ident()
    threads: list[int] = []
    taken_now: list[bool] = []
    take = backups.take_if_due

    def noting_the_thread(now: datetime) -> str | None:
        threads.append(threading.get_ident())
        line = take(now)
        taken_now.append(line is not None)
        return line

    monkeypatch.setattr(backups, "take_if_due", noting_the_thread)
    alice, bob = members[:2]
    await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    # Hours of virtual time: the turn timers' 5-second tick (nothing due for 24 hours) would be thousands of wake-ups.
    cog_of(simcord_env, TimerCog).tick.cancel()
    taken = [simcord_env.now()]
    await simcord_env.advance_time(600)  # the first check after start-up: no backup yet, so one is due
    for _ in range(3):
        await simcord_env.advance_time(EVERY_HOURS * 3600)
        taken.append(simcord_env.now())
    names = sorted(path.name for path in backup_dir.iterdir())  # noqa: ASYNC240 - a quick look at the test's folder
    assert len(names) == KEEP
    for path in backup_dir.iterdir():  # noqa: ASYNC240 - a quick look at the test's own folder
        check = check_copy(path)
        assert check.ok and check.running == 1
    assert threads and loop_thread not in threads  # every backup ran in a worker thread
    lines = [record.getMessage() for record in caplog.records if record.name == "db.backup"]
    # One check every 10 minutes over 3 h 10 min; a backup at the first and then once an hour, one line each.
    assert len(threads) == 19 and sum(taken_now) == len(lines) >= 3
    assert all(line.startswith("backup of ") and "1 running, checked (quick_check ok" in line for line in lines)
    assert lines[-1].endswith(f"; {KEEP} kept at most, 1 older removed")
    # Named by the bot's clock (SimCord's): the newest is the last hour's.
    newest = datetime.strptime(names[-1], "games-%Y%m%dT%H%M%SZ.db").replace(tzinfo=UTC)
    assert taken[-1] - timedelta(hours=EVERY_HOURS) < newest <= taken[-1]
