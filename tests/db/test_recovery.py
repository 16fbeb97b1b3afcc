"""Start-up recovery: the move log replayed from seed and settings (B1) wins over a bad snapshot."""

import json
import logging
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from db.errors import GameNotRunningError, GameStatusError, NotInLobbyError
from db.records import GameRecord
from db.sql_store import SqlStore
from db.store import Store
from engine.base import AnyGame
from engine.registry import game_class
from tests.db.helpers import CHANNEL, GUILD, NOW, later, new_lobby, play_random, real_game, running_game


async def played_file(
    tmp_path: Path, kind: str, users: Sequence[int | None], moves: int = 25
) -> tuple[Path, GameRecord, AnyGame]:
    """A closed database file holding one running game of `kind`; returns (path, record, engine game)."""
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    try:
        record, game = await real_game(store, kind, users)
        record = await play_random(store, record, game, moves, random.Random(11))
    finally:
        await store.close()
    return path, record, game


def overwrite_snapshot(path: Path, game_id: int, text: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (text, game_id))


async def load(path: Path) -> tuple[list[GameRecord], GameRecord | None]:
    """Start-up on `path`: what load_unfinished returns, and the first game as then stored."""
    store = await Store.open(path)
    try:
        loaded = await store.load_unfinished()
        return loaded, await store.get_game(loaded[0].id)
    finally:
        await store.close()


@pytest.mark.parametrize(("kind", "users"), [("kasino", (1, 2)), ("garbage", (1, 2, None))])
@pytest.mark.parametrize("corruption", ["{not json", '{"schema": 1, "kind": "nonsense"}', "initial"])
async def test_b1_replay_wins_over_a_bad_snapshot_and_is_written_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str, users: tuple[int | None, ...], corruption: str
) -> None:
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


async def test_b1_an_intact_snapshot_is_kept_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path, record, _ = await played_file(tmp_path, "kasino", (1, 2, 3))
    with caplog.at_level(logging.WARNING, logger="db.store"):
        (loaded,), _ = await load(path)
    assert loaded == record
    assert caplog.records == []


def break_first_move(path: Path, game_id: int) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE moves SET move = 'fly to the moon' WHERE game_id = ? AND seq = 1", (game_id,))


async def test_a_game_whose_log_cannot_be_replayed_is_frozen_and_named_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path, record, _ = await played_file(tmp_path, "garbage", (1, 2))
    break_first_move(path, record.id)
    with caplog.at_level(logging.WARNING, logger="db.store"):
        (loaded,), stored = await load(path)
    assert (loaded.status, loaded.version, loaded.state) == ("frozen", record.version + 1, record.state)
    assert stored == loaded
    assert [rec.levelname for rec in caplog.records] == ["ERROR"]
    assert (
        caplog.records[0]
        .getMessage()
        .startswith(f"game #{record.id} could not be restored from its move log and was frozen: ")
    )
    assert "\n" not in caplog.text.strip() and "Traceback" not in caplog.text

    caplog.clear()
    store = await Store.open(path)  # the next start-up: not unfinished any more, nothing logged
    try:
        with caplog.at_level(logging.WARNING, logger="db.store"):
            assert await store.load_unfinished() == []
        assert caplog.records == []
    finally:
        await store.close()


async def test_a_frozen_game_accepts_no_moves_and_can_be_cancelled(tmp_path: Path) -> None:
    path, record, _ = await played_file(tmp_path, "kasino", (1, 2))
    break_first_move(path, record.id)
    overwrite_snapshot(path, record.id, "{not json")  # neither the log nor the snapshot can be read
    store = await Store.open(path)
    try:
        (frozen,) = await store.load_unfinished()
        assert (frozen.status, frozen.state) == ("frozen", None)
        refused: pytest.ExceptionInfo[GameStatusError]
        with pytest.raises(GameNotRunningError) as refused:
            await store.save_move(frozen.id, frozen.version, 0, "Q♠ place", {"n": 1}, later(1))
        assert refused.value.status == "frozen"
        with pytest.raises(NotInLobbyError) as refused:
            await store.join_lobby(frozen.id, 9, "u9", later(1))
        assert refused.value.status == "frozen"
        cancelled = await store.cancel_game(frozen.id, later(2))
        assert (cancelled.status, cancelled.version) == ("cancelled", frozen.version + 1)
        assert len(await store.game_moves(frozen.id)) == record.move_count  # the log is kept as evidence
    finally:
        await store.close()


async def test_a_frozen_game_is_not_listed_as_running_due_or_on_a_board(tmp_path: Path) -> None:
    path, record, _ = await played_file(tmp_path, "garbage", (1, 2))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET deadline = ? WHERE id = ?", (NOW.isoformat(), record.id))
    break_first_move(path, record.id)
    store = await Store.open(path)
    try:
        await store.load_unfinished()
        assert await store.games_in_guild(GUILD) == []
        assert await store.running_games_in_channel(CHANNEL) == []
        assert await store.due_games(later(10**6)) == []
        assert [game.id for game in await store.games_in_guild(GUILD, ("frozen",))] == [record.id]
        assert (await store.leaderboard(GUILD, "garbage", "wins")).total == 0
        assert (await store.player_stats(1, GUILD)).server_total.games == 0
    finally:
        await store.close()


async def test_load_unfinished_returns_lobbies_and_running_games_only(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    cancelled = await running_game(store, (3, 4))
    await store.cancel_game(cancelled.id, lobby.created_at)
    record, _ = await real_game(store, "kasino", (5, 6))
    assert [game.id for game in await store.load_unfinished()] == [lobby.id, record.id]
