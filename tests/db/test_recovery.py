"""Start-up recovery: the move log replayed from seed and settings (B1) wins over a bad snapshot."""

import json
import logging
import random
import sqlite3

import pytest

from db.store import Store
from engine.registry import game_class
from tests.db.helpers import new_lobby, play_random, real_game, running_game


async def played_file(tmp_path, kind, users, moves=25):
    """A closed database file holding one running game of `kind`; returns (path, record, engine game)."""
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    try:
        record, game = await real_game(store, kind, users)
        record = await play_random(store, record, game, moves, random.Random(11))
    finally:
        await store.close()
    return path, record, game


def overwrite_snapshot(path, game_id, text):
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (text, game_id))


async def load(path):
    """Start-up on `path`: what load_unfinished returns, and the first game as then stored."""
    store = await Store.open(path)
    try:
        loaded = await store.load_unfinished()
        return loaded, await store.get_game(loaded[0].id)
    finally:
        await store.close()


@pytest.mark.parametrize(("kind", "users"), [("kasino", (1, 2)), ("garbage", (1, 2, None))])
@pytest.mark.parametrize("corruption", ["{not json", '{"schema": 1, "kind": "nonsense"}', "initial"])
async def test_b1_replay_wins_over_a_bad_snapshot_and_is_written_back(tmp_path, caplog, kind, users, corruption):
    path, record, game = await played_file(tmp_path, kind, users)
    if corruption == "initial":  # a readable snapshot of another position: the one before every move
        corruption = json.dumps(game_class(kind).new(len(users), record.seed).to_dict())
    overwrite_snapshot(path, record.id, corruption)

    with caplog.at_level(logging.WARNING, logger="db.store"):
        (loaded,), stored = await load(path)
    assert loaded.game() == game
    assert loaded.version == record.version + 1
    assert stored == loaded  # written back: a second start-up finds nothing to repair
    assert [rec.levelname for rec in caplog.records] == ["WARNING"]
    assert f"game #{record.id}" in caplog.text and "replayed" in caplog.text


async def test_b1_an_intact_snapshot_is_kept_without_a_warning(tmp_path, caplog):
    path, record, _ = await played_file(tmp_path, "kasino", (1, 2, 3))
    with caplog.at_level(logging.WARNING, logger="db.store"):
        (loaded,), _ = await load(path)
    assert loaded == record
    assert caplog.records == []


async def test_a_log_that_cannot_be_replayed_keeps_the_snapshot_and_logs_an_error(tmp_path, caplog):
    path, record, _ = await played_file(tmp_path, "garbage", (1, 2))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE moves SET move = 'fly to the moon' WHERE game_id = ? AND seq = 1", (record.id,))
    with caplog.at_level(logging.WARNING, logger="db.store"):
        (loaded,), _ = await load(path)
    assert loaded == record
    assert [rec.levelname for rec in caplog.records] == ["ERROR"]


async def test_load_unfinished_returns_lobbies_and_running_games_only(store):
    lobby = await new_lobby(store)
    cancelled = await running_game(store, (3, 4))
    await store.cancel_game(cancelled.id, lobby.created_at)
    record, _ = await real_game(store, "kasino", (5, 6))
    assert [game.id for game in await store.load_unfinished()] == [lobby.id, record.id]
