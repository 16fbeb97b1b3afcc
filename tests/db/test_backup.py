"""Issue 45, item 1: online backups of the SQLite database, checked, and restored only when no bot holds the file."""

import asyncio
import json
import os
import random
import sqlite3
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from db import backup as backup_module
from db.backup import BackupError, ScheduledBackups, check_copy, take_backup
from db.migrate import load_migrations
from db.records import GameRecord
from db.recovery import check_snapshot, replay
from db.restore import main as restore_main
from db.restore import restore
from db.sql_store import SqlStore
from db.store import Store
from engine.base import AnyGame
from engine.registry import game_class
from tests.db.helpers import NOW, filled_database, play_random, real_game

pytestmark = pytest.mark.sqlite_only

KINDS = ("kasino", "garbage")


async def play_until(
    store: SqlStore, record: GameRecord, game: AnyGame, rng: random.Random, stop: asyncio.Event, saved: list[float]
) -> GameRecord:
    """Random legal moves through the store, as fast as it takes them, until `stop` or the game's end.

    `saved` gets the (monotonic) time each move was acknowledged.
    """
    loop = asyncio.get_running_loop()
    while not stop.is_set() and game.to_move is not None:
        record = await play_random(store, record, game, 1, rng)
        saved.append(loop.time())
    return record


async def finished_and_running(
    store: SqlStore, running: int = 6, finished: int = 2
) -> tuple[list[GameRecord], list[tuple[GameRecord, AnyGame]]]:
    """`finished` games played to their end and `running` started ones, each with (record, engine game)."""
    rng = random.Random(3)
    done = []
    for number in range(finished):
        record, game = await real_game(store, KINDS[number % 2], (1, 2), seed=100 + number)
        done.append(await play_random(store, record, game, 10_000, rng))
    playing = []
    for number in range(running):
        record, game = await real_game(store, KINDS[number % 2], (1, 2, 3), seed=number)
        playing.append((await play_random(store, record, game, 5, rng), game))
    return done, playing


def rows(path: Path, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


async def test_a_backup_under_concurrent_moves_restores_to_a_file_where_every_game_replays(tmp_path: Path) -> None:
    source, copy, restored = tmp_path / "bot.db", tmp_path / "copy.db", tmp_path / "restored" / "bot.db"
    store = await Store.open(source)
    try:
        finished, playing = await finished_and_running(store)
        stop = asyncio.Event()
        rng = random.Random(9)
        saved: list[float] = []
        players = [asyncio.create_task(play_until(store, record, game, rng, stop, saved)) for record, game in playing]
        await asyncio.sleep(0.2)  # play is under way
        loop = asyncio.get_running_loop()
        started = loop.time()
        # One page per step and a pause after each: the copy spans many commits of the games beside it.
        report = await asyncio.to_thread(take_backup, source, copy, pages=1, pause=0.01)
        ended = loop.time()
        moves_during = sum(started < moment < ended for moment in saved)
        stop.set()
        await asyncio.gather(*players)
    finally:
        await store.close()
    assert moves_during > 10, "the games did not move while the backup ran"
    assert report.check.ok and report.check.running >= 1
    assert report.line().startswith(f"backup of {source} to {copy}: {report.check.games} games, ")

    kept = restore(copy, restored)
    assert kept.kept is None and kept.check.ok
    assert not list(restored.parent.glob("*.restoring"))
    reopened = await Store.open(restored)
    try:
        games = rows(restored, "SELECT id, status FROM games ORDER BY id")
        assert len(games) == len(finished) + len(playing)
        for game_id, status in games:
            record = await reopened.get_game(game_id)
            log = await reopened.game_moves(game_id)
            assert record is not None
            assert [move.seq for move in log] == list(range(1, record.move_count + 1))
            replayed = replay(record.kind, len(record.seats), record.seed, record.settings, log)
            assert check_snapshot(replayed, record.state).problem is None, f"game #{game_id}"
            assert (status == "finished") == (replayed.outcome() is not None)
            # The copy is one moment of the source: each game's log there is the start of the source's log.
            source_log = rows(source, "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
            assert [(move.seat, move.move) for move in log] == source_log[: len(log)]
        for record in finished:
            query = "SELECT * FROM results WHERE game_id = ? ORDER BY seat"
            assert rows(restored, query, (record.id,)) == rows(source, query, (record.id,)) != []
    finally:
        await reopened.close()


async def test_the_copy_is_one_self_contained_file_at_the_codes_schema(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    store = await Store.open(source)
    try:
        await finished_and_running(store, running=2, finished=0)
        report = await asyncio.to_thread(take_backup, source, tmp_path / "b.db")
    finally:
        await store.close()
    assert report.check.schema == len(load_migrations())
    assert rows(tmp_path / "b.db", "PRAGMA journal_mode") == [("delete",)]
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("b.db")) == ["b.db"]  # noqa: ASYNC240 - a quick look at the test's own folder


async def test_restore_is_refused_while_an_open_store_holds_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "bot.db"
    store = await Store.open(database)
    try:
        await finished_and_running(store, running=1, finished=0)
        take_backup(database, tmp_path / "b.db")
        with pytest.raises(BackupError, match="in use by a running bot") as refused:
            restore(tmp_path / "b.db", database)
        assert refused.value.status == 4
        assert restore_main([str(tmp_path / "b.db"), "--database", str(database)]) == 4
        assert capsys.readouterr().err.strip().splitlines() == [
            f"{database} is in use by a running bot (pid {os.getpid()}): stop the bot, then restore"
        ]
        assert (await store.get_game(1)) is not None  # untouched, still usable
    finally:
        await store.close()
    assert not list(tmp_path.glob("bot.db.before-restore-*"))  # noqa: ASYNC240 - a quick look at the test's own folder


def test_restore_is_refused_while_a_bot_process_holds_the_database(
    holder: tuple[Path, subprocess.Popen[str]], tmp_path: Path
) -> None:
    database, child = holder
    backup = tmp_path / "b.db"
    take_backup(database, backup)
    with pytest.raises(BackupError, match=f"pid {child.pid}") as refused:
        restore(backup, database)
    assert refused.value.status == 4


async def test_restore_keeps_the_file_it_replaces_and_its_wal(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    store = await Store.open(database)
    await finished_and_running(store, running=1, finished=0)
    await store.close()
    take_backup(database, tmp_path / "b.db")
    store = await Store.open(database)
    await finished_and_running(store, running=1, finished=0)  # a second game, after the backup
    await store.close()
    report = restore(tmp_path / "b.db", database, clock=lambda: NOW)
    assert report.kept == tmp_path / "bot.db.before-restore-20250301T120000Z"
    assert rows(database, "SELECT count(*) FROM games") == [(1,)]
    assert rows(report.kept, "SELECT count(*) FROM games") == [(2,)]
    assert f"; the file it replaced is kept as {report.kept}" in report.line()


async def test_a_damaged_backup_is_refused_by_the_check_and_the_database_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "bot.db"
    store = await Store.open(database)
    await finished_and_running(store, running=3, finished=1)
    await store.close()
    backup = tmp_path / "b.db"
    take_backup(database, backup)
    # Damage a page in the middle of the file (a disk's bit rot): the check must find it.
    data = bytearray(backup.read_bytes())
    page = len(data) // 4096 // 2 * 4096
    data[page + 8 : page + 400] = bytes(392)
    backup.write_bytes(bytes(data))
    before = database.read_bytes()
    assert restore_main([str(backup), "--database", str(database)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{backup} failed its check, {database} was not changed: ")
    assert database.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["b.db", "bot.db", "bot.db.lock"]  # noqa: ASYNC240 - a quick look at the test's own folder


async def test_a_snapshot_that_differs_from_its_log_fails_the_check(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    store = await Store.open(database)
    _, playing = await finished_and_running(store, running=2, finished=0)
    await store.close()
    backup = tmp_path / "b.db"
    take_backup(database, backup)
    other = game_class("kasino").new(3, 999).to_dict()  # a snapshot of another deal
    conn = sqlite3.connect(backup)
    conn.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(other), playing[0][0].id))
    conn.commit()
    conn.close()
    check = check_copy(backup)
    assert not check.ok
    assert check.problems == (f"game #{playing[0][0].id}: the snapshot differs from the replay of the move log",)


def test_backup_refuses_an_existing_target_unless_forced_and_a_missing_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "bot.db"
    asyncio.run(filled_database(database))
    (tmp_path / "b.db").write_text("an older backup")
    assert backup_module.main([str(tmp_path / "b.db"), "--database", str(database)]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"{tmp_path / 'b.db'} already exists; give another path, or --force to replace it"
    )
    assert (tmp_path / "b.db").read_text() == "an older backup"
    assert backup_module.main([str(tmp_path / "b.db"), "--database", str(database), "--force"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith(f"backup of {database} to {tmp_path / 'b.db'}: 6 games, 6 running, ")
    assert " checked (quick_check ok, schema " in out[0] and "6 snapshots match their logs) in " in out[0]
    assert backup_module.main([str(tmp_path / "c.db"), "--database", str(tmp_path / "none.db")]) == 5
    assert "none.db does not exist" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "c.db").exists()
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 300)
    assert backup_module.main([str(tmp_path / "d.db"), "--database", str(tmp_path / "junk.db")]) == 5
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert backup_module.main([]) == 2


def test_scheduled_backups_keep_the_newest_and_delete_only_their_own(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    asyncio.run(filled_database(database, games=2))
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    backups = ScheduledBackups(database, folder, every_hours=24, keep=3)
    lines = [backups.take_if_due(NOW + timedelta(hours=hours)) for hours in range(0, 24 * 6, 12)]
    assert [line is not None for line in lines] == [True, False] * 6
    assert [path.name for path in backups.taken()] == [
        "bot-20250304T120000Z.db",
        "bot-20250305T120000Z.db",
        "bot-20250306T120000Z.db",
    ]
    assert (folder / "notes.txt").exists()
    assert lines[-2] is not None and lines[-2].endswith("; 3 kept at most, 1 older removed")
